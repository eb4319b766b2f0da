"""The text summary of a desync output file (the `summary` subcommand, view_commands/summary.py).

Run attributes (workload, verification verdict, ranks, iterations, versions, start time),
topology in short form (hosts, threads per rank, CPU frequency state, placement warnings), the matrix share (rows,
nonzeros; matrix workloads), the per-phase table over ranks (/metrics/phase_over_ranks with the
argmin / argmax ranks), communication (partners per rank, bytes received per iteration),
bandwidth metrics, every other scalar in /metrics with its units, and the total time.
"""

import h5py
import numpy as np

from .errors import DesyncError
from .formatting import format_quantity, format_si, format_time, rank_ranges
from .h5file import incomplete_reason, lines, read, read_attr, read_attr_text, read_per_rank, root_attributes


def summary_lines(f, path):
    """The text summary of an open file (path: the name to show), as a list of lines."""
    out = []
    out += summary_run(f, path)
    out += summary_topology(f)
    out += summary_matrix(f)
    out += summary_phases(f)
    out += summary_comm(f)
    out += summary_bandwidth(f)
    out += summary_other_metrics(f)
    out += ["", row("total time", format_time(read(f, "metrics/total_time", kind="number", ndim=0)))]
    return out


def row(key, value):
    return "  %-20s %s" % (key, value)


