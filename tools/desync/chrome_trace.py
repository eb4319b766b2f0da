"""Chrome Trace Event JSON (https://ui.perfetto.dev, chrome://tracing) of a run file (the `trace`
subcommand, view_commands/trace.py).

One process per rank, one complete event (ph "X") per phase and iteration, times in
microseconds; a name ending in .gz is written gzip-compressed. Also:

- iteration markers: one thread-scoped instant event (ph "i", s "t", cat "iteration", name
  "iteration k", args.iteration = k) per rank and iteration at the iteration's first event, so
  Perfetto shows where every iteration begins on every rank;
- message flow arrows, when the file has /messages: per matched message (messages.py) a flow
  start (ph "s") at the send's post time on the sender's track and a flow end (ph "f", bp "e")
  at the receive's completion on the receiver's track, with the same cat "message", name and id
  (Trace Event Format: "s" binds to the slice enclosing its ts, "f" with bp "e" to the slice
  enclosing its ts). Only messages whose both ends lie inside an exported slice are written
  (with --stride or a window the slices of other iterations are not there to bind to);
- counter tracks, one pseudo-process per contention domain: how many of its ranks compute at each
  instant (chrome_counters.py); left out with --stride > 1 or counters=False.
"""

import gzip
import json
import os

import numpy as np

from .chrome_counters import COUNTER_PID, counter_meta, counter_rows, counter_tracks
from .errors import DesyncError
from .formatting import iteration_span, rank_ranges
from .h5file import open_output, root_attributes
from .messages import in_window, read_messages
from .phases import phase_tracks
from .timeline import first_event, read_timeline
from .window import consecutive, select_window


EVENT_FORMAT = ('{"name":"%s","cat":"%s","ph":"X","ts":%.3f,"dur":%.3f,"pid":%d,"tid":0,'
                '"args":{"iteration":%d,"warmup":%s}}')


def export_trace(path, output, ranks=slice(None), iterations=slice(None), include_warmup=False, stride=1,
                 counters=True):
    """Write the Chrome Trace Event JSON of the window of run file path to output (gzip-compressed
    for a name ending in .gz). Returns {"events", "ranks", "iterations", "message_flows" (None
    without /messages), "counter_tracks" (None where left out)}."""
    if stride < 1:
        raise DesyncError("--stride must be at least 1")
    with open_output(path) as f:
        window = select_window(f, ranks, iterations, include_warmup, stride)
        tl = read_timeline(f, window)
        attrs = root_attributes(f)
        msgs = read_messages(f)
        # Every iteration is needed: with a stride (--stride or the file's [record] stride) the
        # ones in between would count as idle. The tracks are an extra: a file whose domains
        # cannot be read still exports its slices.
        domains, left_out = None, "--no-counters"
        if counters and not consecutive(window):
            left_out = ("every iteration is needed; --stride %d" % stride if stride > 1
                        else "every iteration is needed; the file keeps every %d-th ([record] stride)"
                        % int(np.min(np.diff(np.asarray(window.iterations)))))
        elif counters:
            try:
                domains = counter_tracks(f, tl)
                if not domains:
                    domains, left_out = None, "no work phase in the file"
            except (DesyncError, ValueError, TypeError) as exc:
                left_out = str(exc)
    order, tracks, clipped = phase_tracks(tl)
    # Perfetto dislikes negative times (warm-up): shift by a whole number of nanoseconds
    origin_ns = min(0, min((int(b[0]) for _, b, _, _ in tracks if len(b)), default=0))
    first = first_event(tl.events)  # the iteration markers
    if np.isfinite(first).any():
        origin_ns = min(origin_ns, int(np.round(np.nanmin(first) * 1e9)))
    other = trace_provenance(path, stride, attrs, tl, origin_ns / 1e9, clipped)
    other["counter_tracks"] = ("per contention domain, ranks in a work phase (pid %d + k)" % COUNTER_PID
                               if domains is not None else "left out: %s" % left_out)
    opener = gzip.open if output.endswith(".gz") else open
    with opener(output, "wt", encoding="utf-8") as out:
        count = write_trace(out, tl, order, tracks, origin_ns, other, msgs, domains or [])
    return {"events": count, "ranks": len(tl.ranks), "iterations": len(tl.iterations),
            "message_flows": None if msgs is None else other.get("message_flows", 0),
            "counter_tracks": None if domains is None else len(domains), "counters_left_out": left_out}


def trace_provenance(source_file, stride, attrs, tl, origin, clipped):
    keys = ("format_version", "workload", "verification", "desync_version", "git_revision",
            "compiler", "kokkos_version", "execution_space", "mpi_library_version", "start_time",
            "command_line", "ranks", "iterations", "warmup_iterations")
    other = {k: attrs[k] for k in keys if k in attrs}
    other.update({
        "source_file": os.path.abspath(source_file),
        "generator": "tools/desync_view.py trace",
        "window_ranks": rank_ranges(tl.ranks),
        "window_iterations": iteration_span(tl),
        "iteration_numbering": "as in the deck: measured iterations 0..M-1, warm-up -W..-1",
        "stride": stride,
        "time_origin_s": origin,
        "time_base": "ts = (common time base - time_origin_s) in us; common time base: rank 0's "
                     "clock, 0 at the start of its first measured iteration",
        "clipped_events": clipped,
    })
    return {k: (v.item() if isinstance(v, np.generic) else v) for k, v in other.items()}


