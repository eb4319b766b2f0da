"""Computational wavefronts and concurrency (papers.md A.5, B.5).

Wavefront of step k: the line (rank, time rank r finished step k), where a rank finishes a step
at its iteration's latest event. Fitted by least squares (scipy.stats.linregress) of rank against
time: slope in ranks/s with the correlation coefficient r (a steep front, large |slope|, means a
small skew); amplitude = latest - earliest finish over the ranks (the skew). Piecewise: one fit per
contention domain (/topology/contention_domain) with at least 3 ranks.
Topology-true (issue 29, item 4), where the file records its communication graph (comm_graph.py):
the same fit with each rank's hop distance (edges either way) from the step's earliest rank in
place of its rank number: slope in hops/s, r_hops, origin_rank. On an open chain of next
neighbours, from rank 0, the two fits agree; on a periodic ring (rank P - 1 is one hop from rank
0), a 2D/3D process grid (hops: the Manhattan distance) or an SpMV partner list only the hop fit
measures how far the front travels. The slowest rank of step k
is the one that finishes it last; its position over the steps shows where the front's tail
travels.

Concurrency: at S instants evenly spread over the measured span (default 200), the number of
ranks of each contention domain inside a work phase (class work of the file's /phases,
phase_classes.work_phases: the phases that execute user code, not waiting or communicating, not
injected delay); per domain its mean, min and max over
the instants.

Lock-step vs. wave phase (papers.md A.6: runs leave lock-step after a disturbance and build
wavefronts): iteration n of the window is in the wave phase when
  its amplitude A(n) = max_r F(r, n) - min_r F(r, n) > max(2 median_n A, 0.1 T_iter), or
  some rank has an idle period in it: E(r, n) = I(r, n) - median_k I(r, k) > 0.25 T_iter
(I the idle time of idle.py, over the phases of classes wait and sync; T_iter the median iteration time over ranks and iterations;
the factors are the parameters of iteration_classes); every other iteration is lock-step. For
each class: the iterations in it and the mean over its (rank, iteration) pairs of the compute
time (class work) and of the communication time (every other phase except the injected delay,
class delay, and the sums, class total: phase_classes.not_communication) per iteration.

The `wavefront` subcommand is view_commands/wavefront.py.
"""

import numpy as np
from scipy import stats

from .comm_graph import hops_from, send_graph
from .errors import DesyncError
from .h5file import read_per_rank
from .idle import idle_times
from .phase_classes import FALLBACK_DELAY, FALLBACK_WORK, idle_phases, not_communication, work_phases
from .phases import phase_intervals, valid
from .timeline import latest_event, read_timeline
from .window import require_consecutive, select_window

# The phase sets of files without /phases (phase_classes.py); analyse() takes the file's own.
WORK_PHASES = FALLBACK_WORK


def front(t, ranks):
    """Fit of one step's finish times t[r] (NaN: rank missing): slope ranks/s, r, amplitude s."""
    ok = np.isfinite(t)
    if ok.sum() < 3 or np.ptp(t[ok]) == 0:
        return None
    fit = stats.linregress(t[ok], np.asarray(ranks, float)[ok])
    return {"slope_ranks_per_s": float(fit.slope), "r": float(fit.rvalue), "amplitude_s": float(np.ptp(t[ok]))}


class HopFits:
    """The hop fit of a step's finish times on a communication graph (module doc); the hop
    distances from each origin are computed once."""

    def __init__(self, graph):
        self.graph, self.hops = graph, {}

    def __call__(self, t, ranks):
        """{slope_hops_per_s, r_hops, origin_rank} of finish times t[i] of ranks[i], or {}."""
        ranks = np.asarray(ranks)
        ok = np.isfinite(t)
        if ok.sum() < 3 or np.ptp(t[ok]) == 0:
            return {}
        origin = int(ranks[ok][np.argmin(t[ok])])
        if origin not in self.hops:
            self.hops[origin] = hops_from(self.graph, origin, directed=False)
        h = self.hops[origin][ranks[ok]]
        reach = np.isfinite(h)
        if reach.sum() < 3 or np.ptp(h[reach]) == 0:
            return {}
        fit = stats.linregress(t[ok][reach], h[reach])
        return {"slope_hops_per_s": float(fit.slope), "r_hops": float(fit.rvalue), "origin_rank": origin}


