"""Another program's trace in desync's layout (`desync-view import`; issue 29, item 1; the design:
docs/design/trace_import.md; what it does: docs/traces.md, "Import").

From a Trace (trace_readers.py):
1. Segments. Per rank, the outermost MPI regions cut the time line: an MPI call is a segment of
   its routine's class (CLASSES: post, wait, sync, or communication for any other MPI routine),
   the time between two calls a work segment; adjacent segments of one class merge.
2. Iterations. Boundaries per rank: each Enter of the region --iteration-region names, or the end
   of every k-th call of the routine --iteration-call names (--every k), or, with neither, of
   every call of a detected routine (detect_iteration_call); the ranks keep the smallest count
   any rank has.
3. The event list. The class sequences of all (rank, iteration), most common first, are merged
   into one template (a shortest common supersequence: a phase of a few iterations, an injected
   delay, keeps a slot of its own); its slots are named by class and occurrence (compute, post,
   compute_2, wait, sync, ...), and the events are begin and <slot>_end, so every tool reads the
   phases back as it reads desync's. Each iteration is aligned to the template in order: a
   segment goes to the next slot of its class (the slots skipped did not happen: NaN). The
   iterations that differ from the most common sequence are counted and reported
   (/import/misaligned).
4. Messages become /messages (peer, bytes, communicator, tag, send, post, done) on the file's time
   base; the idle-wave model's hop distances come from them (comm_graph.py).

Writing the file (and the choices a trace cannot make: contention domains, cores) is
trace_output.py."""

import collections
import os

import numpy as np

from .errors import DesyncError

# Routine -> class (overridable with --classes). Names are matched case-sensitively; DisCostiC's
# SEND and RECV are its blocking point-to-point calls.
CLASSES = {
    **{n: "post" for n in ("MPI_Isend", "MPI_Irecv", "MPI_Send", "MPI_Ssend", "MPI_Bsend", "MPI_Rsend", "MPI_Issend",
                           "MPI_Start", "MPI_Startall", "MPI_Ibarrier", "MPI_Iallreduce", "MPI_Ireduce", "MPI_Ibcast",
                           "SEND")},
    **{n: "wait" for n in ("MPI_Wait", "MPI_Waitall", "MPI_Waitany", "MPI_Waitsome", "MPI_Recv", "MPI_Test",
                           "MPI_Testall", "MPI_Testany", "MPI_Testsome", "MPI_Probe", "MPI_Iprobe", "MPI_Sendrecv",
                           "MPI_Sendrecv_replace", "RECV")},
    **{n: "sync" for n in ("MPI_Barrier", "MPI_Allreduce", "MPI_Reduce", "MPI_Bcast", "MPI_Allgather", "MPI_Allgatherv",
                           "MPI_Gather", "MPI_Gatherv", "MPI_Scatter", "MPI_Scatterv", "MPI_Alltoall", "MPI_Alltoallv",
                           "MPI_Alltoallw", "MPI_Reduce_scatter", "MPI_Reduce_scatter_block", "MPI_Scan",
                           "MPI_Exscan")},
}
# Class -> (the phase's base name, its /phases class, colour, label)
PHASE_OF = {
    "work": ("compute", "work", "#b9e3b0", "work (outside MPI)"),
    "post": ("post", "communication", "#d9d9d9", "MPI posts and sends"),
    "wait": ("wait", "wait", "#fc9272", "MPI waits and receives"),
    "sync": ("sync", "sync", "#fdae6b", "MPI collectives"),
    "communication": ("mpi", "communication", "#bdbdbd", "other MPI"),
    # a region a --classes file names delay: busy work injected on purpose (desync's own
    # exports name it "delay"); the idle-wave analysis takes the longest one as the source
    "delay": ("delay", "delay", "#9ecae1", "injected delay"),
}


def read_classes(path):
    """A --classes file: lines `ROUTINE CLASS` (# comments), CLASS one of post, wait, sync,
    communication, work."""
    table = dict(CLASSES)
    if not os.path.isfile(path):  # an input: a usage error (exit 2), not an output failure
        raise DesyncError("--classes %s: %s" % (path, "is a folder" if os.path.isdir(path) else "no such file"))
    with open(path) as fh:
        for n, line in enumerate(fh, 1):
            words = line.split("#")[0].split()
            if not words:
                continue
            if len(words) != 2 or words[1] not in PHASE_OF:
                raise DesyncError("%s:%d: expected `ROUTINE CLASS` with CLASS one of %s, got %r"
                                  % (path, n, ", ".join(sorted(PHASE_OF)), line.strip()))
            table[words[0]] = words[1]
    return table


