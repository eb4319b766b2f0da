"""An OTF2 archive of a run file (the `otf2` subcommand, view_commands/otf2.py; issue 29, item 2),
for Vampir and every OTF2 reader (otf2-print, Score-P's tools), written through the OTF2 library's
own Python binding (Debian's python3-otf2).

What goes where (docs/traces.md has the table):
- system tree: the machine, one node per /topology hostname, one location group (an MPI process)
  per rank of the window under its node, one location (its thread) per rank;
- regions: "iteration" (role LOOP) around each iteration, inside it one region per phase of the
  timeline (phase_tracks: non-overlapping, nested in their iteration); phases of the MPI classes
  (communication, wait, sync: phase_classes.mpi_phases) are MPI regions (paradigm MPI, role
  POINT2POINT, sync ones BARRIER), the others user code (paradigm USER, role FUNCTION);
- /messages as Score-P records them: a send as MpiIsend (at its post, with its receiver,
  communicator, tag and bytes) and MpiIsendComplete (at its completion), a receive as
  MpiIrecvRequest (at its post) and MpiIrecv (at its completion, with its sender), the request
  id the message's row; one MPI communicator per desync communicator (N_DUP duplicates), each
  over the window's ranks; only matched messages (messages.matched_rows) between ranks of the
  window whose send and receive were both posted inside it, so every send has its receive;
- the clock: nanoseconds (timer resolution 1e9) from the window's earliest event; the offset to
  desync's common time base (0 at rank 0's first measured iteration) is the property
  desync::time_origin_s of the machine node;
- the run's description (workload, verification, desync version, command line) and its /metrics
  as properties (desync::NAME) of the machine node: OTF2's place for facts about the whole run.

The archive is written to a new folder beside the target and renamed into place at the end, so a
failed export leaves nothing behind; an existing target is replaced only with force.
"""

import os
import shutil
import tempfile

import numpy as np

from .errors import DesyncError
from .h5file import open_output, read_per_rank, root_attributes
from .messages import matched_rows, read_padded
from .phase_classes import mpi_phases, phase_class, phase_table
from .phases import phase_intervals, phase_tracks
from .timeline import read_timeline
from .window import select_window

TIMER_RESOLUTION = 1_000_000_000  # ticks per second: nanoseconds
RUN_KEYS = ("workload", "verification", "desync_version", "git_revision", "execution_space",
            "mpi_library_version", "start_time", "command_line")


def _otf2():
    try:
        import otf2  # Debian's python3-otf2 (ci/install-deps.sh installs it)
    except ImportError as exc:
        raise DesyncError("desync-view otf2 needs the OTF2 library's Python binding (Debian: apt install "
                          "python3-otf2): %s" % exc) from None
    return otf2


def export_otf2(path, output, ranks=slice(None), iterations=slice(None), include_warmup=False, stride=1,
                force=False):
    """Write the OTF2 archive of the window of run file `path` into the folder `output` (its
    anchor file output/traces.otf2). Returns {"ranks", "iterations", "regions", "enter_leave",
    "messages" (sends written; None without /messages), "time_origin_s"}."""
    otf2 = _otf2()
    if stride < 1:
        raise DesyncError("--stride must be at least 1")
    output = os.path.abspath(output)
    if os.path.exists(output) and not force:
        raise DesyncError("%s exists; give another -o or --force to replace it" % output)
    if os.path.exists(output) and not os.path.isfile(os.path.join(output, "traces.otf2")) \
            and not (os.path.isdir(output) and not os.listdir(output)):
        # --force replaces an earlier archive, never another folder or file (-o . would be the
        # working folder).
        raise DesyncError("%s exists and is not an OTF2 archive (no traces.otf2 in it); --force replaces only an archive "
                          "or an empty folder: give another -o" % output)
    with open_output(path) as f:
        window = select_window(f, ranks, iterations, include_warmup, stride)
        tl = read_timeline(f, window)
        attrs = root_attributes(f)
        table = phase_table(f)
        nodes = read_per_rank(f, "topology/node_index")
        rows = read_padded(f, "messages", ("peer", "bytes", "communicator", "tag", "send", "post", "done")) \
            if "messages" in f else None
        metrics = {k: f["metrics"][k][()] for k in f["metrics"]} if "metrics" in f else {}
    order, tracks, _ = phase_tracks(tl)
    first, last = phase_intervals(tl, iteration=True)["iteration"]
    with np.errstate(invalid="ignore"):
        t0 = np.nanmin(np.where(np.isfinite(first), first, np.nan)) if np.isfinite(first).any() else 0.0
    origin_ns = int(np.round(t0 * 1e9))
    parent = os.path.dirname(output) or "."
    os.makedirs(parent, exist_ok=True)
    stage = tempfile.mkdtemp(prefix=".otf2-", dir=parent)
    try:
        counts = _write(otf2, os.path.join(stage, "archive"), tl, order, tracks, first, last, origin_ns, attrs,
                        table, nodes, rows, metrics)
        if os.path.exists(output):
            shutil.rmtree(output)
        os.rename(os.path.join(stage, "archive"), output)
    finally:
        shutil.rmtree(stage, ignore_errors=True)
    counts.update({"ranks": len(tl.ranks), "iterations": len(tl.iterations), "time_origin_s": origin_ns / 1e9})
    return counts