def wavefronts(finish, ranks, iterations, domains=None, steps=None, graph=None):
    """finish[p, n]: when rank p finished iteration n. steps: deck iteration numbers to report
    (default: 5 evenly spread); graph: the communication graph (comm_graph.send_graph), for the
    hop fits. Returns per-step fronts, the median over all steps and the slowest rank of every
    step."""
    hop_fit = HopFits(graph) if graph is not None else (lambda t, r: {})
    per_step = [front(finish[:, n], ranks) for n in range(finish.shape[1])]
    per_step = [dict(f, **hop_fit(finish[:, n], ranks)) if f else f for n, f in enumerate(per_step)]
    good = [f for f in per_step if f]
    if steps is None:
        steps = [int(iterations[i]) for i in np.linspace(0, len(iterations) - 1, min(5, len(iterations))).astype(int)]
    else:
        absent = [k for k in steps if k not in set(int(i) for i in iterations)]
        if absent:
            raise DesyncError("--steps %s: not in the window (iterations %d..%d%s); allowed: its iterations"
                              % (",".join(str(k) for k in absent), int(iterations[0]), int(iterations[-1]),
                                 "" if len(iterations) == int(iterations[-1]) - int(iterations[0]) + 1 else ", with gaps"))
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
                    entry["per_domain"][str(dom)] = dict(f, **hop_fit(finish[sel, n], np.asarray(ranks)[sel]))
        out["steps"].append(entry)
    if good:
        # Median and interquartile range over the steps (peers.md 4.1: a slope is reported so).
        slopes = [f["slope_ranks_per_s"] for f in good]
        out["median_slope_ranks_per_s"] = float(np.median(slopes))
        out["iqr_slope_ranks_per_s"] = [float(q) for q in np.percentile(slopes, [25, 75])]
        out["median_abs_r"] = float(np.median([abs(f["r"]) for f in good]))
        out["median_amplitude_s"] = float(np.median([f["amplitude_s"] for f in good]))
        hop = [f["slope_hops_per_s"] for f in good if "slope_hops_per_s" in f]
        if hop:
            out["median_slope_hops_per_s"] = float(np.median(hop))
            out["iqr_slope_hops_per_s"] = [float(q) for q in np.percentile(hop, [25, 75])]
            out["median_abs_r_hops"] = float(np.median([abs(f["r_hops"]) for f in good if "r_hops" in f]))
    last = np.where(np.isfinite(finish), finish, -np.inf)
    out["slowest_rank"] = [int(ranks[i]) for i in np.argmax(last, axis=0)]
    return out


def busy(intervals, times, work=WORK_PHASES):
    """busy[p, s]: rank p (row of the intervals) is inside a work-phase interval at times[s]
    (begin <= t < end; the latest interval beginning at or before t decides)."""
    shape = next(iter(intervals.values()))[0].shape
    out = np.zeros((shape[0], len(times)), bool)
    for phase in work:
        if phase not in intervals:
            continue
        b, e = intervals[phase]
        ok = valid(b, e)
        for r in range(b.shape[0]):
            bb, ee = b[r][ok[r]], e[r][ok[r]]
            if not len(bb):
                continue
            order = np.argsort(bb)
            bb, ee = bb[order], ee[order]
            i = np.searchsorted(bb, times, side="right") - 1  # the latest interval starting before t
            out[r] |= (i >= 0) & (times < ee[np.clip(i, 0, len(ee) - 1)])
    return out


def concurrency(intervals, domains, t0, t1, samples=200, work=WORK_PHASES):
    """{domain: {mean, min, max, ranks}} of ranks inside a work phase at `samples` instants in
    [t0, t1]; intervals: phase_intervals of the timeline (begin, end [p, n])."""
    times = np.linspace(t0, t1, samples)
    busy_ = busy(intervals, times, work)
    out = {}
    for dom in sorted(set(int(d) for d in domains)):
        sel = np.asarray(domains) == dom
        n = busy_[sel].sum(axis=0)
        out[str(dom)] = {"ranks": int(sel.sum()), "mean": float(n.mean()), "min": int(n.min()), "max": int(n.max())}
    return out


#: injected busy work: neither compute nor communication in the class averages
NOT_COMM = FALLBACK_DELAY


