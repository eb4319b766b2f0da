#!/usr/bin/env python3
"""desync_view: look at the HDF5 output of a desync run (layout: docs/output.md).

Subcommands:

  summary FILE
      Text summary: run attributes (workload, verification verdict, ranks, iterations,
      versions, start time), topology in short form (hosts, threads per rank, placement
      warnings), the matrix share (rows, nonzeros; matrix workloads), the per-phase table over
      ranks (/metrics/phase_over_ranks with the argmin / argmax ranks), communication (partners
      per rank, bytes received per iteration), bandwidth metrics, every other scalar in
      /metrics with its units, and the total time.

  timeline FILE -o OUT.png [--ranks A:B] [--iterations K0:K1] [--include-warmup] [--title T]
      Per-rank timeline picture: one row per rank (first rank of the window at the top), wall
      time on the common time base on the x axis, one bar per phase and iteration. Phases
      follow the rule of docs/output.md for every workload (an event "<phase>_end" ends phase
      <phase>, which began at the latest earlier event of the iteration that happened) and are
      coloured by name: work (compute, local, remote, exec) green, injected delay blue, wait
      red, barrier orange and hatched, pack/post and unknown phases grey. Any format
      matplotlib's Agg backend writes (png, pdf, svg) by suffix.

  trace FILE -o OUT.json[.gz] [--ranks A:B] [--iterations K0:K1] [--stride S] [--include-warmup]
      Chrome Trace Event JSON (opens in https://ui.perfetto.dev or chrome://tracing): one
      process per rank, one complete event per phase and iteration, times in microseconds.
      A name ending in .gz is written gzip-compressed.

Windows are half-open, A:B (also A:B:S); a single number selects one rank/iteration.
--ranks is a Python slice over the ranks: --ranks 4:8 is ranks 4..7, --ranks -1 the last rank.
--iterations uses the deck's iteration numbers (as in `[[inject]] iteration = k` and the C++
side): measured iteration 0 is the first iteration after warm-up, the measured iterations are
0..M-1 and the W warm-up iterations are -W..-1 (W = root attribute warmup_iterations). So
--iterations 5:15 is measured iterations 5..14. Negative numbers are warm-up iterations, NOT
counts from the end: --iterations -3:4 is warm-up -3..-1 plus measured 0..3. Bounds outside
-W..M-1 are clipped. Without an explicit start the window begins at measured iteration 0;
--include-warmup makes it begin at -W instead (all warm-up iterations). The same numbers
appear in the trace's args.iteration and in titles and summaries.

Use an interpreter that has numpy, h5py and matplotlib (on Debian: /usr/bin/python3).
Exit status: 0 on success, 2 for usage errors (bad arguments, missing file, a file that is not
a desync output, an empty window).
"""

import argparse
import gzip
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

try:
    import numpy as np
    import desync_h5 as dh
except ImportError as _exc:  # the interpreter lacks numpy/h5py
    sys.exit("desync_view.py: error: %s; this tool needs numpy, h5py and matplotlib "
             "(on Debian: apt install python3-h5py python3-matplotlib, run with /usr/bin/python3)"
             % _exc)

# colours and hatches of the phases in the timeline picture, by phase name (any workload)
STYLE = {
    "compute": dict(facecolor="#b9e3b0", edgecolor="#6aa760", hatch=None, label="compute"),
    "local": dict(facecolor="#b9e3b0", edgecolor="#6aa760", hatch=None, label="local part"),
    "remote": dict(facecolor="#8fd18a", edgecolor="#4f9a48", hatch=None, label="remote part"),
    "exec": dict(facecolor="#a6dba0", edgecolor="#5fa356", hatch=None, label="exec"),
    "delay": dict(facecolor="#1f5fd6", edgecolor="#1f5fd6", hatch=None, label="injected delay"),
    "pack": dict(facecolor="#d4d4d4", edgecolor="#909090", hatch=None, label="pack (send buffer)"),
    "post": dict(facecolor="#bdbdbd", edgecolor="#808080", hatch=None, label="post (Isend/Irecv)"),
    "wait": dict(facecolor="#e0201b", edgecolor="#e0201b", hatch=None, label="wait (Waitall)"),
    "barrier": dict(facecolor="#f5a623", edgecolor="#8b2500", hatch="////", label="barrier"),
}
UNKNOWN_STYLE = dict(facecolor="#a0a0a0", edgecolor="#707070", hatch=None)


