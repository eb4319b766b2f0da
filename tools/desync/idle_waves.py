"""Idle waves (papers.md A.5, B.5): where a delay's idle period travels through the ranks, how
fast, and how it decays. From the timelines alone: the source is the recorded [[inject]] of the
resolved deck, else the longest delay phase on the timeline, else (no delay recorded) the first
iteration with an idle period and the middle one of the ranks idling in it (approximate: the
delayed rank itself does not idle, its neighbours do).

Idle time of (rank, iteration): the summed duration of its idle phases (default: the phases in
which a rank waits for others: wait, sync, barrier and the global reductions), minus the rank's
median over the measured iterations (the lock-step baseline). An excess above the threshold
(default 0.2 of the largest excess) is an idle period. For each direction from the source rank
r0 the wave is the sequence, over distance d = 1, 2, ..., of the first idle period of rank
r0 +- d at or after the source iteration; it ends at the first rank without one. Fitted by least
squares (scipy.stats.linregress):
  speed in ranks/s: d against the time the idle period ended (slope), with r^2;
  speed in ranks/iteration: d against the iteration index (slope);
  decay in s per rank: the idle excess against d (slope; negative = decaying).
sigma_eff = v (T_exec + T_comm) / d_max (papers.md B.5, v_silent = sigma d / (T_exec + T_comm)):
v in ranks/s, T_exec + T_comm the median iteration time of the lock-step iterations, d_max the
largest partner distance of /comm.
"""

import json
import tomllib

import numpy as np
from scipy import stats

from .errors import DesyncError
from .h5file import read
from .phases import phase_intervals, valid
from .timeline import read_timeline
from .window import select_window

IDLE_PHASES = ("wait", "sync", "barrier", "pq_allreduce", "rr_allreduce")


def idle_times(tl, phases=IDLE_PHASES):
    """idle[p, n] (s) summed over the idle phases present, end[p, n] the latest idle phase end."""
    intervals = phase_intervals(tl)
    present = [p for p in phases if p in intervals]
    if not present:
        raise DesyncError("no idle phase in this file (looked for %s; phases: %s)"
                          % (", ".join(phases), ", ".join(intervals)))
    idle = np.zeros(tl.events.shape[:2])
    end = np.full(tl.events.shape[:2], np.nan)
    for p in present:
        b, e = intervals[p]
        ok = valid(b, e)
        idle += np.where(ok, e - b, 0.0)
        end = np.where(ok, np.fmax(end, e), end)
    return idle, end, present


def injection(f):
    """(rank, measured iteration) of the first [[inject]] of the run's resolved deck, or None."""
    text = read(f, "config/resolved")
    if text is None:
        return None
    try:
        inj = tomllib.loads(text if isinstance(text, str) else text.decode()).get("inject", [])
    except (tomllib.TOMLDecodeError, UnicodeDecodeError):
        return None
    return (int(inj[0]["rank"]), int(inj[0]["iteration"])) if inj else None