def _ns(t, origin_ns):
    return np.round(np.asarray(t, float) * 1e9).astype(np.int64) - origin_ns


def _write(otf2, folder, tl, order, tracks, first, last, origin_ns, attrs, table, nodes, rows, metrics):
    ranks = [int(r) for r in tl.ranks]
    index = {r: i for i, r in enumerate(ranks)}  # rank -> its rank in the exported communicators
    mpi = set(mpi_phases(order, table))
    counts = {"regions": 0, "enter_leave": 0, "messages": None if rows is None else 0}
    with otf2.writer.open(folder, timer_resolution=TIMER_RESOLUTION) as trace:
        d = trace.definitions
        machine = d.system_tree_node("machine", class_name="machine")
        d.system_tree_node_property(machine, "desync::time_origin_s", value="%.9f" % (origin_ns / 1e9))
        for k in RUN_KEYS:
            if k in attrs:
                d.system_tree_node_property(machine, "desync::" + k, value=_text(attrs[k]))
        for name, value in metrics.items():
            d.system_tree_node_property(machine, "desync::metrics::" + name, value=_text(value))
        hosts = {}
        groups, locations = [], []
        for r in ranks:
            host = tl.hostnames[r] if r < len(tl.hostnames) else "node %d" % (nodes[r] if nodes is not None else 0)
            if host not in hosts:
                hosts[host] = d.system_tree_node(host, class_name="node", parent=machine)
            g = d.location_group("MPI Rank %d" % r, location_group_type=otf2.LocationGroupType.PROCESS,
                                 system_tree_parent=hosts[host])
            groups.append(g)
            locations.append(d.location("Master thread", type=otf2.LocationType.CPU_THREAD, group=g))
        world_locations = d.group("", group_type=otf2.GroupType.COMM_LOCATIONS, paradigm=otf2.Paradigm.MPI,
                                  members=locations)
        world_group = d.group("", group_type=otf2.GroupType.COMM_GROUP, paradigm=otf2.Paradigm.MPI,
                              members=locations)
        world = d.comm("MPI_COMM_WORLD", group=world_group)
        del world_locations  # defined for the readers (Score-P's layout), not referenced
        comms = {0: world}

        def comm(k):
            if k not in comms:  # desync's N_DUP duplicates of the world communicator
                comms[k] = d.comm("MPI_COMM_WORLD duplicate %d" % k, group=world_group, parent=world)
            return comms[k]

        iteration = d.region("iteration", region_role=otf2.RegionRole.LOOP, paradigm=otf2.Paradigm.USER,
                             description="one iteration of desync's loop")
        regions = []
        for p in order:
            if p in mpi:
                sync = phase_class(p, table) == "sync"
                regions.append(d.region(p, paradigm=otf2.Paradigm.MPI, description="desync phase %s (MPI)" % p,
                                        region_role=otf2.RegionRole.BARRIER if sync else otf2.RegionRole.POINT2POINT))
            else:
                regions.append(d.region(p, paradigm=otf2.Paradigm.USER, region_role=otf2.RegionRole.FUNCTION,
                                        description="desync phase %s" % p))
        counts["regions"] = len(regions) + 1

        first_ns, last_ns = _ns(first, origin_ns), _ns(last, origin_ns)
        messages = _message_events(rows, index, origin_ns, comm, counts) if rows is not None else {}
        for i, r in enumerate(ranks):
            events = _rank_events(i, tracks[i], first_ns[i], last_ns[i], first[i], last[i], origin_ns)
            events += messages.get(r, [])
            # time order; at one instant: leave inner, leave iteration, messages, enter iteration, enter inner
            events.sort(key=lambda e: (e[0], e[1]))
            w = trace.event_writer_from_location(locations[i])
            for t, _, kind, arg in events:
                if kind == "enter_it":
                    w.enter(t, iteration)
                elif kind == "leave_it":
                    w.leave(t, iteration)
                elif kind == "enter":
                    w.enter(t, regions[arg])
                    counts["enter_leave"] += 1
                elif kind == "leave":
                    w.leave(t, regions[arg])
                else:
                    getattr(w, kind)(t, *arg)
    return counts