def style(phase):
    """The bar style of a phase; phases this tool does not know are grey, labelled by name."""
    return STYLE.get(phase) or dict(UNKNOWN_STYLE, label=phase)
BAR_HEIGHT = 0.8
RECTS_PER_PATH = 100_000  # compound paths are split so that Agg never gets a giant one


# --------------------------------------------------------------------------- summary


def cmd_summary(args):
    with dh.open_output(args.file) as f:
        out = []
        out += summary_run(f, args.file)
        out += summary_topology(f)
        out += summary_matrix(f)
        out += summary_phases(f)
        out += summary_comm(f)
        out += summary_bandwidth(f)
        out += summary_other_metrics(f)
        out += ["", row("total time", dh.format_time(dh.read(f, "metrics/total_time")))]
    print("\n".join(out))
    return 0


def row(key, value):
    return "  %-20s %s" % (key, value)


def summary_run(f, path):
    a = dh.root_attributes(f)
    get = lambda k: a.get(k, "?")  # noqa: E731
    mpi = dh.lines(a.get("mpi_library_version", "")) or ["?"]
    version = "format %s, desync %s (git %s)" % (
        get("format_version"), get("desync_version"), get("git_revision"))
    return [
        "desync output: %s" % path,
        row("workload", get("workload")),
        row("verification", get("verification")),
        row("ranks", get("ranks")),
        row("iterations", iterations_text(a.get("iterations"), a.get("warmup_iterations"))),
        row("versions", version),
        row("Kokkos", "%s, execution space %s" % (get("kokkos_version"), get("execution_space"))),
        row("compiler", get("compiler")),
        row("MPI", mpi[0]),
        row("start time", get("start_time")),
        row("command line", get("command_line")),
    ]


def iterations_text(measured, warmup):
    """'18 measured + 2 warm-up (numbered 0..17 and -2..-1, as in the deck)'."""
    text = "%s measured + %s warm-up" % ("?" if measured is None else measured,
                                          "?" if warmup is None else warmup)
    if isinstance(measured, int) and isinstance(warmup, int):
        numbers = ["0..%d" % (measured - 1)] if measured > 0 else []
        numbers += ["-%d..-1" % warmup] if warmup > 0 else []
        if numbers:
            text += " (numbered %s, as in the deck)" % " and ".join(numbers)
    return text


def summary_topology(f):
    hosts = dh.read(f, "topology/hostname") or []
    threads = dh.read(f, "topology/threads")
    by_host = {}
    for rank, host in enumerate(hosts):
        by_host.setdefault(host, []).append(rank)
    host_text = "%d: " % len(by_host) + ", ".join(
        "%s (ranks %s)" % (h, dh.rank_ranges(r)) for h, r in by_host.items())
    out = ["", "topology", row("hosts", host_text if hosts else "-")]
    if threads is not None:
        by_count = {}
        for rank, t in enumerate(np.asarray(threads).tolist()):
            by_count.setdefault(t, []).append(rank)
        text = "; ".join(
            "%d (%s)" % (t, "all ranks" if len(r) == len(threads) else "ranks " + dh.rank_ranges(r))
            for t, r in sorted(by_count.items()))
        out.append(row("threads per rank", text))
    domains = dh.read(f, "topology/contention_domain")
    if domains is not None:
        d = np.asarray(domains)
        out.append(row("contention domains", "%d distinct%s" % (
            len(set(d[d >= 0].tolist())),
            ", %d rank(s) spanning several NUMA nodes" % (d < 0).sum() if (d < 0).any() else "")))
    offset, error = dh.read(f, "topology/clock_offset"), dh.read(f, "topology/clock_offset_error")
    if offset is not None and error is not None and len(offset):
        out.append(row("clock offsets", "max |offset| %s, max error %s" % (
            dh.format_time(np.nanmax(np.abs(offset))), dh.format_time(np.nanmax(error)))))
    warnings = dh.lines(dh.read_attr(f, "topology", "warnings", ""))
    out.append(row("placement warnings", "none" if not warnings else warnings[0]))
    out += [row("", w) for w in warnings[1:]]
    return out


def summary_matrix(f):
    """Total rows and nonzeros of the distributed matrix (optional /matrix group)."""
    rows, nnz = dh.read(f, "matrix/rows"), dh.read(f, "matrix/nnz")
    if rows is None and nnz is None:
        return []
    out = ["", "matrix"]
    for name, data in (("rows", rows), ("nonzeros", nnz)):
        if data is not None:
            d = np.asarray(data, dtype=np.int64).reshape(-1)
            out.append(row(name, "%d total (per rank: min %d, max %d)" % (d.sum(), d.min(), d.max())
                           if d.size else "-"))
    return out


