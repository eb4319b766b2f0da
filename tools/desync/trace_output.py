"""An imported trace written in desync's layout (`desync-view import`; issue 29, item 1): the
timeline trace_import.build made, the phases' statistics, the hosts and the contention domains
(`--domains`, a trace does not name them), the cores (`--cores`), /import (from what and how) and
/messages (docs/output.md; docs/traces.md, "Import").

The file is written to a temporary name beside the target and renamed at the end: a failed import
leaves nothing behind; an existing target is replaced only with force."""

import os
import tempfile
import types
import warnings

import h5py
import numpy as np

from .errors import DesyncError
from .phases import phase_intervals
from .timeline import Timeline
from .trace_import import PHASE_OF


def phase_stats(ev, event_names):
    """Per rank the min, median and max over the iterations of each phase's duration and then the
    iteration's [P, F, 3], by the rule every tool reads a timeline with
    (phases.phase_intervals); one phase's durations at a time."""
    p, n, _ = ev.shape
    window = types.SimpleNamespace(ranks=np.arange(p), indices=np.arange(n), iterations=np.arange(n))
    tl = Timeline(ev, event_names, window, np.zeros(n, bool), None)
    out = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # a phase no iteration of a rank has: NaN
        for begin, end in phase_intervals(tl, iteration=True).values():
            d = end - begin
            out.append(np.stack([np.nanmin(d, 1), np.nanmedian(d, 1), np.nanmax(d, 1)], axis=1))
    return np.stack(out, axis=1)


def _fixed(strings, size=None):
    data = np.char.encode(np.array(strings, dtype=str), "utf-8")
    return data.astype("S%d" % (size or max(1, data.dtype.itemsize)))


def contention_domains(hosts, spec=None, hosts_known=True):
    """Each rank's contention domain (/topology/contention_domain) and how it was chosen. An OTF2
    trace names each rank's host (its system tree) but not the memory domains inside it; a Chrome
    trace names no host (hosts_known False: a placeholder host per rank). By default one domain per
    host; `spec` (--domains) an integer N: N consecutive ranks of a host per domain (a node of 2
    sockets x 36 ranks: 36; hosts unknown: N consecutive ranks), or a file of one domain number
    per rank (whitespace separated)."""
    p = len(hosts)
    first = {}
    node = np.array([first.setdefault(h, len(first)) for h in hosts], np.int64)
    if spec is None:
        return node.astype(np.int32), "one per host" if hosts_known else "one per rank (the trace names no hosts)"
    if not hosts_known:
        node = np.zeros(p, np.int64)
    spec = str(spec)
    if spec.isdigit():
        n = int(spec)
        if n < 1:
            raise DesyncError("--domains %s: ranks per domain must be at least 1" % spec)
        local = np.zeros(p, np.int64)
        seen = {}
        for r, h in enumerate(node):
            local[r] = seen.get(h, 0)
            seen[h] = local[r] + 1
        key = node * (p + 1) + local // n
        _, dense = np.unique(key, return_inverse=True)
        return dense.astype(np.int32), "%d consecutive ranks%s per domain (--domains %d)" % (
            n, " of a host" if hosts_known else "", n)
    if not os.path.isfile(spec):
        raise DesyncError("--domains %s: neither a count of ranks per domain nor a file" % spec)
    try:
        with open(spec) as fh:
            values = [int(x) for x in fh.read().split()]
    except ValueError as e:
        raise DesyncError("--domains %s: not a list of integers (%s)" % (spec, e)) from None
    if len(values) != p or min(values, default=0) < 0:
        raise DesyncError("--domains %s: %d values, want one domain number >= 0 per rank (%d ranks)"
                          % (spec, len(values), p))
    return np.array(values, np.int32), "from %s (--domains)" % os.path.abspath(spec)