def segments(trace, r, classes):
    """Rank r's segments: (begin [n], end [n], class [n]) of its outermost MPI calls and the work
    between them, from its first to its last region's end."""
    b, e, k = trace.regions[r]
    if len(b) == 0:
        return np.zeros(0), np.zeros(0), []
    mpi = np.asarray(trace.mpi, bool)[k] | np.array([trace.names[i] in classes for i in k], bool)
    out_b, out_e, out_c = [], [], []
    # Gaps below a thousandth of the clock's tick are rounding (a Chrome trace's microsecond
    # floats), not work.
    tol = 1e-3 * trace.resolution
    t = float(b[0])
    covered = -np.inf
    for bi, ei, ki, m in zip(b, e, k, mpi):
        if not m or bi < covered - tol:  # user regions, and MPI calls inside an MPI call
            continue
        cls = classes.get(trace.names[ki], "communication")
        if cls == "work":
            continue
        if bi > t + tol:
            out_b.append(t), out_e.append(bi), out_c.append("work")
        out_b.append(max(bi, t)), out_e.append(ei), out_c.append(cls)
        t = covered = max(t, ei)
    end = float(np.max(e))
    if end > t + tol:
        out_b.append(t), out_e.append(end), out_c.append("work")
    # adjacent segments of one class merge
    mb, me, mc = [], [], []
    for bi, ei, ci in zip(out_b, out_e, out_c):
        if mc and mc[-1] == ci:
            me[-1] = ei
        else:
            mb.append(bi), me.append(ei), mc.append(ci)
    return np.array(mb), np.array(me), mc


def boundaries(trace, r, region=None, call=None, every=1):
    """Rank r's iteration boundaries b_0 < b_1 < ...: iteration m is [b_m, b_{m+1})."""
    b, e, k = trace.regions[r]
    if region is not None:
        idx = trace.names.index(region) if region in trace.names else -1
        sel = k == idx
        starts = np.sort(b[sel])
        if len(starts) == 0:
            return starts
        return np.append(starts, np.max(e[sel]))
    idx = trace.names.index(call) if call in trace.names else -1
    ends = np.sort(e[k == idx])[every - 1::every]
    if len(ends) == 0:
        return ends
    return np.insert(ends, 0, float(np.min(b)))


def detect_iteration_call(trace):
    """The MPI routine whose every call ends an iteration, when neither option names one: of the
    routines every rank calls equally often, at least 3 times, at regular intervals (the median
    deviation of the intervals below half their median) over most of the rank's time line, the one
    called least.
    None: no routine qualifies."""
    best = None
    for idx, name in enumerate(trace.names):
        if not trace.mpi[idx]:
            continue
        counts, ok = set(), True
        for r in range(trace.ranks):
            b, e, k = trace.regions[r]
            ends = np.sort(e[k == idx])
            counts.add(len(ends))
            if len(ends) < 3 or len(counts) > 1:
                ok = False
                break
            gaps = np.diff(ends)
            span = float(np.max(e) - np.min(b))
            med = float(np.median(gaps))  # robust: a delayed iteration or two must not spoil it
            if np.median(np.abs(gaps - med)) > 0.5 * med or (ends[-1] - ends[0]) < 0.5 * span:
                ok = False
                break
        if ok and (best is None or next(iter(counts)) < best[1]):
            best = (name, next(iter(counts)))
    return None if best is None else best[0]