def summary_phases(f):
    table = dh.read(f, "metrics/phase_over_ranks")
    if table is None:
        return ["", "phases: no /metrics/phase_over_ranks in the file"]
    names = dh.read_attr(f, "metrics/phase_over_ranks", "phase_names") or \
        dh.read_attr(f, "summary/phase_stats", "phase_names") or \
        ["phase %d" % i for i in range(len(table))]
    argmin = dh.read(f, "metrics/phase_argmin_rank")
    argmax = dh.read(f, "metrics/phase_argmax_rank")
    out = ["", "phases: each rank's median over measured iterations; min/median/max over ranks",
           "  %-10s %12s %12s %12s %8s %8s" % ("phase", "min", "median", "max", "min@rank", "max@rank")]
    for i, name in enumerate(names):
        lo, med, hi = np.asarray(table[i], dtype=float)[:3]
        out.append("  %-10s %12s %12s %12s %8s %8s" % (
            name, dh.format_time(lo), dh.format_time(med), dh.format_time(hi),
            rank_or_dash(argmin, i), rank_or_dash(argmax, i)))
    return out


def rank_or_dash(ranks, i):
    if ranks is None or i >= len(ranks) or ranks[i] < 0:
        return "-"
    return str(int(ranks[i]))


def min_mean_max(values, fmt):
    v = np.asarray(values, dtype=float)
    return "min %s, mean %s, max %s" % (fmt(v.min()), fmt(v.mean()), fmt(v.max()))


def summary_comm(f):
    """Partners per rank and bytes received per iteration (/comm), min/mean/max over ranks."""
    recv, send = dh.read(f, "comm/recv_partner"), dh.read(f, "comm/send_partner")
    recv_bytes = dh.read(f, "comm/recv_bytes")
    offsets = dh.read(f, "comm/offsets")
    if recv is None and send is None and recv_bytes is None:
        return []
    out = ["", "communication (per rank and iteration; min/mean/max over ranks)"]
    count = lambda p: (np.asarray(p).reshape(len(p), -1) >= 0).sum(axis=1)  # noqa: E731
    plain = lambda x: "%.4g" % x  # noqa: E731
    if recv is not None and len(recv):
        out.append(row("partners per rank", min_mean_max(count(recv), plain) + " (receive)"))
    if send is not None and len(send) and (recv is None or
                                           not np.array_equal(count(send), count(recv))):
        out.append(row("", min_mean_max(count(send), plain) + " (send)"))
    if recv_bytes is not None and len(recv_bytes):
        total = np.asarray(recv_bytes, dtype=float).reshape(len(recv_bytes), -1).sum(axis=1)
        out.append(row("received bytes", min_mean_max(total, lambda x: dh.format_si(x, "B"))))
    if offsets is not None:
        out.append(row("offsets", ", ".join(str(int(o)) for o in np.asarray(offsets).reshape(-1))))
    return out


#: /metrics datasets that summary shows in its own sections
SHOWN_METRICS = ("total_time", "aggregate_bandwidth", "effective_bandwidth", "verification_errors",
                 "phase_over_ranks", "phase_argmin_rank", "phase_argmax_rank")


def summary_other_metrics(f):
    """Every scalar dataset in /metrics not shown elsewhere, formatted by its units."""
    if "metrics" not in f:
        return []
    out = []
    for name, ds in f["metrics"].items():
        if name in SHOWN_METRICS or not hasattr(ds, "shape") or ds.shape != ():
            continue
        units = dh.read_attr(f, "metrics/" + name, "units", "")
        value = dh.read(f, "metrics/" + name)
        if not isinstance(value, str):
            try:
                value = float(value)
            except (TypeError, ValueError):
                value = str(value)
        out.append((name, dh.format_quantity(value, units)))
    width = max([20] + [len(name) for name, _ in out])
    return ["", "other metrics"] + ["  %-*s %s" % (width, n, v) for n, v in out] if out else []


