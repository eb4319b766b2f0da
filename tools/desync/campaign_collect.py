"""One table, one row per point, from a campaign's result files (`desync-campaign collect
CAMPAIGN.toml`, the subcommand in campaign_commands/collect.py).

Columns, in this order:
    run_id            the point's id
    <key> ...         the value of every campaign key (axes, then keys only [[points]] have);
                      empty where a point does not set it. The launch key ranks shares the
                      column ranks below; the key ranks_per_node is ranks_per_node_requested
                      (ranks_per_node is what the file recorded)
    status            complete, partial, stale, unreadable or missing (campaign_launch.result_state)
    verdict           the file's root attribute verification ("passed", "failed: ...", "not done: ...")
    workload          root attribute workload
    simulated         "yes" for a file of `desync simulate` (it has /simulation), "no" for a real run
    ranks             root attribute ranks (P); the point's rank count where there is no file
    nodes             distinct /topology/node_index values
    ranks_per_node    the most ranks on one node (/topology/ranks_on_node)
    threads_per_rank  /topology/threads: the count, or "min-max" where ranks differ
    hosts             the distinct /topology/hostname values, space-separated, in rank order
    iterations        root attribute iterations (measured iterations done)
    <metric> ...      every scalar dataset of /metrics any file has (union, in first-seen order);
                      empty where a file lacks it

Writes CSV (default OUTDIR/NAME.csv, --csv), optionally HDF5 (--h5: one dataset per column at the
root, numbers as float64 with NaN for empty cells, text as fixed-length strings; attribute units
on each metric, root attributes format = "desync-campaign-table", campaign) and JSON (--json:
columns, units, rows). Prints a short table.
"""

import csv
import sys

import h5py
import numpy as np

from .campaign import value_text
from .campaign_launch import deck_text, result_state
from .errors import DesyncError
from .h5file import attr_int, open_output, read_attr_text, read_per_rank, root_attributes, to_scalar

PLACEMENT = ("status", "verdict", "workload", "simulated", "ranks", "nodes", "ranks_per_node",
             "threads_per_rank", "hosts", "iterations")
KEY_COLUMNS = {"ranks_per_node": "ranks_per_node_requested"}


PREFERRED = ("gflops", "bandwidth", "total_time")


def default_metric(columns, rows):
    """The metric a campaign's table and plot show unless told: the first of PREFERRED with numbers."""
    for m in PREFERRED:
        if m in columns and any(isinstance(r.get(m), (int, float)) for r in rows):
            return m
    return None


def key_column(key):
    """The table column of a campaign key."""
    return KEY_COLUMNS.get(key, key)


def file_record(path):
    """(placement dict, metrics dict, units dict) of one desync output file."""
    with open_output(path) as f:
        attrs = root_attributes(f)
        hosts = read_per_rank(f, "topology/hostname", "text")
        hosts = [] if hosts is None else hosts
        node_index, on_node, threads = (read_per_rank(f, "topology/" + k)
                                        for k in ("node_index", "ranks_on_node", "threads"))
        rec = {
            "verdict": str(attrs.get("verification", "")),
            "workload": str(attrs.get("workload", "")),
            "simulated": "yes" if "simulation" in f else "no",
            "ranks": attr_int(attrs, "ranks"),
            "nodes": int(len(np.unique(node_index))) if node_index is not None and len(node_index) else None,
            "ranks_per_node": int(np.max(on_node)) if on_node is not None and len(on_node) else None,
            "hosts": " ".join(dict.fromkeys(str(h) for h in hosts)),
            "iterations": attr_int(attrs, "iterations"),
        }
        if threads is not None and len(threads):
            lo, hi = int(np.min(threads)), int(np.max(threads))
            rec["threads_per_rank"] = lo if lo == hi else "%d-%d" % (lo, hi)
        else:
            rec["threads_per_rank"] = None
        metrics, units = {}, {}
        if "metrics" in f and isinstance(f["metrics"], h5py.Group):
            for name, ds in f["metrics"].items():
                if not isinstance(ds, h5py.Dataset) or ds.size != 1 or ds.dtype.kind not in "iufb":
                    continue
                metrics[name] = to_scalar(ds[()])
                units[name] = read_attr_text(f, "metrics/" + name, "units", "")
    return rec, metrics, units


def collect(campaign, outdir):
    """(columns, rows, units): rows are dicts column -> Python value (None for empty)."""
    deck = deck_text(campaign)
    keys = campaign.keys()
    metric_names, units, rows = [], {}, []
    for p in campaign.points():
        path = campaign.output_path(outdir, p)
        state, detail, verdict = result_state(path, p, deck)
        row = {"run_id": p.id}
        for k in keys:
            row[key_column(k)] = p.values.get(k)
        row["ranks"] = p.ranks
        rec = metrics = None
        if state in ("complete", "partial", "stale"):
            try:
                rec, metrics, u = file_record(path)
            except DesyncError as exc:
                state, detail = "unreadable", str(exc)
        if state == "unreadable":  # a row all the same (the resume rule runs it again), and why
            sys.stderr.write("warning: point %s: %s\n" % (p.id, " ".join(detail.split())))
        elif state == "stale":  # its numbers are another run's than the point's: said, not only tabulated
            sys.stderr.write("warning: point %s: stale (%s); its row holds that run's numbers\n"
                             % (p.id, " ".join(detail.split())))
        row["status"] = state
        if rec is not None:
            row.update(rec)
            for name, value in metrics.items():
                if name not in metric_names:
                    metric_names.append(name)
                    units[name] = u.get(name, "")
                row[name] = value
        rows.append(row)
    key_cols = [key_column(k) for k in keys if k != "ranks"]
    columns = ["run_id"] + key_cols + list(PLACEMENT) + [m for m in metric_names
                                                         if m not in key_cols and m not in PLACEMENT]
    for row in rows:
        for c in columns:
            row.setdefault(c, None)
    return columns, rows, units


def cell(value):
    if value is None:
        return ""
    if isinstance(value, float):
        return repr(value)
    return value_text(value)


def write_csv(path, columns, rows):
    with open(path, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(columns)
        for row in rows:
            w.writerow([cell(row[c]) for c in columns])


def _numeric(values):
    return all(v is None or (isinstance(v, (int, float)) and not isinstance(v, bool)) for v in values) \
        and any(v is not None for v in values)


def write_h5(path, campaign, columns, rows, units):
    with h5py.File(path, "w") as f:
        f.attrs["format"] = np.bytes_("desync-campaign-table")
        f.attrs["campaign"] = np.bytes_(campaign.name)
        f.attrs["columns"] = np.array([c.encode() for c in columns])
        for c in columns:
            values = [row[c] for row in rows]
            if _numeric(values):
                ds = f.create_dataset(c, data=np.array([np.nan if v is None else float(v) for v in values]))
            else:
                text = [cell(v).encode("utf-8") for v in values]
                width = max([1] + [len(t) for t in text])
                ds = f.create_dataset(c, data=np.array(text, dtype="S%d" % width))
            ds.attrs["units"] = np.bytes_(units.get(c, "text" if not _numeric(values) else "1"))
