"""Idle waves (papers.md A.5, B.5): where a delay's idle period travels through the ranks, how
fast, and how it decays. From the timelines alone: the source is the recorded [[inject]] of the
resolved deck, else the longest delay phase on the timeline, else (no delay recorded) the first
iteration with an idle period and the middle one of the ranks idling in it (approximate: the
delayed rank itself does not idle, its neighbours do).

Idle time of (rank, iteration): the summed duration of its idle phases (default: the phases in
which a rank waits for others, classes wait and sync of the file's /phases,
phase_classes.idle_phases: wait, sync, barrier and the global reductions), minus the rank's
median over the measured iterations (the lock-step baseline). An excess above the cut
max(threshold x the largest excess, floor) is an idle period (threshold default 0.2; floor =
min_idle lock-step iterations: default 0 when the file records a delay, 2 when it records none,
so that the time-sharing jitter of a run without a delay is not taken for a wave). Without any
excess above the floor the run shows no idle wave (NoIdleWave; analyse reports it as a result).
For each direction from the source rank r0 the wave is the sequence, over distance d = 1, 2,
..., of the first idle period of rank r0 +- d at or after the source iteration; it ends at the
first rank without one. Fitted by least squares (scipy.stats.linregress):
  speed in ranks/s: d against the time the idle period ended (slope), with r^2;
  speed in ranks/iteration: d against the iteration index (slope);
  decay in s per rank: the idle excess against d (slope; negative = decaying).
sigma_eff = v (T_exec + T_comm) / d (papers.md B.5, v_silent = sigma d / (T_exec + T_comm)):
v in ranks/s, T_exec + T_comm the median iteration time of the lock-step iterations, d the ranks
one hop of the communication graph covers along the wave's direction (comm_graph.ranks_per_hop:
the largest distance / hops from the source over the ranks on that side, hops counted along the
send edges of /comm or /messages): 2 for a chain with partners +-1, +-2, 1 for a periodic ring
(its far end is one hop away, not P - 1 ranks). The same d is the detection's reach per direction.

Contention-aware model (papers.md B.5, v_silent(N) = sigma d / (N V / b(N) + T_comm), with the
core-bound b(N) = min(N, C) b1 of C cores): a rank's compute phase takes
T_exec(N) = t1 max(1, N / C) while N ranks of its node compute, so
  v_model = sigma d / (t1 max(1, N / C) + T_comm),
  sigma_eff_contention = v (t1 max(1, N / C) + T_comm) / d,
with C the distinct CPUs in the union of the node's /topology/process_cpuset; t1 the
uncontended compute time, from the same law in lock-step: t1 = (median over (rank, iteration)
of the work phases, phase_classes.work_phases) / max(1, N_ls / C), N_ls the mean number of the
node's ranks inside a work phase at instants outside the disturbance (before the source
iteration, after the waves' last idle end + 2 lock-step iterations; = P when all P ranks of
the node compute at once, giving min(P, C) / P); T_comm the median over (rank, iteration) of
the other phases (post, wait, ...; not the injected delay); N the mean number of the node's
ranks inside a work phase between the first and the last idle end of the wave
(concurrency_plot.concurrency_series); d as above; sigma = 1 unless given. Behind a travelling
front the ranks ahead are blocked, so N is smaller than P and the wave runs faster than one
step per lock-step iteration on oversubscribed cores. With several nodes, T_exec is the mean
over the wave's points of the value of the node holding the point's rank.

Noise power (peers.md 4.1: a decay is reported with the noise that causes it; ISC'21: the
noise-induced decay rate depends on the noise power only): per rank the variance over the
iterations of its time in work and delay phases (Ce - Cs of the papers, where the noise sits; here
[noise] busy work is a delay phase), the cells of the deck's [[inject]] delays left out (they
are not noise); noise_power_s2 is the mean over the ranks, noise_std_s its square root. A lock-step run without [noise] has the
machine's own noise there.

The `idlewave` subcommand is view_commands/idlewave.py.
"""

import tomllib

import numpy as np
from scipy import stats