def summary_run(f, path):
    a = root_attributes(f)
    get = lambda k: a.get(k, "?")  # noqa: E731
    mpi = a.get("mpi_library_version", "")
    if not isinstance(mpi, str):
        raise DesyncError("root attribute mpi_library_version = %r, expected text" % (mpi,))
    mpi = lines(mpi) or ["?"]
    version = "format %s, desync %s (git %s)" % (
        get("format_version"), get("desync_version"), get("git_revision"))
    return [
        "desync output: %s" % path,
        row("workload", get("workload")),
        row("verification", get("verification")),
        row("state", incomplete_reason(a) and "incomplete: " + incomplete_reason(a) or "complete"),
        row("ranks", get("ranks")),
        row("iterations", iterations_text(a.get("iterations"), a.get("warmup_iterations"))),
        row("versions", version),
        row("Kokkos", "%s, execution space %s" % (get("kokkos_version"), get("execution_space"))),
        row("compiler", get("compiler")),
    ] + ([row("build", a["build"])] if a.get("build") else []) + [
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
    hosts = read_per_rank(f, "topology/hostname", "text")
    hosts = [] if hosts is None else hosts
    threads = read_per_rank(f, "topology/threads")
    by_host = {}
    for rank, host in enumerate(hosts):
        by_host.setdefault(host, []).append(rank)
    host_text = "%d: " % len(by_host) + ", ".join(
        "%s (ranks %s)" % (h, rank_ranges(r)) for h, r in by_host.items())
    out = ["", "topology", row("hosts", host_text if hosts else "-")]
    if threads is not None:
        by_count = {}
        for rank, t in enumerate(np.asarray(threads).tolist()):
            by_count.setdefault(t, []).append(rank)
        text = "; ".join(
            "%d (%s)" % (t, "all ranks" if len(r) == len(threads) else "ranks " + rank_ranges(r))
            for t, r in sorted(by_count.items()))
        out.append(row("threads per rank", text))
    domains = read_per_rank(f, "topology/contention_domain")
    if domains is not None:
        d = np.asarray(domains)
        out.append(row("contention domains", "%d distinct%s" % (
            len(set(d[d >= 0].tolist())),
            ", %d rank(s) spanning several NUMA nodes" % (d < 0).sum() if (d < 0).any() else "")))
    freq = read_per_rank(f, "topology/cpu_frequency", "text")
    if freq is not None and len(freq):
        # The distinct states, each with its ranks (one line on a uniform machine).
        by_state = {}
        for rank, state in enumerate(freq):
            by_state.setdefault(state, []).append(rank)
        shown = list(by_state.items())[:3]  # the current frequency differs from rank to rank
        for i, (state, ranks) in enumerate(shown):
            out.append(row("CPU frequency" if i == 0 else "",
                           state if len(by_state) == 1 else "ranks %s: %s" % (rank_ranges(ranks), state)))
        if len(by_state) > len(shown):
            out.append(row("", "... %d more (/topology/cpu_frequency)" % (len(by_state) - len(shown))))
    offset, error, drift = (read_per_rank(f, "topology/" + k) for k in ("clock_offset", "clock_offset_error", "clock_drift"))
    if offset is not None and error is not None and len(offset):
        out.append(row("clock offsets", "max |offset| %s, max error %s" % (
            format_time(np.nanmax(np.abs(offset))), format_time(np.nanmax(error)))))
    d = np.abs(np.asarray(drift if drift is not None else [], dtype=float))
    d[~np.isfinite(d)] = 0.0
    if d.size and np.any(d > 0):
        out.append(row("clock drift", "max |drift| %.3g s/s (rank %d), corrected" % (d.max(), int(d.argmax()))))
    warnings = lines(read_attr_text(f, "topology", "warnings", ""))
    out.append(row("placement warnings", "none" if not warnings else warnings[0]))
    out += [row("", w) for w in warnings[1:]]
    return out


def summary_matrix(f):
    """Total rows and nonzeros of the distributed matrix (optional /matrix group)."""
    rows, nnz = (read(f, "matrix/" + k, kind="number") for k in ("rows", "nnz"))
    if rows is None and nnz is None:
        return []
    out = ["", "matrix"]
    for name, data in (("rows", rows), ("nonzeros", nnz)):
        if data is not None:
            d = np.asarray(data, dtype=np.int64).reshape(-1)
            out.append(row(name, "%d total (per rank: min %d, max %d)" % (d.sum(), d.min(), d.max())
                           if d.size else "-"))
    return out


def phase_table(f):
    """(names, [F, 3] min/median/max over ranks, argmin ranks, argmax ranks) of
    /metrics/phase_over_ranks, or None when the file has none (summary_record.py reads it too)."""
    table = read(f, "metrics/phase_over_ranks", kind="number", ndim=2)
    if table is None:
        return None
    names = read_attr(f, "metrics/phase_over_ranks", "phase_names")
    if names is None:
        names = read_attr(f, "summary/phase_stats", "phase_names")
    if names is None:
        names = ["phase %d" % i for i in range(len(table))]
    if not isinstance(names, list) or len(names) != table.shape[0] or table.shape[1] < 3:
        raise DesyncError("/metrics/phase_over_ranks: shape %s with phase_names %s; expected a row of min, "
                          "median and max per phase name" % (table.shape, repr(names)[:60]))
    argmin, argmax = (read(f, "metrics/phase_%s_rank" % k, kind="number", ndim=1) for k in ("argmin", "argmax"))
    return names, table, argmin, argmax


def summary_phases(f):
    phases = phase_table(f)
    if phases is None:
        return ["", "phases: no /metrics/phase_over_ranks in the file"]
    names, table, argmin, argmax = phases
    out = ["", "phases: each rank's median over measured iterations; min/median/max over ranks",
           "  %-10s %12s %12s %12s %8s %8s" % ("phase", "min", "median", "max", "min@rank", "max@rank")]
    for i, name in enumerate(names):
        lo, med, hi = np.asarray(table[i], dtype=float)[:3]
        out.append("  %-10s %12s %12s %12s %8s %8s" % (
            name, format_time(lo), format_time(med), format_time(hi),
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
    recv, send, recv_bytes = (read_per_rank(f, "comm/" + k, ndim=2)
                              for k in ("recv_partner", "send_partner", "recv_bytes"))
    offsets = read(f, "comm/offsets", kind="number")
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
        out.append(row("received bytes", min_mean_max(total, lambda x: format_si(x, "B"))))
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
    if not isinstance(f["metrics"], h5py.Group):
        raise DesyncError("/metrics is a dataset, expected a group")
    out = []
    for name, ds in f["metrics"].items():
        if name in SHOWN_METRICS or not hasattr(ds, "shape") or ds.shape != ():
            continue
        units = read_attr(f, "metrics/" + name, "units", "")
        value = read(f, "metrics/" + name)
        if not isinstance(value, str):
            try:
                value = float(value)
            except (TypeError, ValueError):
                value = str(value)
        out.append((name, format_quantity(value, units)))
    width = max([20] + [len(name) for name, _ in out])
    return ["", "other metrics"] + ["  %-*s %s" % (width, n, v) for n, v in out] if out else []


def summary_bandwidth(f):
    out = ["", "bandwidth"]
    for key in ("aggregate", "effective"):
        out.append(row(key, format_si(read(f, "metrics/%s_bandwidth" % key, kind="number", ndim=0), "B/s")))
    per_rank = read(f, "summary/bandwidth", kind="number", ndim=1)
    if per_rank is not None and np.isfinite(per_rank).any():
        lo, hi = int(np.nanargmin(per_rank)), int(np.nanargmax(per_rank))
        out.append(row("per rank", "min %s (rank %d), median %s, max %s (rank %d)" % (
            format_si(per_rank[lo], "B/s"), lo, format_si(np.nanmedian(per_rank), "B/s"),
            format_si(per_rank[hi], "B/s"), hi)))
    per_iteration = read(f, "summary/bytes_per_iteration", kind="number")
    if per_iteration is None:  # files written before the rename
        per_iteration = read(f, "summary/bytes_per_sweep", kind="number")
    if per_iteration is not None and np.size(per_iteration):
        b = np.asarray(per_iteration, dtype=float).reshape(-1)
        text = (format_si(b[0], "B") + (" (every rank)" if len(b) > 1 else "")
                if np.all(b == b[0]) else min_mean_max(b, lambda x: format_si(x, "B")))
        out.append(row("bytes per iteration", text))
    errors = read(f, "metrics/verification_errors", kind="number", ndim=0)
    if errors is not None:
        out.append(row("verification errors", errors))
    return out