def write_imported(trace, built, output, source_path, force=False, options="", domains=None, cores=None):
    """Write the desync file of a built trace (docs/output.md; marked imported); domains: what
    contention_domains returned (None: one domain per host); cores: --cores, the cores of each
    host (each rank's process_cpuset becomes them, as desync records an unbound rank). Shifts
    built["events"] to the time origin in place."""
    output = os.path.abspath(output)
    if os.path.exists(output) and not force:
        raise DesyncError("%s exists; give another -o or --force to replace it" % output)
    if os.path.isdir(output):
        raise DesyncError("%s is a folder; give the file to write with -o" % output)
    if not os.path.isdir(os.path.dirname(output)):  # said of -o, not of the temporary name beside it
        raise DesyncError("%s: folder %s does not exist" % (output, os.path.dirname(output)))
    # The time origin: rank 0's first iteration (kept in /import/time_origin); shifted in place,
    # as a copy would double the largest array of the import.
    ev = built["events"]
    slots = built["slots"]
    p, n, _ = ev.shape
    origin = float(ev[0, 0, 0])
    ev -= origin
    phases = [s for s, _ in slots] + ["iteration"]
    stats = phase_stats(ev, built["event_names"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        med = stats[:, :, 1]
        over = np.stack([np.nanmin(med, 0), np.nanmedian(med, 0), np.nanmax(med, 0)], axis=1)
    argmin = np.array([np.nanargmin(c) if np.isfinite(c).any() else -1 for c in med.T], np.int32)
    argmax = np.array([np.nanargmax(c) if np.isfinite(c).any() else -1 for c in med.T], np.int32)
    hosts = list(trace.hostnames)
    node_of = {}
    node_index = np.array([node_of.setdefault(h, i) for i, h in enumerate(hosts)], np.int32)
    domain, domain_rule = domains or contention_domains(hosts, None, trace.hosts_known)
    fd, tmp = tempfile.mkstemp(prefix=".import-", suffix=".h5", dir=os.path.dirname(output))
    os.close(fd)
    try:
        with h5py.File(tmp, "w") as f:
            f.attrs.update({
                "format": _fixed("desync-output"), "format_version": np.int32(1), "verification": _fixed("none: imported"),
                "workload": _fixed("imported"), "imported": np.int32(1), "complete": np.int32(1),
                "ranks": np.int32(p), "iterations": np.int32(n), "warmup_iterations": np.int32(0),
                "execution_space": _fixed("imported"), "command_line": _fixed("desync-view import " + options),
                "mpi_library_version": _fixed("unknown: imported from %s" % trace.source),
            })

            def ds(name, data, units):
                f.create_dataset(name, data=data).attrs["units"] = _fixed(units)

            ds("import/source", _fixed(os.path.abspath(source_path)), "text")
            ds("import/format", _fixed(trace.source.split(" ")[0] + (" " + trace.source.split(" ")[1]
                                                                      if trace.source.startswith("Chrome") else "")), "text")
            ds("import/options", _fixed(options), "text")
            ds("import/domains", _fixed(domain_rule), "text")
            ds("import/misaligned", np.int64(built["misaligned"]), "1")
            ds("import/merged_segments", np.int64(built["merged"]), "1")
            ds("import/iterations_per_rank", np.array(built["iterations"], np.int64), "1")
            ds("import/time_origin", np.float64(origin), "s")
            ds("import/time_resolution", np.float64(trace.resolution), "s")
            ds("topology/hostname", _fixed(hosts, 64), "text")
            ds("topology/node_index", node_index, "1")
            ds("topology/ranks_on_node", np.array([hosts.count(h) for h in hosts], np.int32), "1")
            ds("topology/contention_domain", domain, "1")
            if cores is not None:
                ds("topology/process_cpuset", _fixed(["0-%d" % (cores - 1) if cores > 1 else "0"] * p), "text")
            for name in ("clock_offset", "clock_offset_error", "clock_offset_at",
                         "clock_offset_end", "clock_offset_end_error", "clock_offset_end_at"):
                ds("topology/" + name, np.zeros(p), "s")
            ds("topology/clock_drift", np.zeros(p), "s/s")
            ds("timeline/events", ev, "s")
            f["timeline/events"].attrs["event_names"] = _fixed(built["event_names"], 32)
            ds("timeline/warmup", np.zeros(n, np.uint8), "1")
            ds("summary/phase_stats", stats, "s")
            f["summary/phase_stats"].attrs["phase_names"] = _fixed(phases, 32)
            f["summary/phase_stats"].attrs["stat_names"] = _fixed(["min", "median", "max"], 8)
            ds("summary/bytes_per_iteration", np.zeros(p), "B")
            ds("summary/bandwidth", np.zeros(p), "B/s")
            ds("metrics/total_time", np.float64(np.nanmax(ev) - np.nanmin(ev[:, 0, 0])), "s")
            ds("metrics/phase_over_ranks", over, "s")
            f["metrics/phase_over_ranks"].attrs["phase_names"] = _fixed(phases, 32)
            ds("metrics/phase_argmin_rank", argmin, "1")
            ds("metrics/phase_argmax_rank", argmax, "1")
            ds("metrics/verification_errors", np.int64(0), "1")
            rows = [PHASE_OF[c][1:] for _, c in slots]
            desc = [(s, c, col, lab) for (s, _), (c, col, lab) in zip(slots, rows)] + \
                [("iteration", "total", "#ffffff", "iteration")]
            for k, key in enumerate(("name", "class", "colour", "label")):
                ds("phases/" + key, _fixed([row[k] for row in desc]), "text")
            if len(trace.messages):
                _write_messages(f, trace, origin, p)
        # mkstemp's file is private (0600); the result is a file like any other the user writes.
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, output)
    except BaseException:
        if os.path.exists(tmp):
            os.remove(tmp)
        raise
    return output


def _write_messages(f, trace, origin, p):
    # One index (the rank's events in the order posted) and one column at a time: a trace's
    # 10^6-10^7 message events are never copied whole more than once.
    m = trace.messages.arrays()
    idx = np.flatnonzero((m["rank"] >= 0) & (m["rank"] < p))
    idx = idx[np.lexsort((m["post"][idx], m["rank"][idx]))]
    rank = m["rank"][idx]
    count = np.bincount(rank, minlength=p).astype(np.int64)
    width = max(1, int(count.max()) if len(count) else 1)
    start = np.concatenate([[0], np.cumsum(count)[:-1]])
    col = np.arange(len(rank)) - start[rank]
    spec = {"peer": (np.int32, -1, "1"), "bytes": (np.int64, -1, "B"), "communicator": (np.int32, -1, "1"),
            "tag": (np.int32, -1, "1"), "send": (np.uint8, 0, "1"), "post": (np.float64, np.nan, "s"),
            "done": (np.float64, np.nan, "s")}
    g = f.create_group("messages")
    for k, (dtype, fill, units) in spec.items():
        a = np.full((p, width), fill, dtype)
        v = m[k][idx]
        if k in ("post", "done"):
            v -= origin
        a[rank, col] = v
        del v
        g.create_dataset(k, data=a).attrs["units"] = _fixed(units)
        del a
    g.create_dataset("count", data=count).attrs["units"] = _fixed("1")
    g.create_dataset("dropped", data=np.zeros(p, np.int64)).attrs["units"] = _fixed("1")
    g.create_dataset("outside_window", data=np.zeros(p, np.int64)).attrs["units"] = _fixed("1")