def build(trace, region=None, call=None, every=1, classes=None, release=False):
    """The timeline of the trace: {"events" [P, N, E], "event_names", "slots" [(phase, class)],
    "misaligned", "merged", "iterations" per rank before cutting to the common count,
    "detected": the routine chosen when neither region nor call was given}. release: drop each
    rank's regions from the trace once read (an import's largest part; the trace keeps its
    messages and hosts)."""
    detected = None
    if region is None and call is None:
        call = detected = detect_iteration_call(trace)
        if call is None:
            raise DesyncError("%s: no MPI routine is called equally often on every rank at regular intervals, so the "
                              "iterations cannot be detected; give --iteration-region NAME or --iteration-call ROUTINE "
                              "[--every k]" % trace.source)
    if region is not None and call is not None:
        raise DesyncError("give the iterations once: --iteration-region NAME or --iteration-call ROUTINE [--every k]")
    if every < 1:
        raise DesyncError("--every must be at least 1")
    name = region if region is not None else call
    if name not in trace.names:
        known = sorted(set(trace.names))
        raise DesyncError("%s %r never occurs in %s; its regions are: %s"
                          % ("--iteration-region" if region else "--iteration-call", name, trace.source,
                             ", ".join(known[:20]) + (" ..." if len(known) > 20 else "")))
    classes = classes or CLASSES
    bounds = [boundaries(trace, r, region, call, every) for r in range(trace.ranks)]
    counts = [max(0, len(x) - 1) for x in bounds]
    n = min(counts)
    if n < 1:
        raise DesyncError("%s: rank %d has no complete iteration (%s %r occurs %d time(s) there)"
                          % (trace.source, int(np.argmin(counts)), "region" if region else "call", name,
                             counts[int(np.argmin(counts))] + (1 if region is None else 0)))
    tol = 1e-3 * trace.resolution  # pieces below a thousandth of a tick are rounding
    # Pass 1, rank by rank: each iteration's class sequence (interned: an id per distinct one)
    # and its segments' ends (flat), so that nothing per segment outlives its rank.
    seq_id = {}
    ids = np.zeros((trace.ranks, n), np.int64)
    ends = []  # [r]: the ends of rank r's iterations' segments, in order
    for r in range(trace.ranks):
        sb, se, sc = segments(trace, r, classes)
        if release:
            trace.regions[r] = None
        flat = []
        # segments are ordered and disjoint: those of [lo, hi) are a slice
        first = np.searchsorted(se, bounds[r][:n], side="right")
        last = np.searchsorted(sb, bounds[r][1:n + 1], side="left")
        for m in range(n):
            lo, hi = bounds[r][m], bounds[r][m + 1]
            cls, cut = [], []
            for q in range(first[m], last[m]):
                end = min(se[q], hi)
                if end - max(sb[q], lo) <= tol:
                    continue
                if cls and cls[-1] == sc[q]:
                    cut[-1] = end
                else:
                    cls.append(sc[q])
                    cut.append(end)
            ids[r, m] = seq_id.setdefault(tuple(cls), len(seq_id))
            flat.extend(cut)
        ends.append(np.asarray(flat, float))
    seqs = sorted(seq_id, key=seq_id.get)
    freq = np.bincount(ids.ravel(), minlength=len(seqs))
    order = np.argsort(-freq, kind="stable")
    common = seqs[order[0]]
    # The slots: the most common sequence, with every other sequence's segments inserted where
    # they fall (a shortest common supersequence), so that a phase of a few iterations (an
    # injected delay, an extra collective) keeps its own slot; iterations without it leave it NaN.
    template = common
    for k in order[1:]:
        template = supersequence(template, seqs[k])
    seen = collections.Counter()
    slots = []
    for c in template:
        seen[c] += 1
        base = PHASE_OF[c][0]
        slots.append((base if seen[c] == 1 else "%s_%d" % (base, seen[c]), c))
    # Pass 2: each distinct sequence's segments go to slots in order (the next slot of the
    # class; none ahead: the segment extends the last slot filled, counted as merged).
    place = []
    merged_per = np.zeros(len(seqs), np.int64)
    for k, seq in enumerate(seqs):
        pos, j, lastk = [], 0, -1
        for c in seq:
            s_ = next((x for x in range(j, len(slots)) if slots[x][1] == c), None)
            if s_ is None:
                pos.append(lastk)
                merged_per[k] += 1
                continue
            pos.append(s_)
            j, lastk = s_ + 1, s_
        place.append(np.asarray(pos, np.int64))
    ev = np.full((trace.ranks, n, 1 + len(slots)), np.nan)
    lengths = np.array([len(x) for x in seqs], np.int64)
    for r in range(trace.ranks):
        ev[r, :, 0] = bounds[r][:n]
        offs = np.concatenate([[0], np.cumsum(lengths[ids[r]])])
        for m in range(n):
            pos = place[ids[r, m]]
            ok = pos >= 0
            ev[r, m, 1 + pos[ok]] = ends[r][offs[m]:offs[m + 1]][ok]
        ends[r] = None
    misaligned = int(np.sum(ids != seq_id[common]))
    merged = int(np.sum(merged_per[ids]))
    return {"events": ev, "event_names": ["begin"] + ["%s_end" % s for s, _ in slots], "slots": slots,
            "misaligned": misaligned, "merged": merged, "iterations": counts, "bounds": bounds, "detected": detected}


def supersequence(a, b):
    """A shortest common supersequence of the class sequences a and b (both orders kept)."""
    n, m = len(a), len(b)
    lcs = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        for j in range(m - 1, -1, -1):
            lcs[i][j] = lcs[i + 1][j + 1] + 1 if a[i] == b[j] else max(lcs[i + 1][j], lcs[i][j + 1])
    out, i, j = [], 0, 0
    while i < n and j < m:
        if a[i] == b[j]:
            out.append(a[i])
            i, j = i + 1, j + 1
        elif lcs[i + 1][j] >= lcs[i][j + 1]:
            out.append(a[i])
            i += 1
        else:
            out.append(b[j])
            j += 1
    return tuple(out + list(a[i:]) + list(b[j:]))
