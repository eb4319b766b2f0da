"""Counter tracks of the Chrome/Perfetto export (chrome_trace.py): per contention domain, how
many of its ranks execute user code at each instant (papers.md B.5 "concurrency"; peers.md 3.2,
"Counters on one pseudo-process per contention domain").

The count is exact, not sampled: every begin of a work-phase interval (phase_classes.work_phases:
not waiting, communicating or injected delay; intervals by the phase rule of phases.py) adds one,
every end takes one away, and a counter event ("ph": "C", name "ranks computing", args.ranks)
is written at each instant the count changes. Ends sort before begins at the same instant, so
back-to-back work phases of one rank do not count twice. The same count as the `concurrency`
subcommand's n_d(t) (concurrency_plot.py), which samples it.

Each domain is a pseudo-process, pid COUNTER_PID + k for the k-th domain (sorted by id; above the
ranks' pids in a run of more ranks than COUNTER_PID: P + k), named
"domain D: node n, NUMA m (R ranks in the window)" and sorted above the ranks. Only the ranks of
the exported window count; the export leaves the tracks out where the window skips iterations
(--stride > 1 or a file's [record] stride: the iterations in between would read as idle) and where
the file has no work phase.
"""

import numpy as np

from .concurrency_plot import domain_name
from .h5file import rank_count, read_per_rank
from .phase_classes import work_phases
from .phases import phase_intervals

COUNTER_PID = 1000000
COUNTER_FORMAT = '{"name":"ranks computing","cat":"concurrency","ph":"C","ts":%.3f,"pid":%d,"args":{"ranks":%d}}'


def domain_steps(intervals, rows, work):
    """(times_ns, counts) of the step function: ranks `rows` in a work phase from each time on."""
    begins, ends = [], []
    for phase in work:
        if phase not in intervals:
            continue
        b, e = intervals[phase]
        b, e = b[rows].ravel(), e[rows].ravel()
        ok = np.isfinite(b) & np.isfinite(e) & (e > b)
        begins.append(np.round(b[ok] * 1e9).astype(np.int64))
        ends.append(np.round(e[ok] * 1e9).astype(np.int64))
    if not begins:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    t = np.concatenate(begins + ends)
    step = np.concatenate([np.ones(sum(len(x) for x in begins), np.int64),
                           -np.ones(sum(len(x) for x in ends), np.int64)])
    order = np.lexsort((step, t))  # by time, ends (-1) first
    t, count = t[order], np.cumsum(step[order])
    last = np.append(t[1:] != t[:-1], True)  # the count after all changes at one instant
    t, count = t[last], count[last]
    keep = np.append(True, count[1:] != count[:-1])  # instants where it really changes
    return t[keep], count[keep]


def counter_tracks(f, tl):
    """[(pid, name, sort_index, times_ns, counts)] per contention domain of the window's ranks; []
    when the file has no work phase."""
    domains = read_per_rank(f, "topology/contention_domain")
    domains = np.zeros(len(tl.ranks), int) if domains is None else np.asarray(domains)[tl.ranks]
    intervals = phase_intervals(tl)
    work = [p for p in work_phases(f) if p in intervals]
    if not work:
        return []
    ids = sorted(set(int(d) for d in domains))
    base = max(COUNTER_PID, int(rank_count(f) or 0))  # above every rank's pid
    tracks = []
    for k, d in enumerate(ids):
        rows = np.flatnonzero(domains == d)
        t, n = domain_steps(intervals, rows, work)
        name = "domain %d: %s (%d rank%s in the window)" % (d, domain_name(d), len(rows), "" if len(rows) == 1 else "s")
        tracks.append((base + k, name, k - len(ids), t, n))
    return tracks


def counter_rows(tracks, origin_ns):
    """The counter events of the tracks, as JSON text rows."""
    rows = []
    for pid, _, _, t, n in tracks:
        rows += [COUNTER_FORMAT % (ts, pid, c) for ts, c in zip(((t - origin_ns) / 1e3).tolist(), n.tolist())]
    return rows


def counter_meta(tracks):
    """Process name and sort index of each domain's pseudo-process."""
    meta = []
    for pid, name, sort_index, _, _ in tracks:
        meta += [{"name": "process_name", "ph": "M", "pid": pid, "tid": 0, "args": {"name": name}},
                 {"name": "process_sort_index", "ph": "M", "pid": pid, "tid": 0, "args": {"sort_index": sort_index}}]
    return meta