def summary_bandwidth(f):
    out = ["", "bandwidth"]
    out.append(row("aggregate", dh.format_si(dh.read(f, "metrics/aggregate_bandwidth"), "B/s")))
    out.append(row("effective", dh.format_si(dh.read(f, "metrics/effective_bandwidth"), "B/s")))
    per_rank = dh.read(f, "summary/bandwidth")
    if per_rank is not None and np.isfinite(per_rank).any():
        lo, hi = int(np.nanargmin(per_rank)), int(np.nanargmax(per_rank))
        out.append(row("per rank", "min %s (rank %d), median %s, max %s (rank %d)" % (
            dh.format_si(per_rank[lo], "B/s"), lo, dh.format_si(np.nanmedian(per_rank), "B/s"),
            dh.format_si(per_rank[hi], "B/s"), hi)))
    per_iteration = dh.read(f, "summary/bytes_per_iteration")
    if per_iteration is None:  # files written before the rename
        per_iteration = dh.read(f, "summary/bytes_per_sweep")
    if per_iteration is not None and np.size(per_iteration):
        b = np.asarray(per_iteration, dtype=float).reshape(-1)
        text = (dh.format_si(b[0], "B") + (" (every rank)" if len(b) > 1 else "")
                if np.all(b == b[0]) else min_mean_max(b, lambda x: dh.format_si(x, "B")))
        out.append(row("bytes per iteration", text))
    errors = dh.read(f, "metrics/verification_errors")
    if errors is not None:
        out.append(row("verification errors", errors))
    return out


# --------------------------------------------------------------------------- timeline


def cmd_timeline(args):
    with dh.open_output(args.file) as f:
        window = dh.select_window(f, args.ranks, args.iterations, args.include_warmup)
        tl = dh.read_timeline(f, window)
        attrs = dh.root_attributes(f)
    fig = draw_timeline(tl, attrs, args.title, args.dpi)
    fig.savefig(args.output, dpi=args.dpi)
    print("wrote %s (%d ranks x %d iterations)" % (args.output, len(tl.ranks), len(tl.iterations)))
    return 0


def rect_paths(x0, x1, y0, y1):
    """Compound matplotlib Paths holding one closed rectangle per interval (vectorised)."""
    from matplotlib.path import Path

    codes_one = [Path.MOVETO, Path.LINETO, Path.LINETO, Path.LINETO, Path.CLOSEPOLY]
    paths = []
    for s in range(0, len(x0), RECTS_PER_PATH):
        a, b, c, d = (v[s:s + RECTS_PER_PATH] for v in (x0, x1, y0, y1))
        verts = np.stack([np.stack([a, c], 1), np.stack([b, c], 1), np.stack([b, d], 1),
                          np.stack([a, d], 1), np.stack([a, c], 1)], axis=1).reshape(-1, 2)
        codes = np.tile(np.array(codes_one, dtype=Path.code_type), len(a))
        paths.append(Path(verts, codes))
    return paths


def draw_timeline(tl, attrs, title=None, dpi=150):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.collections import PathCollection
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    bars = timeline_bars(tl)
    t_min = min(x0.min() for x0, _, _ in bars.values())
    t_max = max(x1.max() for _, x1, _ in bars.values())
    n_rows = len(tl.ranks)
    fig, ax = plt.subplots(figsize=(13, min(14, 2.2 + 0.32 * n_rows)), dpi=dpi)
    pad = 0.01 * (t_max - t_min or 1e-6)
    ax.set_xlim(t_min - pad, t_max + pad)
    ax.set_ylim(n_rows - 0.5, -0.5)  # first rank of the window at the top
    label_ranks(ax, tl)
    handles = [Patch(facecolor=style(p)["facecolor"], edgecolor=style(p)["edgecolor"],
                     hatch=style(p)["hatch"], label=style(p)["label"]) for p in bars]
    if t_min < 0 < t_max:
        ax.axvline(0, color="black", lw=0.8, ls="--", zorder=3)
        handles.append(Line2D([], [], color="black", lw=0.8, ls="--", label="measured loop starts"))
    ax.set_xlabel("wall time on the common time base (s; 0 = start of measured iteration 0 "
                  "on rank 0)")
    ax.set_ylabel("MPI rank")
    ax.grid(axis="x", color="#dddddd", lw=0.5, zorder=0)
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.005, 1.0), frameon=False,
              fontsize=9)
    ax.set_title(timeline_title(tl, attrs, title), fontsize=10)
    fig.tight_layout()
    # the layout is final: merge bars narrower than a pixel (keeps the picture, saves time)
    pixel = (t_max - t_min + 2 * pad) / max(1.0, ax.get_window_extent().width)
    for phase, (x0, x1, y) in bars.items():
        x0, x1, y = merge_subpixel(x0, x1, y, t_min - pad, pixel)
        st = style(phase)
        ax.add_collection(PathCollection(
            rect_paths(x0, x1, y - BAR_HEIGHT / 2, y + BAR_HEIGHT / 2),
            facecolors=st["facecolor"], edgecolors=st["edgecolor"], linewidths=0,
            hatch=st["hatch"], zorder=2), autolim=False)
    return fig