from .comm_graph import hops_from, ranks_per_hop, send_graph, wave_line
from .concurrency_plot import concurrency_series, domain_cores
from .errors import DesyncError
from .h5file import read_per_rank, read_text
from .idle import idle_times
from .phase_classes import FALLBACK_DELAY, delay_phases, idle_phases, not_communication, work_phases
from .phases import phase_intervals, time_in, valid
from .timeline import read_timeline
from .wavefronts import compute_and_comm
from .window import consecutive, select_window

#: floor of an idle period in lock-step iterations when the file records no delay
MIN_IDLE_WITHOUT_DELAY = 2.0
#: instants at which the concurrency during a wave is counted
CONCURRENCY_SAMPLES = 1000


class NoIdleWave(DesyncError):
    """No idle period stands out of the lock-step baseline: the run shows no idle wave."""


def injections(f):
    """[(rank, measured iteration)] of every [[inject]] of the run's resolved deck ([] if none or
    unreadable)."""
    text = read_text(f, "config/resolved")
    try:
        inj = tomllib.loads(text).get("inject", []) if text is not None else []
    except (tomllib.TOMLDecodeError, UnicodeDecodeError):
        return []
    out = []
    for e in inj if isinstance(inj, list) else []:
        try:
            out.append((int(e["rank"]), int(e["iteration"])))
        except (KeyError, TypeError, ValueError):
            continue
    return out


def injection(f):
    """(rank, measured iteration) of the first [[inject]] of the run's resolved deck, or None."""
    text = read_text(f, "config/resolved")
    if text is None:
        return None
    try:
        inj = tomllib.loads(text).get("inject", [])
    except (tomllib.TOMLDecodeError, UnicodeDecodeError):
        return None
    if not isinstance(inj, list) or not inj or not isinstance(inj[0], dict):
        return None
    try:
        return int(inj[0]["rank"]), int(inj[0]["iteration"])
    except (KeyError, TypeError, ValueError):
        return None


def detect(idle, end, ranks, iterations, source=None, threshold=0.2, floor=0.0, reach=1, line=None):
    """The waves of one source in idle[p, n] / end[p, n] (rows = ranks, columns = iterations in
    deck numbering). source: (rank, iteration) if known; floor (s): the least excess of an idle
    period; reach: the ranks one hop covers (an idle period of the point at distance d must not
    end before that of the point at d - reach: the rank is released after one behind it), a
    number or a function (source rank, direction) -> number; line: a function (source rank,
    direction) -> the ranks the wave walks in that direction, in order (default: source +-1,
    +-2, ... while in `ranks`).
    Returns a dict (see the module doc); raises NoIdleWave if no excess is above 0 and the
    floor."""
    excess = idle - np.nanmedian(idle, axis=1, keepdims=True)
    top = np.nanmax(excess)
    if not np.isfinite(top) or top <= 0:
        raise NoIdleWave("no idle wave: no idle period stands out of the lock-step baseline")
    if top <= floor:
        raise NoIdleWave("no idle wave: the longest idle period, %.3g ms over its rank's lock-step baseline, "
                         "is not above the floor of %.3g ms" % (top * 1e3, floor * 1e3))
    cut = max(threshold * top, floor)
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
        if k0 >= len(iterations) or int(iterations[k0]) != k:
            raise NoIdleWave("the delay (rank %d, iteration %d) is outside the stored iterations (%d..%d%s)"
                             % (r0, k, int(iterations[0]), int(iterations[-1]),
                                ", one in %d" % int(np.min(np.diff(iterations))) if len(iterations) > 1
                                and np.any(np.diff(iterations) != 1) else ""))
        known = True
    waves = []
    for direction in (+1, -1):
        behind = max(1, int(np.ceil(reach(r0, direction) if callable(reach) else reach)))
        walk = line(r0, direction) if line else straight_line(r0, direction, row)
        pts = []
        k = k0
        for d, r in enumerate(walk, 1):
            i = row[int(r)]
            later = np.flatnonzero(big[i, k:])
            if len(pts) >= behind:  # not released before the point one hop closer
                t_behind = pts[-behind][3]
                later = [j for j in later if not end[i, k + j] < t_behind]
            if not len(later):
                break
            k = k + int(later[0])
            pts.append((d, int(r), int(iterations[k]), float(end[i, k]), float(excess[i, k])))
        waves.append(fit(direction, pts))
    return {"source": {"rank": int(r0), "iteration": int(iterations[k0]), "given": known},
            "threshold_s": float(cut), "waves": waves}


