"""`desync-view idlewave FILE`: idle waves, their source, speed, decay, sigma_eff and the
contention model (idle_waves.py); "no idle wave" (exit status 0) when no idle period stands out."""

import numpy as np

from ..h5file import open_output
from ..idle_waves import analyse
from ..json_out import dump_json
from .options import finite_number, name_list


def register(sub):
    p = sub.add_parser("idlewave", help="idle waves: source, speed, decay, sigma_eff")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--json", metavar="OUT.json", help="also write the result as JSON")
    p.add_argument("--phases", type=name_list, metavar="P1,P2", help="idle phases (default: wait, sync, barrier, the global reductions)")
    p.add_argument("--threshold", type=finite_number(0, 1, low_open=True), default=0.2,
                   help="an idle period: excess over the rank's median above this share of the largest (default 0.2)")
    p.add_argument("--min-idle", type=finite_number(0), default=None, metavar="K",
                   help="an idle period: excess above K lock-step iterations too (default: 0 if the file records "
                        "a delay, 2 if not); none above it: no idle wave")
    p.add_argument("--sigma", type=finite_number(0, low_open=True), default=1.0,
                   help="pattern factor sigma of the contention model v = sigma d / (t1 max(1, N/C) + T_comm) (default 1)")
    p.set_defaults(func=run)


def run(args):
    with open_output(args.file) as f:
        result = analyse(f, tuple(args.phases) if args.phases else None, args.threshold,
                         args.min_idle, args.sigma)
    print(report(result, args.file))
    if args.json:
        with open(args.json, "w") as out:
            dump_json(result, out, indent=1)
        print("wrote %s" % args.json)
    return 0


def report(result, path):
    if "no_wave" in result:
        return ("no idle wave in %s: %s (idle phases %s; floor %.3g lock-step iterations of %.3g ms)"
                % (path, result["no_wave"].replace("no idle wave: ", ""), "+".join(result["idle_phases"]),
                   result["min_idle_iterations"], result["iteration_time_s"] * 1e3))
    s = result["source"]
    lines = ["idle waves in %s: source rank %d at iteration %d (%s), idle phases %s, threshold %.3g ms"
             % (path, s["rank"], s["iteration"], "recorded" if s["given"] else "detected, approximate",
                "+".join(result["idle_phases"]), result["threshold_s"] * 1e3)]
    if np.isfinite(result.get("noise_power_s2", np.nan)):
        lines.append("  noise: std %.3g ms of the work + delay time per iteration (noise power %.3g ms^2; mean over ranks)"
                     % (result["noise_std_s"] * 1e3, result["noise_power_s2"] * 1e6))
    for w in result["waves"]:
        if "speed_ranks_per_s" not in w:
            lines.append("  %-4s reached %d rank(s): %s" % (w["direction"], w["reached"], w.get("note", "")))
            continue
        lines.append("  %-4s reached %d rank(s): %.4g ranks/s (r^2 %.3f), %.3g ranks/iteration, decay %.3g ms/rank "
                     "(idle %.3g -> %.3g ms)%s"
                     % (w["direction"], w["reached"], w["speed_ranks_per_s"], w["speed_r2"], w["speed_ranks_per_iteration"],
                        w["decay_s_per_rank"] * 1e3, w["idle_first_s"] * 1e3, w["idle_last_s"] * 1e3,
                        ", sigma_eff %.3g" % w["sigma_eff"] if "sigma_eff" in w else ""))
        if "note" in w:
            lines.append("       %s" % w["note"])
        m = w.get("model")
        if m and "note" in m:
            lines.append("       %s" % m["note"])
        elif m:
            lines.append("       contention model v = sigma d / (t1 max(1, N/C) + T_comm) = %g x %g / (%.3g ms x max(1, %.2f/%g)"
                         " + %.3g ms) = %.4g ranks/s; measured / model %.3f, sigma_eff_contention %.3g"
                         % (m["sigma"], m["distance"], m["t1_s"] * 1e3, m["concurrency"], m["cores"], m["comm_s"] * 1e3,
                            m["speed_ranks_per_s"], m["measured_over_model"], m["sigma_eff_contention"]))
    return "\n".join(lines)
