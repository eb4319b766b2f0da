"""A run as one machine-readable record (`desync-view summary FILE --json OUT.json --csv OUT.csv`):
what the text summary (summary.py) prints, as numbers, for scripts, spreadsheets and notebooks.

summary_record(f, path) -> dict (docs/output.md, "One record per run"):
    file, state ("complete" or "incomplete: <why>"), run (every root attribute),
    topology (per rank: host, threads, contention domain, clock offsets at start and end with
    their errors, clock drift; the nodes; the placement warnings), matrix (total rows and
    nonzeros, matrix workloads),
    phases (per phase over the ranks' medians: min, median, max with their ranks, mean, std and
    imbalance = max / mean - 1, the share of the slowest rank's time above the average; the last
    three where the file has /summary/phase_stats of the same phases),
    metrics (every scalar of /metrics: value and units).
per_rank_table(f) -> (columns, rows): one row per rank (rank, host, threads, each phase's median,
    bandwidth, bytes received per iteration, matrix rows and nonzeros where the file has them);
    empty cells where a rank has no finite value.
"""

import numpy as np

from .errors import DesyncError
from .h5file import incomplete_reason, lines, read, read_attr, read_attr_text, read_per_rank, root_attributes
from .summary import phase_table


def summary_record(f, path):
    """The run of an open file as a dict of plain values (strict JSON through json_out.dump_json)."""
    attrs = root_attributes(f)
    reason = incomplete_reason(attrs)
    return {
        "file": path,
        "state": "incomplete: " + reason if reason else "complete",
        "run": attrs,
        "topology": topology_record(f),
        "matrix": matrix_record(f),
        "phases": phases_record(f),
        "metrics": metrics_record(f),
    }


def topology_record(f):
    per_rank = {}
    for key, kind in (("hostname", "text"), ("threads", "number"), ("contention_domain", "number"), ("cpu_frequency", "text"),
                      ("clock_offset", "number"), ("clock_offset_error", "number"), ("clock_offset_end", "number"),
                      ("clock_offset_end_error", "number"), ("clock_drift", "number")):
        values = read_per_rank(f, "topology/" + key, kind)
        if values is not None:
            per_rank[key] = np.asarray(values).tolist() if kind == "number" else list(values)
    hosts = per_rank.get("hostname", [])
    return dict(per_rank, nodes=len(set(hosts)) if hosts else None,
                warnings=lines(read_attr_text(f, "topology", "warnings", "")))


def matrix_record(f):
    out = {}
    for key in ("rows", "nnz"):
        data = read(f, "matrix/" + key, kind="number")
        if data is not None:
            out[key] = int(np.asarray(data, dtype=np.int64).sum())
    return out or None


def phase_medians(f, names):
    """[P, F] each rank's median of each phase over the measured iterations (/summary/phase_stats),
    or None when the file has none; one of other phases or shape is a DesyncError."""
    stats = read_per_rank(f, "summary/phase_stats", ndim=3)
    if stats is None:
        return None
    stat_names = read_attr(f, "summary/phase_stats", "phase_names")
    if stats.shape[1:] != (len(names), 3) or (stat_names is not None and list(stat_names) != list(names)):
        raise DesyncError("/summary/phase_stats: shape %s, phases %s; expected [P, %d, 3] of the phases %s "
                          "(/metrics/phase_over_ranks)" % (stats.shape, repr(stat_names)[:80], len(names), repr(names)[:80]))
    return np.asarray(stats, dtype=float)[:, :, 1]


def phases_record(f):
    table = phase_table(f)
    if table is None:
        return {}
    names, rows, argmin, argmax = table
    medians = phase_medians(f, names)
    out = {}
    for i, name in enumerate(names):
        lo, med, hi = (float(x) for x in rows[i][:3])
        entry = {"min": lo, "median": med, "max": hi,
                 "min_rank": rank_or_none(argmin, i), "max_rank": rank_or_none(argmax, i)}
        if medians is not None:
            v = medians[:, i]
            v = v[np.isfinite(v)]
            mean = float(v.mean()) if v.size else float("nan")
            entry.update(mean=mean, std=float(v.std()) if v.size else float("nan"),
                         imbalance=hi / mean - 1.0 if mean > 0 else float("nan"))
        out[name] = entry
    return out


def rank_or_none(ranks, i):
    if ranks is None or i >= len(ranks) or ranks[i] < 0:
        return None
    return int(ranks[i])


def metrics_record(f):
    out = {}
    if "metrics" not in f:
        return out
    for name, ds in f["metrics"].items():
        if not hasattr(ds, "shape") or ds.shape != ():
            continue
        value = read(f, "metrics/" + name)
        out[name] = {"value": value if isinstance(value, str) else float(value),
                     "units": read_attr(f, "metrics/" + name, "units", "")}
    return out


def per_rank_table(f):
    """(columns, rows): one row per rank of what the file has per rank."""
    columns, data = ["rank"], []
    hosts = read_per_rank(f, "topology/hostname", "text")
    if hosts is not None:
        columns.append("host")
        data.append(list(hosts))
    threads = read_per_rank(f, "topology/threads")
    if threads is not None:
        columns.append("threads")
        data.append(np.asarray(threads).tolist())
    table = phase_table(f)
    medians = phase_medians(f, table[0]) if table else None
    if medians is not None:
        for i, name in enumerate(table[0]):
            columns.append(name + "_median_s")
            data.append(medians[:, i].tolist())
    bandwidth = read(f, "summary/bandwidth", kind="number", ndim=1)
    if bandwidth is not None:
        columns.append("bandwidth_B_per_s")
        data.append(np.asarray(bandwidth, dtype=float).tolist())
    recv_bytes = read_per_rank(f, "comm/recv_bytes", ndim=2)
    if recv_bytes is not None:
        columns.append("received_bytes_per_iteration")
        data.append(np.asarray(recv_bytes, dtype=float).reshape(len(recv_bytes), -1).sum(axis=1).tolist())
    for key in ("rows", "nnz"):
        values = read(f, "matrix/" + key, kind="number")
        if values is not None and np.ndim(values) == 1:
            columns.append("matrix_" + key)
            data.append(np.asarray(values, dtype=np.int64).tolist())
    ranks = max([len(d) for d in data] + [0])
    rows = [[r] + [cell(d[r]) if r < len(d) else "" for d in data] for r in range(ranks)]
    return columns, rows


def cell(value):
    """A CSV cell: a number, a text, or empty where there is no finite number (a phase the rank
    never ran), as desync-campaign collect writes its tables."""
    if isinstance(value, float) and not np.isfinite(value):
        return ""
    return value