def straight_line(source, direction, present):
    """source + direction, source + 2 direction, ... while in `present` (no wrap-around)."""
    out = []
    while int(source) + direction * (len(out) + 1) in present:
        out.append(int(source) + direction * (len(out) + 1))
    return out


def fit(direction, pts):
    w = {"direction": "up" if direction > 0 else "down", "reached": len(pts),
         "points": [{"distance": d, "rank": r, "iteration": k, "idle_end_s": t, "idle_s": x} for d, r, k, t, x in pts]}
    if len(pts) < 3:
        w["note"] = "fewer than 3 ranks reached: no fit"
        return w
    d, _, k, t, x = (np.array(v, float) for v in zip(*pts))
    if np.ptp(t) > 0:
        by_time = stats.linregress(t, d)
        w["speed_ranks_per_s"] = float(by_time.slope)
        w["speed_r2"] = float(by_time.rvalue ** 2)
    else:
        # Every rank's idle period ends at the same instant: a collective released them all (CG's
        # allreduce, a simulated one exactly), not a wave travelling rank by rank.
        w["speed_ranks_per_s"], w["speed_r2"] = float("inf"), float("nan")
        w["note"] = "every rank's idle period ended at the same instant: a global synchronization, not a travelling wave"
    w["speed_ranks_per_iteration"] = float(stats.linregress(k, d).slope) if np.ptp(k) > 0 else float("inf")
    w["decay_s_per_rank"] = float(stats.linregress(d, x).slope)
    w["idle_first_s"], w["idle_last_s"] = float(x[0]), float(x[-1])
    return w


def max_distance(f):
    """The largest rank difference between a rank and a partner of /comm (reported as
    max_partner_distance; not a distance of the graph: a ring's wrap-around edge counts P - 1)."""
    send = read_per_rank(f, "comm/send_partner", ndim=2)
    if send is None:
        return None
    send = np.asarray(send)
    me = np.arange(send.shape[0])[:, None]
    d = np.abs(np.where(send >= 0, send - me, 0))
    return int(d.max()) if d.size else None


class HopDistance:
    """The wave's line and d per (source, direction) from the file's communication graph (module
    doc; comm_graph.wave_line, comm_graph.ranks_per_hop), cached. Without a graph: the straight
    line of rank numbers and no d."""

    def __init__(self, f, ranks):
        self.graph, self.ranks, self.hops = send_graph(f), [int(r) for r in ranks], {}

    def _hops(self, source):
        if source not in self.hops:
            self.hops[source] = hops_from(self.graph, source)
        return self.hops[source]

    def line(self, source, direction):
        if self.graph is None:
            return straight_line(source, direction, set(self.ranks))
        return wave_line(self._hops(source), source, direction, self.ranks)

    def __call__(self, source, direction):
        if self.graph is None:
            return None
        return ranks_per_hop(self._hops(source), self.line(source, direction))


def recorded_delay(tl, delays=FALLBACK_DELAY):
    """(rank, iteration) of the longest delay phase on the timeline (injected delays are
    recorded as delay_begin/delay_end; delays: the phases of class delay, phase_classes.
    delay_phases), or None."""
    intervals = phase_intervals(tl)
    d = None
    for p in delays:
        if p in intervals:
            b, e = intervals[p]
            dp = np.where(valid(b, e), e - b, -np.inf)
            d = dp if d is None else np.fmax(d, dp)
    if d is None or not np.isfinite(d).any():
        return None
    i, k = np.unravel_index(int(np.argmax(d)), d.shape)
    return int(tl.ranks[i]), int(tl.iterations[k])