def iteration_classes(finish, excess, t_iter, amplitude_factor=2.0, amplitude_floor=0.1, idle_fraction=0.25):
    """[n] True for wave-phase iterations (module doc). finish[p, n]: finish times; excess[p, n]:
    idle time minus the rank's median (None: no idle phase, amplitude rule only); t_iter: the
    median iteration time. Returns (wave[n], amplitude[n], amplitude cut, idle cut)."""
    ok = np.isfinite(finish)
    lo = np.min(np.where(ok, finish, np.inf), axis=0)
    hi = np.max(np.where(ok, finish, -np.inf), axis=0)
    amp = np.where(ok.any(axis=0), hi - lo, np.nan)
    amp_cut = max(amplitude_factor * float(np.nanmedian(amp)), amplitude_floor * t_iter) if np.isfinite(amp).any() else np.inf
    with np.errstate(invalid="ignore"):
        wave = amp > amp_cut
        idle_cut = idle_fraction * t_iter
        if excess is not None:
            wave |= (excess > idle_cut).any(axis=0)
    return wave, amp, amp_cut, idle_cut


def compute_and_comm(intervals, work=WORK_PHASES, not_comm=NOT_COMM):
    """(compute[p, n], communication[p, n], ran[p, n]): per (rank, iteration) the summed work
    phases, the summed other phases except the injected delay, and whether any phase happened."""
    shape = next(iter(intervals.values()))[0].shape
    comp, comm, ran = np.zeros(shape), np.zeros(shape), np.zeros(shape, bool)
    for name, (b, e) in intervals.items():
        if name == "iteration" or name in not_comm:
            continue
        ok = valid(b, e)
        ran |= ok
        d = np.where(ok, e - b, 0.0)
        if name in work:
            comp += d
        else:
            comm += d
    return comp, comm, ran


def phase_averages(intervals, wave, work=WORK_PHASES, not_comm=NOT_COMM):
    """{lock_step, wave_phase}: iterations and mean compute / communication time per rank and
    iteration (s) of the class, over the (rank, iteration) pairs in which some phase happened
    (a sleeping rank of the collective workloads counts in neither); intervals: phase_intervals."""
    comp, comm, ran = compute_and_comm(intervals, work, not_comm)
    out = {}
    for key, sel in (("lock_step", ~wave), ("wave_phase", wave)):
        entry = {"iterations": int(sel.sum())}
        pairs = ran & sel[None, :]
        if pairs.any():
            entry["compute_s"] = float(comp[pairs].mean())
            entry["communication_s"] = float(comm[pairs].mean())
        out[key] = entry
    return out


def lockstep_vs_wave(tl, intervals, finish, work=WORK_PHASES, not_comm=NOT_COMM, idle_phases=None, **rule):
    """The classification and the class averages of a timeline (module doc)."""
    try:
        idle, _, _ = idle_times(tl, idle_phases) if idle_phases else idle_times(tl)
        excess = idle - np.nanmedian(idle, axis=1, keepdims=True)
    except DesyncError:  # no idle phase in this workload: amplitude rule alone
        excess = None
    b, e = phase_intervals(tl, iteration=True)["iteration"]
    t_iter = float(np.nanmedian(np.where(valid(b, e), e - b, np.nan)))
    wave, amp, amp_cut, idle_cut = iteration_classes(finish, excess, t_iter, **rule)
    out = phase_averages(intervals, wave, work, not_comm)
    out.update({"iteration_time_s": t_iter, "amplitude_cut_s": float(amp_cut),
                "idle_cut_s": float(idle_cut) if excess is not None else None,
                "wave_iterations": [int(k) for k in np.asarray(tl.iterations)[wave]],
                "communication_phases": [p for p in intervals if p not in work and p not in not_comm]})
    return out


def analyse(f, steps=None, samples=200):
    window = select_window(f)
    require_consecutive(window, "wavefront (its concurrency and lock-step tests)")
    tl = read_timeline(f, window)
    finish = latest_event(tl.events)
    domains = read_per_rank(f, "topology/contention_domain")
    domains = None if domains is None else np.asarray(domains)[tl.ranks]
    result = {"wavefront": wavefronts(finish, tl.ranks, tl.iterations, domains, steps, send_graph(f))}
    intervals = phase_intervals(tl)
    t0 = float(np.nanmin(tl.events))
    t1 = float(np.nanmax(tl.events))
    dom = domains if domains is not None else np.zeros(len(tl.ranks), int)
    work = work_phases(f)
    result["concurrency"] = concurrency(intervals, dom, t0, t1, samples, work)
    result["samples"] = int(samples)
    result["work_phases"] = [p for p in work if p in intervals]
    result["lockstep_vs_wave"] = lockstep_vs_wave(tl, intervals, finish, work, not_communication(f), idle_phases(f))
    return result
