"""`desync-view wavefront FILE`: computational wavefronts (slope, r, amplitude), the concurrency
per contention domain and the lock-step vs. wave-phase averages (wavefronts.py)."""

from ..h5file import open_output
from ..wavefronts import analyse
from ..json_out import dump_json
from .options import bounded_int, int_list


def register(sub):
    p = sub.add_parser("wavefront", help="computational wavefronts (slope, r, amplitude) and concurrency per domain")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--steps", type=int_list, metavar="K1,K2", help="iterations to report (default: 5 evenly spread)")
    p.add_argument("--samples", type=bounded_int(1, 10**6), default=200, help="instants for the concurrency count (default 200)")
    p.add_argument("--json", metavar="OUT.json", help="also write the result as JSON")
    p.set_defaults(func=run)


def run(args):
    with open_output(args.file) as f:
        result = analyse(f, args.steps, args.samples)
    print(report(result, args.file))
    if args.json:
        with open(args.json, "w") as out:
            dump_json(result, out, indent=1)
        print("wrote %s" % args.json)
    return 0


def report(result, path):
    w = result["wavefront"]
    lines = ["computational wavefronts in %s:" % path]
    hops = lambda x: (", %.4g hops/s (r %.3f) from rank %d" % (x["slope_hops_per_s"], x["r_hops"], x["origin_rank"])  # noqa: E731
                      if "slope_hops_per_s" in x else "")
    if "median_slope_ranks_per_s" in w:
        lines.append("  all steps: median slope %.4g ranks/s (IQR %.4g .. %.4g), median |r| %.3f%s, median amplitude %.3g ms"
                     % (w["median_slope_ranks_per_s"], w["iqr_slope_ranks_per_s"][0], w["iqr_slope_ranks_per_s"][1],
                        w["median_abs_r"],
                        "; along the communication graph %.4g hops/s (IQR %.4g .. %.4g), median |r| %.3f"
                        % (w["median_slope_hops_per_s"], w["iqr_slope_hops_per_s"][0], w["iqr_slope_hops_per_s"][1],
                           w["median_abs_r_hops"]) if "median_slope_hops_per_s" in w else "",
                        w["median_amplitude_s"] * 1e3))
    if not w["steps"]:
        lines.append("  none fitted: a front needs at least 3 ranks whose step ends differ")
    for s in w["steps"]:
        lines.append("  step %d: slope %.4g ranks/s (r %.3f)%s, amplitude %.3g ms%s"
                     % (s["iteration"], s["slope_ranks_per_s"], s["r"], hops(s), s["amplitude_s"] * 1e3,
                        "".join("; domain %s %.4g ranks/s%s" % (d, v["slope_ranks_per_s"], hops(v))
                                for d, v in s.get("per_domain", {}).items())))
    lines.append("concurrency (ranks in %s at %s instants):" % ("+".join(result["work_phases"]) or "no work phase", result.get("samples", 200)))
    for d, c in result["concurrency"].items():
        lines.append("  domain %s (%d ranks): mean %.2f, min %d, max %d" % (d, c["ranks"], c["mean"], c["min"], c["max"]))
    lw = result.get("lockstep_vs_wave")
    if lw:
        lines.append("lock-step vs. wave phase (wave: amplitude > %.3g ms%s; per rank and iteration, "
                     "communication = %s):"
                     % (lw["amplitude_cut_s"] * 1e3,
                        "" if lw["idle_cut_s"] is None else " or an idle period > %.3g ms" % (lw["idle_cut_s"] * 1e3),
                        "+".join(lw["communication_phases"]) or "none"))
        for key, label in (("lock_step", "lock-step"), ("wave_phase", "wave phase")):
            c = lw[key]
            if "compute_s" in c:
                lines.append("  %-10s %4d iterations: compute %.4g ms, communication %.4g ms"
                             % (label, c["iterations"], c["compute_s"] * 1e3, c["communication_s"] * 1e3))
            else:
                lines.append("  %-10s %4d iterations" % (label, c["iterations"]))
    return "\n".join(lines)