def _rank_events(i, track, first_ns, last_ns, first, last, origin_ns):
    """(time, order, kind, argument) of one rank: its iterations and their phases, nested."""
    code, b, e, it = track
    b, e = b - origin_ns, e - origin_ns
    events = []
    ok = np.isfinite(first) & np.isfinite(last)
    # an iteration ends where the next begins, but never before its own last phase ends
    end = last_ns.copy()
    for k in range(len(end)):
        sel = it == k
        if sel.any():
            end[k] = max(end[k], int(e[sel].max()))
    nxt = np.append(first_ns[1:], np.iinfo(np.int64).max)
    end = np.minimum(end, np.where(np.isfinite(np.append(first[1:], np.nan)), nxt, np.iinfo(np.int64).max))
    for k in np.flatnonzero(ok).tolist():
        events.append((int(first_ns[k]), 3, "enter_it", None))
        events.append((int(end[k]), 1, "leave_it", None))
    for c, x, y, k in zip(code.tolist(), b.tolist(), e.tolist(), it.tolist()):
        if not ok[k]:
            continue
        events.append((x, 4, "enter", c))
        events.append((y, 0, "leave", c))
    return events


def _message_events(rows, index, origin_ns, comm, counts):
    """Score-P's records of the matched messages of /messages (messages.matched_rows) between
    ranks of the window whose send and receive were both posted inside it: {rank: events}."""
    count, cols = rows
    out = {r: [] for r in index}
    ns = lambda t: int(np.round(t * 1e9)) - origin_ns  # noqa: E731
    for s, d, tag, k, i, j in matched_rows(count, cols):
        times = (cols["post"][s, i], cols["done"][s, i], cols["post"][d, j], cols["done"][d, j])
        if s not in index or d not in index or not np.all(np.isfinite(times)):
            continue
        s_post, s_done, r_post, r_done = (ns(t) for t in times)
        if min(s_post, r_post) < 0:
            continue  # posted before the window's first event
        c, size = comm(int(k)), int(cols["bytes"][s, i])
        out[s].append((s_post, 2, "mpi_isend", (index[d], c, int(tag), size, i)))
        out[s].append((max(s_done, s_post), 2, "mpi_isend_complete", (i,)))
        out[d].append((r_post, 2, "mpi_irecv_request", (j,)))
        out[d].append((max(r_done, r_post), 2, "mpi_irecv", (index[s], c, int(tag), size, j)))
        counts["messages"] += 1
    return out


def _text(value):
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    if isinstance(value, np.ndarray):
        return " ".join(_text(v) for v in value.ravel().tolist()) if value.size != 1 else _text(value.item())
    if isinstance(value, (float, np.floating)):
        return "%.9g" % value
    return str(value)
