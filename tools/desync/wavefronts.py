"""Computational wavefronts and concurrency (papers.md A.5, B.5).

Wavefront of step k: the line (rank, time rank r finished step k), where a rank finishes a step
at its iteration's latest event. Fitted by least squares (scipy.stats.linregress) of rank against
time: slope in ranks/s with the correlation coefficient r (a steep front, large |slope|, means a
small skew); amplitude = latest - earliest finish over the ranks (the skew). Piecewise: one fit per
contention domain (/topology/contention_domain) with at least 3 ranks. The slowest rank of step k
is the one that finishes it last; its position over the steps shows where the front's tail
travels.

Concurrency: at S instants evenly spread over the measured span (default 200), the number of
ranks of each contention domain inside a work phase (WORK_PHASES: the phases that execute user
code, not waiting or communicating, not injected delay); per domain its mean, min and max over
the instants.
"""

import numpy as np
from scipy import stats

from .h5file import read
from .phases import phase_intervals, valid
from .timeline import latest_event, read_timeline
from .window import select_window

WORK_PHASES = ("compute", "local", "remote", "sweep", "fused", "part1", "part2", "interior", "spmv", "pq",
               "update", "direction", "product", "gemm1", "gemm2", "cannon1", "cannon2")


def front(t, ranks):
    """Fit of one step's finish times t[r] (NaN: rank missing): slope ranks/s, r, amplitude s."""
    ok = np.isfinite(t)
    if ok.sum() < 3 or np.ptp(t[ok]) == 0:
        return None
    fit = stats.linregress(t[ok], np.asarray(ranks, float)[ok])
    return {"slope_ranks_per_s": float(fit.slope), "r": float(fit.rvalue), "amplitude_s": float(np.ptp(t[ok]))}


def wavefronts(finish, ranks, iterations, domains=None, steps=None):
    """finish[p, n]: when rank p finished iteration n. steps: deck iteration numbers to report
    (default: 5 evenly spread). Returns per-step fronts, the median over all steps and the
    slowest rank of every step."""
    per_step = [front(finish[:, n], ranks) for n in range(finish.shape[1])]
    good = [f for f in per_step if f]
    if steps is None:
        steps = [int(iterations[i]) for i in np.linspace(0, len(iterations) - 1, min(5, len(iterations))).astype(int)]
    out = {"steps": []}
    for k in steps:
        n = int(np.searchsorted(iterations, k))
        if n >= len(iterations) or iterations[n] != k or per_step[n] is None:
            continue
        entry = dict(per_step[n], iteration=int(k))
        if domains is not None:
            entry["per_domain"] = {}
            for dom in sorted(set(int(d) for d in domains)):
                sel = np.asarray(domains) == dom
                f = front(finish[sel, n], np.asarray(ranks)[sel])
                if f:
                    entry["per_domain"][str(dom)] = f
        out["steps"].append(entry)
    if good:
        out["median_slope_ranks_per_s"] = float(np.median([f["slope_ranks_per_s"] for f in good]))
        out["median_abs_r"] = float(np.median([abs(f["r"]) for f in good]))
        out["median_amplitude_s"] = float(np.median([f["amplitude_s"] for f in good]))
    last = np.where(np.isfinite(finish), finish, -np.inf)
    out["slowest_rank"] = [int(ranks[i]) for i in np.argmax(last, axis=0)]
    return out


def concurrency(intervals, domains, t0, t1, samples=200, work=WORK_PHASES):
    """{domain: {mean, min, max, ranks}} of ranks inside a work phase at `samples` instants in
    [t0, t1]; intervals: phase_intervals of the timeline (begin, end [p, n])."""
    times = np.linspace(t0, t1, samples)
    busy = np.zeros((len(domains), samples), bool)
    for p in work:
        if p not in intervals:
            continue
        b, e = intervals[p]
        ok = valid(b, e)
        for r in range(b.shape[0]):
            bb, ee = b[r][ok[r]], e[r][ok[r]]
            if not len(bb):
                continue
            order = np.argsort(bb)
            bb, ee = bb[order], ee[order]
            i = np.searchsorted(bb, times, side="right") - 1  # the latest interval starting before t
            inside = (i >= 0) & (times < ee[np.clip(i, 0, len(ee) - 1)])
            busy[r] |= inside
    out = {}
    for dom in sorted(set(int(d) for d in domains)):
        sel = np.asarray(domains) == dom
        n = busy[sel].sum(axis=0)
        out[str(dom)] = {"ranks": int(sel.sum()), "mean": float(n.mean()), "min": int(n.min()), "max": int(n.max())}
    return out


def analyse(f, steps=None, samples=200):
    window = select_window(f)
    tl = read_timeline(f, window)
    finish = latest_event(tl.events)
    domains = read(f, "topology/contention_domain")
    domains = None if domains is None else np.asarray(domains)[tl.ranks]
    result = {"wavefront": wavefronts(finish, tl.ranks, tl.iterations, domains, steps)}
    intervals = phase_intervals(tl)
    t0 = float(np.nanmin(tl.events))
    t1 = float(np.nanmax(tl.events))
    dom = domains if domains is not None else np.zeros(len(tl.ranks), int)
    result["concurrency"] = concurrency(intervals, dom, t0, t1, samples)
    result["work_phases"] = [p for p in WORK_PHASES if p in intervals]
    return result


def report(result, path):
    w = result["wavefront"]
    lines = ["computational wavefronts in %s:" % path]
    if "median_slope_ranks_per_s" in w:
        lines.append("  all steps: median slope %.4g ranks/s, median |r| %.3f, median amplitude %.3g ms"
                     % (w["median_slope_ranks_per_s"], w["median_abs_r"], w["median_amplitude_s"] * 1e3))
    for s in w["steps"]:
        lines.append("  step %d: slope %.4g ranks/s (r %.3f), amplitude %.3g ms%s"
                     % (s["iteration"], s["slope_ranks_per_s"], s["r"], s["amplitude_s"] * 1e3,
                        "".join("; domain %s %.4g ranks/s" % (d, v["slope_ranks_per_s"])
                                for d, v in s.get("per_domain", {}).items())))
    lines.append("concurrency (ranks in %s at %s instants):" % ("+".join(result["work_phases"]) or "no work phase", "200"))
    for d, c in result["concurrency"].items():
        lines.append("  domain %s (%d ranks): mean %.2f, min %d, max %d" % (d, c["ranks"], c["mean"], c["min"], c["max"]))
    return "\n".join(lines)


def cmd_wavefront(args):
    import json

    from .h5file import open_output

    steps = [int(x) for x in args.steps.split(",")] if args.steps else None
    with open_output(args.file) as f:
        result = analyse(f, steps, args.samples)
    print(report(result, args.file))
    if args.json:
        with open(args.json, "w") as out:
            json.dump(result, out, indent=1)
        print("wrote %s" % args.json)
    return 0
