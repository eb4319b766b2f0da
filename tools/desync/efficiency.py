"""POP efficiencies from the timelines (peers.md section 4.1; the POP CoE's definitions):
useful time u_r = rank r's time in work phases (class work of the file's /phases,
phase_classes.work_phases: user code, not waiting, communicating or injected delay) over the measured iterations of the window; T = the window's
span (first event of any rank to the last event of any rank):
  load balance                LB    = mean_r u_r / max_r u_r
  communication efficiency    CommE = max_r u_r / T
  parallel efficiency         PE    = LB x CommE = mean_r u_r / T

CommE's split into serialization and transfer efficiency replays the run on an ideal network
(instantaneous messages, Dimemas' role in the POP methodology). Model, per rank r and window
iteration n (n = 0 is the window's first iteration):
  c[r, n]      = u[r, n] + the rank's injected delay in n (class delay, phase_classes.delay_phases:
                 busy work a rank really does, which no network removes); every other phase (post, wait, sync, pack, ...)
                 is communication and takes no time on the ideal network;
  D(r, n)      = {r} + the ranks r receives from (/comm/recv_partner; without it, e.g. an
                 imported trace, the senders of r's receives in /messages: comm_graph.py; ranks
                 of the window); all
                 ranks when iteration n - 1 holds a global synchronization (a phase of class sync,
                 phase_classes.sync_phases: sync, barrier, global reductions, that happened on
                 some rank, or a collective workload), or when
                 the file has neither;
  t[r, -1]     = 0 (every rank starts together);
  t[r, n]      = max_{q in D(r, n)} t[q, n - 1] + c[r, n]
                 (r's iteration n starts when it and its partners finished n - 1);
  T_ideal      = max_r t[r, last]
  serialization efficiency  SerE = max_r u_r / T_ideal
  transfer efficiency       TE   = T_ideal / T
  so that SerE x TE = CommE. One synchronization point per iteration: a workload with several
  in one iteration (the CG's two allreduces) is replayed with fewer waits than it has, which
  makes T_ideal a lower bound and SerE an upper bound there.

The `efficiency` subcommand is view_commands/efficiency.py.
"""

import numpy as np

from .comm_graph import recv_partners, send_graph
from .h5file import read_per_rank, to_scalar
from .phase_classes import FALLBACK_DELAY, FALLBACK_SYNC, FALLBACK_WORK, delay_phases, sync_phases, work_phases
from .phases import phase_intervals, valid
from .timeline import read_timeline
from .window import require_consecutive, select_window

WORK_PHASES = FALLBACK_WORK  # (files without /phases; analyse() takes the file's work class)
#: non-work phases the ideal-network replay keeps (busy work, not communication)
REPLAYED = FALLBACK_DELAY  # (files without /phases; analyse() takes the file's delay class)
#: phases after which every rank has waited for every other rank
GLOBAL_PHASES = FALLBACK_SYNC  # (files without /phases; analyse() takes the file's sync class)
#: workloads whose communication is collective (every iteration synchronizes all ranks)
COLLECTIVE_WORKLOADS = ("collbench", "matvec2d", "symmsquarecube")  # files without the `collective` attribute


def phase_sum(intervals, names):
    """[p, n] summed durations of the named phases (0 where a phase did not happen), or None
    when none of them is in the file."""
    out = None
    for p in names:
        if p not in intervals:
            continue
        b, e = intervals[p]
        d = np.where(valid(b, e), e - b, 0.0)
        out = d if out is None else out + d
    return out


def pop(intervals, t_span, work=WORK_PHASES):
    """{LB, CommE, PE, useful per rank} from phase intervals (begin, end [p, n]) and the span."""
    per = phase_sum(intervals, work)
    if per is None:
        return None
    useful = per.sum(axis=1)
    if useful.max() <= 0 or t_span <= 0:
        return None
    # Ranks parked outside the run's active ones ([placement] active_ppn: every event NaN) did no
    # iteration: they are left out of the balance, as total_time leaves them out of the span.
    alive = np.zeros(len(useful), bool)
    for b, e in intervals.values():
        alive |= valid(b, e).any(axis=1)
    active = useful[alive] if alive.any() else useful
    lb = float(active.mean() / active.max())
    comm = float(useful.max() / t_span)
    return {"load_balance": lb, "communication_efficiency": comm, "parallel_efficiency": lb * comm,
            "useful_s": [float(x) for x in useful], "span_s": float(t_span)}