def lockstep_instants(tl, result, t_iter, samples=4 * CONCURRENCY_SAMPLES):
    """Instants evenly spread over the window outside the disturbance: before the source
    iteration's first event on the source rank and after the last idle end of the waves plus 2
    lock-step iterations (all of them when there is no wave, or too few outside)."""
    times = np.linspace(float(np.nanmin(tl.events)), float(np.nanmax(tl.events)), samples)
    s = result.get("source")
    if not s:
        return times
    i = int(np.flatnonzero(np.asarray(tl.ranks) == s["rank"])[0])
    n = int(np.searchsorted(tl.iterations, s["iteration"]))
    start = float(np.nanmin(tl.events[i, n]))
    ends = [p["idle_end_s"] for w in result["waves"] for p in w["points"]]
    stop = max(ends + [start]) + 2 * t_iter
    out = times[(times < start) | (times > stop)]
    return out if len(out) >= samples // 10 else times


def node_model(f, tl, intervals, lockstep_times):
    """Per node of the window's ranks: ranks P, cores C (None: unknown cpusets), the lock-step
    compute median, the lock-step concurrency N_ls (mean ranks in a work phase at
    lockstep_times) and t1 = median / max(1, N_ls / C); plus the lock-step communication median
    T_comm and the node of every window row. Returns (nodes[p], {node: facts}, comm_s)."""
    nodes = read_per_rank(f, "topology/node_index")
    nodes = np.zeros(len(tl.ranks), int) if nodes is None else np.asarray(nodes, int)[tl.ranks]
    cpusets = read_per_rank(f, "topology/process_cpuset", "text")
    cpusets = [""] * len(tl.ranks) if cpusets is None else [cpusets[r] for r in tl.ranks]
    cores = domain_cores(cpusets, nodes)
    comp, comm, ran = compute_and_comm(intervals, work_phases(f), not_communication(f))
    comm_s = float(np.median(comm[ran])) if ran.any() else None
    busy = concurrency_series(intervals, nodes, lockstep_times, work_phases(f))
    facts = {}
    for n in sorted(set(int(x) for x in nodes)):
        sel = (nodes == n)[:, None] & ran & (comp > 0)
        p, c = int((nodes == n).sum()), cores[n]
        med = float(np.median(comp[sel])) if sel.any() else None
        n_ls = float(busy[n].mean())
        t1 = med / max(1.0, n_ls / c) if med is not None and c else None
        facts[n] = {"ranks": p, "cores": c, "lockstep_compute_s": med, "lockstep_concurrency": n_ls, "t1_s": t1}
    return nodes, facts, comm_s


def wave_model(wave, r0, direction, intervals, tl, nodes, facts, comm_s, distance, sigma, work):
    """The contention-aware model of one fitted wave (module doc), or a note why there is none."""
    pts = wave["points"]
    rows = {int(r): i for i, r in enumerate(tl.ranks)}
    on = [int(nodes[rows[p["rank"]]]) for p in pts]
    missing = sorted(set(n for n in on if facts[n]["t1_s"] is None))
    if missing:
        return {"note": "no contention model: cores or compute phases of node %s unknown"
                        % ", ".join(map(str, missing))}
    if comm_s is None:
        return {"note": "no contention model: no phase recorded"}
    ends = [p["idle_end_s"] for p in pts]
    times = np.linspace(min(ends), max(ends), CONCURRENCY_SAMPLES)
    series = concurrency_series(intervals, nodes, times, work)
    n_mean = {n: float(series[n].mean()) for n in set(on)}
    t_exec = [facts[n]["t1_s"] * max(1.0, n_mean[n] / facts[n]["cores"]) for n in on]
    t_exec = float(np.mean(t_exec))
    model = sigma * distance / (t_exec + comm_s)
    v = wave["speed_ranks_per_s"]
    return {"sigma": float(sigma), "distance": float(distance),
            "cores": float(np.mean([facts[n]["cores"] for n in on])),
            "concurrency": float(np.mean([n_mean[n] for n in on])),
            "t1_s": float(np.mean([facts[n]["t1_s"] for n in on])), "t_exec_s": t_exec, "comm_s": comm_s,
            "span_s": [float(min(ends)), float(max(ends))],
            "speed_ranks_per_s": float(model), "measured_over_model": float(v / model),
            "sigma_eff_contention": float(v * (t_exec + comm_s) / distance)}