def timeline_bars(tl):
    """{phase: (begin, end, row)} of the intervals that happened, phases in the order of
    their end events (absent phases left out); row 0 = first rank."""
    n_rows = len(tl.ranks)
    row_of = np.broadcast_to(np.arange(n_rows, dtype=float)[:, None], tl.events.shape[:2])
    bars = {}
    for phase, (begin, end) in dh.phase_intervals(tl).items():
        ok = dh.valid(begin, end)
        if ok.any():
            bars[phase] = (begin[ok], end[ok], row_of[ok])
    if not bars:
        raise dh.DesyncError("nothing to draw: no event happened in the window")
    return bars


def merge_subpixel(x0, x1, y, origin, pixel):
    """Replace the bars of a row that lie inside one pixel column by one bar of their total
    width, starting where the first one starts: Agg shades a pixel by the area covered, so
    the picture stays the same while 40 ranks x 50000 iterations shrink to a few bars per
    pixel column. Bars crossing a column boundary are kept as they are.
    """
    col0 = np.floor((x0 - origin) / pixel)
    inside = col0 == np.floor((x1 - origin) / pixel)
    if inside.sum() < 2:
        return x0, x1, y
    key = y[inside] * (np.max(col0) + 2) + col0[inside]
    order = np.lexsort((x0[inside], key))
    key, b, w = key[order], x0[inside][order], (x1 - x0)[inside][order]
    first = np.flatnonzero(np.r_[True, key[1:] != key[:-1]])
    mb = b[first]
    me = mb + np.add.reduceat(w, first)
    my = y[inside][order][first]
    return (np.concatenate([x0[~inside], mb]), np.concatenate([x1[~inside], me]),
            np.concatenate([y[~inside], my]))


def label_ranks(ax, tl):
    """One tick per rank if they fit, and a thin line where the host changes."""
    from matplotlib.ticker import FuncFormatter, MaxNLocator

    n_rows = len(tl.ranks)
    if n_rows <= 48:
        ax.set_yticks(range(n_rows))
        ax.set_yticklabels([str(r) for r in tl.ranks], fontsize=8)
    else:
        ax.yaxis.set_major_locator(MaxNLocator(nbins=24, integer=True))
        ax.yaxis.set_major_formatter(FuncFormatter(
            lambda y, _: str(tl.ranks[int(y)]) if 0 <= int(y) < n_rows else ""))
    hosts = [tl.hostnames[r] if r < len(tl.hostnames) else "?" for r in tl.ranks]
    for i in range(1, n_rows):
        if hosts[i] != hosts[i - 1]:
            ax.axhline(i - 0.5, color="#555555", lw=0.6, zorder=1)


def timeline_title(tl, attrs, title):
    facts = "%s, verification %s: ranks %s, iterations %s%s" % (
        attrs.get("workload", "?"), attrs.get("verification", "?"), dh.rank_ranges(tl.ranks),
        iteration_span(tl), " (warm-up < 0 included)" if tl.warmup.any() else "")
    return "%s\n%s" % (title, facts) if title else "desync timeline: " + facts


def iteration_span(tl):
    """'-2..17' (deck numbering) of the window's iterations."""
    k0, k1 = int(tl.iterations.min()), int(tl.iterations.max())
    return str(k0) if k0 == k1 else "%d..%d" % (k0, k1)


# --------------------------------------------------------------------------- trace

EVENT_FORMAT = ('{"name":"%s","cat":"%s","ph":"X","ts":%.3f,"dur":%.3f,"pid":%d,"tid":0,'
                '"args":{"iteration":%d,"warmup":%s}}')