def dependencies(ranks, recv_partner):
    """D[r, q] (rows and columns: the window's ranks): True if r waits for q at the start of an
    iteration: q == r or q is one of r's receive partners (recv_partner[rank] lists ranks, -1
    padding; partners outside the window are ignored). recv_partner None: every rank."""
    n = len(ranks)
    if recv_partner is None:
        return np.ones((n, n), bool)
    row = {int(r): i for i, r in enumerate(ranks)}
    dep = np.eye(n, dtype=bool)
    for i, r in enumerate(ranks):
        for q in np.asarray(recv_partner)[int(r)]:
            if int(q) in row:
                dep[i, row[int(q)]] = True
    return dep


def ideal_replay(replayed, dep, global_after):
    """t[p, n]: when rank p ends iteration n on an ideal network (module doc). replayed[p, n]:
    the time replayed (useful work plus injected delay); dep[p, q]: p waits for q;
    global_after[n]: iteration n ends with a global synchronization."""
    p_count, n_count = replayed.shape
    t = np.zeros((p_count, n_count))
    prev = np.zeros(p_count)
    for n in range(n_count):
        if n > 0 and global_after[n - 1]:
            start = np.full(p_count, prev.max())
        else:
            start = np.max(np.where(dep, prev[None, :], -np.inf), axis=1)
        t[:, n] = start + replayed[:, n]
        prev = t[:, n]
    return t


def serialization_transfer(useful, replayed, dep, global_after, t_span):
    """{T_ideal, SerE, TE, CommE = SerE x TE} from useful[p, n] and replayed[p, n] times."""
    t = ideal_replay(replayed, dep, global_after)
    t_ideal = float(t[:, -1].max()) if t.size else 0.0
    u_max = float(useful.sum(axis=1).max()) if useful.size else 0.0
    if t_ideal <= 0 or t_span <= 0:
        return None
    ser, te = u_max / t_ideal, t_ideal / t_span
    return {"ideal_time_s": t_ideal, "serialization_efficiency": ser, "transfer_efficiency": te,
            "communication_efficiency_product": ser * te,
            "ideal_end_s": [float(x) for x in t[:, -1]]}


def global_iterations(intervals, n_iter, collective=False, global_phases=GLOBAL_PHASES):
    """[n] True where some rank ran a global synchronization phase in iteration n."""
    if collective:
        return np.ones(n_iter, bool)
    out = np.zeros(n_iter, bool)
    for p in global_phases:
        if p in intervals:
            out |= valid(*intervals[p]).any(axis=0)
    return out


def analyse(f):
    window = select_window(f)
    require_consecutive(window, "efficiency")
    tl = read_timeline(f, window)
    intervals = phase_intervals(tl)
    span = float(np.nanmax(tl.events) - np.nanmin(tl.events))
    work, delays = work_phases(f), delay_phases(f)
    result = pop(intervals, span, work)
    if result is None:
        return None
    result["work_phases"] = [p for p in work if p in intervals]
    useful = phase_sum(intervals, work)
    extra = phase_sum(intervals, delays)
    replayed = useful if extra is None else useful + extra
    workload = to_scalar(f.attrs["workload"]) if "workload" in f.attrs else ""
    # The file says it (root attribute `collective`); older files: the workloads known then.
    collective = bool(to_scalar(f.attrs["collective"])) if "collective" in f.attrs else workload in COLLECTIVE_WORKLOADS
    recv = read_per_rank(f, "comm/recv_partner", ndim=2)
    source = "/comm/recv_partner"
    if recv is None:
        graph = send_graph(f)
        recv = None if graph is None else recv_partners(graph)
        source = "all ranks (no /comm, no /messages)" if recv is None else "/messages (the senders of each rank's receives)"
    dep = dependencies(tl.ranks, recv)
    glob = global_iterations(intervals, len(tl.iterations), collective, sync_phases(f))
    st = serialization_transfer(useful, replayed, dep, glob, span)
    if st is not None:
        result.update(st)
        result["replay"] = {
            "replayed_phases": result["work_phases"] + [p for p in delays if p in intervals],
            "dependencies": source,
            "global_iterations": int(glob.sum()),
            "iterations": len(tl.iterations),
        }
    return result