def noise_power(tl, intervals, phases, left_out=()):
    """Mean over ranks of the variance over iterations of the time in `phases` (module doc); the
    (rank, iteration) cells `left_out` left out. NaN without two such iterations on any rank."""
    y = time_in(intervals, phases, tl.events.shape[:2])
    for rank, iteration in left_out:
        i = np.flatnonzero(np.asarray(tl.ranks) == rank)
        k = np.flatnonzero(np.asarray(tl.iterations) == iteration)
        if len(i) and len(k):
            y[i[0], k[0]] = np.nan
    counts = np.isfinite(y).sum(axis=1)
    rows = y[counts >= 2]
    if not len(rows):
        return float("nan")
    return float(np.mean(np.nanvar(rows, axis=1)))


def analyse(f, phases=None, threshold=0.2, min_idle=None, sigma=1.0):
    """The idle waves of a file (module doc). min_idle: the floor of an idle period in lock-step
    iterations (None: 0 if the file records a delay, MIN_IDLE_WITHOUT_DELAY if not); sigma: the
    pattern factor of the contention model. With no idle period above the floor the result has
    no waves and says why under "no_wave"."""
    if sigma <= 0:
        raise DesyncError("sigma must be positive, got %g" % sigma)
    window = select_window(f)
    tl = read_timeline(f, window)
    idle, end, present = idle_times(tl, phases or idle_phases(f), named=bool(phases))
    source = injection(f) or recorded_delay(tl, delay_phases(f))
    # lock-step iteration time: median over ranks and iterations of the iteration phase
    intervals = phase_intervals(tl, iteration=True)
    b, e = intervals.pop("iteration")
    t_iter = float(np.nanmedian(np.where(valid(b, e), e - b, np.nan)))
    if min_idle is None:
        min_idle = 0.0 if source else MIN_IDLE_WITHOUT_DELAY
    if min_idle < 0:
        raise DesyncError("the idle floor must not be negative, got %g lock-step iterations" % min_idle)
    floor = min_idle * t_iter if np.isfinite(t_iter) else 0.0
    dmax = max_distance(f)
    hop = HopDistance(f, tl.ranks)
    try:
        result = detect(idle, end, tl.ranks, tl.iterations, source, threshold, floor,
                        lambda r, direction: hop(r, direction) or 1, hop.line)
    except NoIdleWave as exc:
        result = {"source": None, "no_wave": str(exc), "waves": []}
    result["idle_phases"] = present
    # The deck's one-off delays are not noise; a delay the detection took for the source without
    # one in the deck is (a noise burst), so only the [[inject]] cells are left out.
    power = noise_power(tl, intervals, list(work_phases(f)) + list(delay_phases(f)), injections(f))
    result["noise_power_s2"], result["noise_std_s"] = power, float(np.sqrt(power)) if np.isfinite(power) else power
    nodes, facts, comm_s = node_model(f, tl, intervals, lockstep_instants(tl, result, t_iter))
    result.update({"iteration_time_s": t_iter, "max_partner_distance": dmax,
                   "min_idle_iterations": float(min_idle), "min_idle_s": float(floor), "sigma": float(sigma),
                   "lockstep_comm_s": comm_s,
                   "nodes": {str(n): v for n, v in facts.items()}})
    for w in result["waves"]:
        direction = 1 if w["direction"] == "up" else -1
        d = hop(result["source"]["rank"], direction)
        if d:
            w["ranks_per_hop"] = float(d)
        if "speed_ranks_per_s" in w and d:
            w["sigma_eff"] = w["speed_ranks_per_s"] * t_iter / d
            if not consecutive(window):  # its concurrency would count 1/s of the time (window.require_consecutive)
                w["model"] = {"note": "no contention model: the file keeps every s-th iteration ([record] stride)"}
                continue
            w["model"] = wave_model(w, result["source"]["rank"], direction, intervals, tl, nodes, facts,
                                    comm_s, d, sigma, work_phases(f))
            if "sigma_eff_contention" in w["model"]:
                w["sigma_eff_contention"] = w["model"]["sigma_eff_contention"]
    return result