def cmd_trace(args):
    if args.stride < 1:
        raise dh.DesyncError("--stride must be at least 1")
    with dh.open_output(args.file) as f:
        window = dh.select_window(f, args.ranks, args.iterations, args.include_warmup, args.stride)
        tl = dh.read_timeline(f, window)
        attrs = dh.root_attributes(f)
    order, tracks, clipped = dh.phase_tracks(tl)
    # Perfetto dislikes negative times (warm-up): shift by a whole number of nanoseconds
    origin_ns = min(0, min((int(b[0]) for _, b, _, _ in tracks if len(b)), default=0))
    other = trace_provenance(args, attrs, tl, origin_ns / 1e9, clipped)
    opener = gzip.open if args.output.endswith(".gz") else open
    with opener(args.output, "wt", encoding="utf-8") as out:
        count = write_trace(out, tl, order, tracks, origin_ns, other)
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
        "window_ranks": dh.rank_ranges(tl.ranks),
        "window_iterations": iteration_span(tl),
        "iteration_numbering": "as in the deck: measured iterations 0..M-1, warm-up -W..-1",
        "stride": args.stride,
        "time_origin_s": origin,
        "time_base": "ts = (common time base - time_origin_s) in us; common time base: rank 0's "
                     "clock, 0 at the start of its first measured iteration",
        "clipped_events": clipped,
    })
    return {k: (v.item() if isinstance(v, np.generic) else v) for k, v in other.items()}


def write_trace(out, tl, order, tracks, origin_ns, other):
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
    out.write("\n]}\n")
    return count


# --------------------------------------------------------------------------- command line


def rank_window(text):
    try:
        return dh.parse_slice(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc))


def iteration_window(text):
    try:
        return dh.parse_iterations(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc))


WINDOW_OPTIONS = ("--ranks", "--iterations")


def join_negative_values(argv):
    """'--iterations -3:4' -> '--iterations=-3:4': argparse takes '-3:4' for an option."""
    out, i = [], 0
    while i < len(argv):
        a = argv[i]
        if a in WINDOW_OPTIONS and i + 1 < len(argv) and argv[i + 1][:1] == "-" \
                and argv[i + 1][1:2].isdigit():
            out.append("%s=%s" % (a, argv[i + 1]))
            i += 2
        else:
            out.append(a)
            i += 1
    return out


def add_window_args(p, stride=False):
    p.add_argument("--ranks", type=rank_window, default=slice(None), metavar="A:B",
                   help="ranks to show, Python slice (half-open, negative counts from the "
                        "end: -1 is the last rank), default: all")
    p.add_argument("--iterations", type=iteration_window, default=slice(None), metavar="K0:K1",
                   help="iterations to show, half-open, in the deck's numbering: measured "
                        "iterations are 0..M-1, the W warm-up iterations -W..-1 (5:15 is "
                        "measured 5..14; a single K selects one). Negative numbers are warm-up "
                        "iterations, NOT counts from the end as in Python: -3:4 is warm-up "
                        "-3..-1 plus measured 0..3. Default: all measured iterations")
    p.add_argument("--include-warmup", action="store_true",
                   help="without an explicit start of --iterations, begin the window at "
                        "warm-up iteration -W instead of measured iteration 0")
    if stride:
        p.add_argument("--stride", type=int, default=1, metavar="S",
                       help="export every S-th iteration of the window (default 1)")


def build_parser():
    parser = argparse.ArgumentParser(
        prog="desync_view.py", description="Look at the HDF5 output of a desync run.",
        epilog="Iteration numbers are the deck's: measured iterations 0..M-1, warm-up iterations "
               "-W..-1 (negative numbers are warm-up iterations, not counts from the end). "
               "See the module docstring or docs/output.md for details.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    p = sub.add_parser("summary", help="print a text summary of a run")
    p.add_argument("file", metavar="FILE")
    p.set_defaults(func=cmd_summary)

    p = sub.add_parser("timeline", help="draw the per-rank timeline (PNG)")
    p.add_argument("file", metavar="FILE")
    p.add_argument("-o", "--output", required=True, metavar="OUT.png")
    add_window_args(p)
    p.add_argument("--title", help="title line (workload and verdict are always shown)")
    p.add_argument("--dpi", type=int, default=150, help="resolution (default 150)")
    p.set_defaults(func=cmd_timeline)

    p = sub.add_parser("trace", help="export Chrome Trace Event JSON for Perfetto")
    p.add_argument("file", metavar="FILE")
    p.add_argument("-o", "--output", required=True, metavar="OUT.json[.gz]")
    add_window_args(p, stride=True)
    p.set_defaults(func=cmd_trace)
    return parser


def main(argv=None):
    parser = build_parser()
    args = parser.parse_args(join_negative_values(sys.argv[1:] if argv is None else list(argv)))
    try:
        return args.func(args)
    except dh.DesyncError as exc:
        parser.exit(2, "%s: error: %s\n" % (parser.prog, exc))
    except OSError as exc:  # e.g. the output directory does not exist
        parser.exit(1, "%s: error: %s\n" % (parser.prog, exc))


if __name__ == "__main__":
    sys.exit(main())
