"""The `trace` subcommand: Chrome Trace Event JSON (https://ui.perfetto.dev, chrome://tracing).

One process per rank, one complete event per phase and iteration, times in microseconds, and,
when the file has /messages, one flow arrow per message from the sender's post to the
receiver's completion; a name ending in .gz is written gzip-compressed.
"""

import gzip
import json
import os

import numpy as np

from .errors import DesyncError
from .formatting import iteration_span, rank_ranges
from .h5file import open_output, root_attributes
from .messages import in_window, read_messages
from .phases import phase_tracks
from .timeline import read_timeline
from .window import select_window


EVENT_FORMAT = ('{"name":"%s","cat":"%s","ph":"X","ts":%.3f,"dur":%.3f,"pid":%d,"tid":0,'
                '"args":{"iteration":%d,"warmup":%s}}')


def cmd_trace(args):
    if args.stride < 1:
        raise DesyncError("--stride must be at least 1")
    with open_output(args.file) as f:
        window = select_window(f, args.ranks, args.iterations, args.include_warmup, args.stride)
        tl = read_timeline(f, window)
        attrs = root_attributes(f)
        msgs = read_messages(f)
    order, tracks, clipped = phase_tracks(tl)
    # Perfetto dislikes negative times (warm-up): shift by a whole number of nanoseconds
    origin_ns = min(0, min((int(b[0]) for _, b, _, _ in tracks if len(b)), default=0))
    other = trace_provenance(args, attrs, tl, origin_ns / 1e9, clipped)
    opener = gzip.open if args.output.endswith(".gz") else open
    with opener(args.output, "wt", encoding="utf-8") as out:
        count = write_trace(out, tl, order, tracks, origin_ns, other, msgs)
    print("wrote %s (%d events, %d ranks x %d iterations)"
          % (args.output, count, len(tl.ranks), len(tl.iterations)))
    return 0


def trace_provenance(args, attrs, tl, origin, clipped):
    keys = ("format_version", "workload", "verification", "desync_version", "git_revision",
            "compiler", "kokkos_version", "execution_space", "mpi_library_version", "start_time",
            "command_line", "ranks", "iterations", "warmup_iterations")
    other = {k: attrs[k] for k in keys if k in attrs}
    other.update({
        "source_file": os.path.abspath(args.file),
        "generator": "tools/desync_view.py trace",
        "window_ranks": rank_ranges(tl.ranks),
        "window_iterations": iteration_span(tl),
        "iteration_numbering": "as in the deck: measured iterations 0..M-1, warm-up -W..-1",
        "stride": args.stride,
        "time_origin_s": origin,
        "time_base": "ts = (common time base - time_origin_s) in us; common time base: rank 0's "
                     "clock, 0 at the start of its first measured iteration",
        "clipped_events": clipped,
    })
    return {k: (v.item() if isinstance(v, np.generic) else v) for k, v in other.items()}


FLOW_FORMAT = ('{"name":"message","cat":"message","ph":"%s","id":%d,"ts":%.3f,"pid":%d,"tid":0%s,'
               '"args":{"bytes":%d,"communicator":%d}}')


def write_trace(out, tl, order, tracks, origin_ns, other, msgs=None):
    """Stream the JSON (large windows make millions of events)."""
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
    if msgs is not None and len(msgs):
        # Flow arrows bind to the phase slices they fall in: send post -> receive completion.
        b = [x for _, x, _, _ in tracks if len(x)]
        e = [x for _, _, x, _ in tracks if len(x)]
        t0 = min(x.min() for x in b) / 1e9 if b else -np.inf
        t1 = max(x.max() for x in e) / 1e9 if e else np.inf
        rows = []
        for k in np.flatnonzero(in_window(msgs, tl.ranks, t0, t1)).tolist():
            post = (msgs.t_post[k] * 1e9 - origin_ns) / 1e3
            done = (msgs.t_done[k] * 1e9 - origin_ns) / 1e3
            rows.append(FLOW_FORMAT % ("s", k, post, msgs.src[k], "", msgs.bytes[k], msgs.comm[k]))
            rows.append(FLOW_FORMAT % ("f", k, done, msgs.dst[k], ',"bp":"e"', msgs.bytes[k], msgs.comm[k]))
        if rows:
            out.write(",\n" + ",\n".join(rows))
        count += len(rows)
    out.write("\n]}\n")
    return count