FLOW_FORMAT = ('{"name":"message","cat":"message","ph":"%s","id":%d,"ts":%.3f,"pid":%d,"tid":0%s,'
               '"args":{"bytes":%d,"communicator":%d}}')
MARKER_FORMAT = ('{"name":"iteration %d","cat":"iteration","ph":"i","s":"t","ts":%.3f,"pid":%d,"tid":0,'
                 '"args":{"iteration":%d}}')


def iteration_markers(tl, origin_ns):
    """Instant-event rows: per rank and iteration of the window, at its first event (rounded to
    whole nanoseconds, as the phase slices are)."""
    first = first_event(tl.events)
    rows = []
    for i, rank in enumerate(tl.ranks.tolist()):
        ok = np.isfinite(first[i])
        ts = ((np.round(first[i][ok] * 1e9).astype(np.int64) - origin_ns) / 1e3).tolist()
        rows += [MARKER_FORMAT % (k, t, rank, k) for k, t in zip(tl.iterations[ok].tolist(), ts)]
    return rows


def inside_slices(track, ranks, rank, t_ns):
    """Whether the time t_ns lies inside (ends included) a slice of `rank`'s track."""
    where = np.flatnonzero(ranks == rank)
    if not len(where):
        return False
    _, b, e, _ = track[int(where[0])]
    i = int(np.searchsorted(b, t_ns, side="right")) - 1
    return i >= 0 and t_ns <= e[i]


def message_flows(tl, tracks, origin_ns, msgs):
    """Flow-event rows ("s" on the sender, "f" with bp "e" on the receiver) of the messages
    whose post and completion both lie inside an exported slice; ids 0, 1, ... in post order."""
    b = [x for _, x, _, _ in tracks if len(x)]
    e = [x for _, _, x, _ in tracks if len(x)]
    if not b:
        return []
    t0, t1 = min(x.min() for x in b) / 1e9, max(x.max() for x in e) / 1e9
    rows = []
    for k in np.flatnonzero(in_window(msgs, tl.ranks, t0, t1)).tolist():
        post_ns = int(np.round(msgs.t_post[k] * 1e9))
        done_ns = int(np.round(msgs.t_done[k] * 1e9))
        if not (inside_slices(tracks, tl.ranks, msgs.src[k], post_ns)
                and inside_slices(tracks, tl.ranks, msgs.dst[k], done_ns)):
            continue
        flow = len(rows) // 2
        rows.append(FLOW_FORMAT % ("s", flow, (post_ns - origin_ns) / 1e3, msgs.src[k], "", msgs.bytes[k], msgs.comm[k]))
        rows.append(FLOW_FORMAT % ("f", flow, (done_ns - origin_ns) / 1e3, msgs.dst[k], ',"bp":"e"', msgs.bytes[k],
                                   msgs.comm[k]))
    return rows


def write_trace(out, tl, order, tracks, origin_ns, other, msgs=None, domains=()):
    """Stream the JSON (large windows make millions of events). domains: counter tracks
    (chrome_counters.counter_tracks)."""
    flows = message_flows(tl, tracks, origin_ns, msgs) if msgs is not None and len(msgs) else []
    other["message_flows"] = len(flows) // 2
    out.write('{"displayTimeUnit":"ms","otherData":%s,"traceEvents":[\n' % json.dumps(other))
    meta = []
    for rank in tl.ranks:
        host = tl.hostnames[rank] if rank < len(tl.hostnames) else "?"
        meta += [
            {"name": "process_name", "ph": "M", "pid": int(rank), "tid": 0,
             "args": {"name": "rank %d (%s)" % (rank, host)}},
            {"name": "process_sort_index", "ph": "M", "pid": int(rank), "tid": 0,
             "args": {"sort_index": int(rank)}},
            {"name": "thread_name", "ph": "M", "pid": int(rank), "tid": 0,
             "args": {"name": "iterations"}},
        ]
    meta += counter_meta(domains)
    out.write(",\n".join(json.dumps(m) for m in meta))
    count = 0
    for rank, (code, b, e, it) in zip(tl.ranks, tracks):
        names = [order[c] for c in code.tolist()]
        ts = ((b - origin_ns) / 1e3).tolist()
        dur = ((e - b) / 1e3).tolist()
        iters = tl.iterations[it].tolist()
        warm = ["true" if w else "false" for w in tl.warmup[it].tolist()]
        rows = [EVENT_FORMAT % (n, n, t, d, rank, k, w)
                for n, t, d, k, w in zip(names, ts, dur, iters, warm)]
        if rows:
            out.write(",\n" + ",\n".join(rows))
        count += len(rows)
    rows = iteration_markers(tl, origin_ns) + flows + counter_rows(domains, origin_ns)  # flows: send post -> receive completion
    if rows:
        out.write(",\n" + ",\n".join(rows))
    count += len(rows)
    out.write("\n]}\n")
    return count