def detect(idle, end, ranks, iterations, source=None, threshold=0.2):
    """The waves of one source in idle[p, n] / end[p, n] (rows = ranks, columns = iterations in
    deck numbering). source: (rank, iteration) if known. Returns a dict (see the module doc)."""
    excess = idle - np.nanmedian(idle, axis=1, keepdims=True)
    top = np.nanmax(excess)
    if not np.isfinite(top) or top <= 0:
        raise DesyncError("no idle period stands out of the lock-step baseline")
    cut = threshold * top
    big = excess > cut
    row = {int(r): i for i, r in enumerate(ranks)}
    if source is None:  # the first iteration with an idle period; the source between its ranks
        k0 = int(np.argmax(big.any(axis=0)))
        hit = np.flatnonzero(big[:, k0])
        r0 = int(ranks[hit[len(hit) // 2]]) if len(hit) % 2 else int(round(np.mean(ranks[hit])))
        known = False
    else:
        r0, k = source
        k0 = int(np.searchsorted(iterations, k))
        known = True
    waves = []
    for direction in (+1, -1):
        pts = []
        k = k0
        d = 1
        while int(r0) + direction * d in row:
            i = row[int(r0) + direction * d]
            later = np.flatnonzero(big[i, k:])
            if not len(later):
                break
            k = k + int(later[0])
            pts.append((d, int(iterations[k]), float(end[i, k]), float(excess[i, k])))
            d += 1
        waves.append(fit(direction, pts))
    return {"source": {"rank": int(r0), "iteration": int(iterations[k0]), "given": known},
            "threshold_s": float(cut), "waves": waves}


def fit(direction, pts):
    w = {"direction": "up" if direction > 0 else "down", "reached": len(pts),
         "points": [{"distance": d, "iteration": k, "idle_end_s": t, "idle_s": x} for d, k, t, x in pts]}
    if len(pts) < 3:
        w["note"] = "fewer than 3 ranks reached: no fit"
        return w
    d, k, t, x = (np.array(v, float) for v in zip(*pts))
    by_time = stats.linregress(t, d)
    w["speed_ranks_per_s"] = float(by_time.slope)
    w["speed_r2"] = float(by_time.rvalue ** 2)
    w["speed_ranks_per_iteration"] = float(stats.linregress(k, d).slope) if np.ptp(k) > 0 else float("inf")
    w["decay_s_per_rank"] = float(stats.linregress(d, x).slope)
    w["idle_first_s"], w["idle_last_s"] = float(x[0]), float(x[-1])
    return w


def max_distance(f):
    send = read(f, "comm/send_partner")
    if send is None:
        return None
    send = np.asarray(send)
    me = np.arange(send.shape[0])[:, None]
    d = np.abs(np.where(send >= 0, send - me, 0))
    return int(d.max()) if d.size else None


def recorded_delay(tl):
    """(rank, iteration) of the longest delay phase on the timeline (injected delays are
    recorded as delay_begin/delay_end), or None."""
    intervals = phase_intervals(tl)
    if "delay" not in intervals:
        return None
    b, e = intervals["delay"]
    d = np.where(valid(b, e), e - b, -np.inf)
    if not np.isfinite(d).any():
        return None
    i, k = np.unravel_index(int(np.argmax(d)), d.shape)
    return int(tl.ranks[i]), int(tl.iterations[k])


def analyse(f, phases=IDLE_PHASES, threshold=0.2):
    window = select_window(f)
    tl = read_timeline(f, window)
    idle, end, present = idle_times(tl, phases)
    source = injection(f) or recorded_delay(tl)
    result = detect(idle, end, tl.ranks, tl.iterations, source, threshold)
    result["idle_phases"] = present
    # lock-step iteration time: median over ranks and iterations of the iteration phase
    b, e = phase_intervals(tl, iteration=True)["iteration"]
    t_iter = float(np.nanmedian(np.where(valid(b, e), e - b, np.nan)))
    dmax = max_distance(f)
    result["iteration_time_s"] = t_iter
    result["max_partner_distance"] = dmax
    for w in result["waves"]:
        if "speed_ranks_per_s" in w and dmax:
            w["sigma_eff"] = w["speed_ranks_per_s"] * t_iter / dmax
    return result


def report(result, path):
    s = result["source"]
    lines = ["idle waves in %s: source rank %d at iteration %d (%s), idle phases %s, threshold %.3g ms"
             % (path, s["rank"], s["iteration"], "recorded" if s["given"] else "detected, approximate",
                "+".join(result["idle_phases"]), result["threshold_s"] * 1e3)]
    for w in result["waves"]:
        if "speed_ranks_per_s" not in w:
            lines.append("  %-4s reached %d rank(s): %s" % (w["direction"], w["reached"], w.get("note", "")))
            continue
        lines.append("  %-4s reached %d rank(s): %.4g ranks/s (r^2 %.3f), %.3g ranks/iteration, decay %.3g ms/rank "
                     "(idle %.3g -> %.3g ms)%s"
                     % (w["direction"], w["reached"], w["speed_ranks_per_s"], w["speed_r2"], w["speed_ranks_per_iteration"],
                        w["decay_s_per_rank"] * 1e3, w["idle_first_s"] * 1e3, w["idle_last_s"] * 1e3,
                        ", sigma_eff %.3g" % w["sigma_eff"] if "sigma_eff" in w else ""))
    return "\n".join(lines)


def cmd_idlewave(args):
    from .h5file import open_output

    with open_output(args.file) as f:
        result = analyse(f, tuple(args.phases.split(",")) if args.phases else IDLE_PHASES, args.threshold)
    print(report(result, args.file))
    if args.json:
        with open(args.json, "w") as out:
            json.dump(result, out, indent=1)
        print("wrote %s" % args.json)
    return 0
