"""Other programs' traces read into one shape (`desync-view import`, trace_import.py; issue 29,
item 1): per rank its regions (begin, end, name) and the trace's point-to-point messages, on the
trace's clock in seconds.

- OTF2 archives (Score-P, Scalasca, any OTF2 writer) through the OTF2 library's Python binding
  (Debian's python3-otf2): a rank is an MPI process (a location group of type process; its first
  location, the master thread, is read); regions from Enter/Leave; messages from MpiIsend /
  MpiIsendComplete, MpiIrecvRequest / MpiIrecv and the blocking MpiSend / MpiRecv, peers mapped
  from communicator ranks to world ranks through the communicator's group; the clock's timer
  resolution and global offset from the definitions.
- Chrome Trace Event JSON (DisCostiC, kokkos-tools, Caliper, Perfetto): complete events (ph "X",
  ts and dur in microseconds) and B/E pairs, one pid per rank (the pids in increasing order are
  ranks 0..P-1); an event's args may name its message: "peer" (or "dest"/"dst"/"to" for a send,
  "src"/"source"/"from" for a receive) and "bytes" (or "size").

Both raise DesyncError with one line for what they cannot read (a truncated or missing archive,
no MPI locations, no events)."""

import array
import gzip
import json
import os

import numpy as np

from .errors import DesyncError

LOCATION_BATCH = 64  # OTF2 event files read at once (read_otf2)
SEND_NAMES = ("MPI_Isend", "MPI_Send", "MPI_Ssend", "MPI_Bsend", "MPI_Rsend", "MPI_Issend", "SEND")


class Messages:
    """Message events in columns (typed arrays: 40 bytes per event, not a Python object each):
    rank, peer, bytes, communicator, tag, send (1/0), post and done (s)."""

    TYPES = (("rank", "i"), ("peer", "i"), ("bytes", "q"), ("communicator", "i"), ("tag", "i"), ("send", "b"),
             ("post", "d"), ("done", "d"))

    def __init__(self):
        self.cols = {k: array.array(t) for k, t in self.TYPES}

    def append(self, rank, peer, nbytes, comm, tag, send, post, done):
        """Adds one event; returns its row."""
        for (k, _), v in zip(self.TYPES, (rank, peer, nbytes, comm, tag, 1 if send else 0, post, done)):
            self.cols[k].append(v)
        return len(self.cols["rank"]) - 1

    def set_done(self, row, t):
        self.cols["done"][row] = t

    def __len__(self):
        return len(self.cols["rank"])

    def arrays(self):
        return {k: np.frombuffer(v, dtype=v.typecode) if len(v) else np.zeros(0, v.typecode) for k, v in self.cols.items()}


class Trace:
    """ranks: P; regions[r] = (begin [n] s, end [n] s, name index [n]) sorted by begin; names:
    region names; mpi[name index]: an MPI routine (paradigm MPI, or a name of the form MPI_*);
    messages: Messages; resolution: the clock's tick in s; hostnames[r] (hosts_known: from the
    trace, e.g. OTF2's system tree; else a placeholder per rank); source: what was read."""

    def __init__(self, ranks, source):
        self.ranks = ranks
        self.source = source
        self.regions = [None] * ranks
        self.names, self.mpi = [], []
        self.messages = Messages()
        self.resolution = 1e-9
        self.hostnames = ["rank%d" % r for r in range(ranks)]
        self.hosts_known = False

    def name_index(self, name, mpi=None):
        if not hasattr(self, "_index"):
            self._index = {n: k for k, n in enumerate(self.names)}
        k = self._index.get(name)
        if k is None:
            k = self._index[name] = len(self.names)
            self.names.append(name)
            self.mpi.append(bool(mpi) if mpi is not None else name.startswith("MPI_"))
        return k

    def set_regions(self, r, begin, end, names):
        """Rank r's regions sorted by begin: 20 bytes each (two float64 times, an int32 name)."""
        b = np.asarray(begin, float)
        order = np.argsort(b, kind="stable")
        self.regions[r] = (b[order], np.asarray(end, float)[order], np.asarray(names, np.int32)[order])


def read_trace(path):
    """An OTF2 archive (its anchor file, *.otf2, or its folder) or a Chrome JSON file (*.json, or
    gzip-compressed *.json.gz), by what the path is."""
    if not os.path.exists(path):
        raise DesyncError("%s: no such file" % path)
    if path.endswith(".otf2") or os.path.isdir(path):
        anchor = os.path.join(path, "traces.otf2") if os.path.isdir(path) else path
        return read_otf2(anchor)
    return read_chrome(path)


# --- Chrome Trace Event JSON -----------------------------------------------------------------

def read_chrome(path):
    """Streams the events (Debian's python3-ijson: a file of 10^7 events is never whole in
    memory; without ijson the standard library's json reads it whole)."""
    spans = {}  # pid -> columns begin us, end us, name index, and the messages' rows
    open_b = {}
    tr = Trace(0, "Chrome trace %s" % os.path.basename(path))
    tr.resolution = 1e-6
    msgs = []  # (pid, begin us, end us, name, args) of events that name a partner

    def span(pid, b, e, name, args):
        cols = spans.get(pid)
        if cols is None:
            cols = spans[pid] = (array.array("d"), array.array("d"), array.array("q"))
        cols[0].append(b)
        cols[1].append(e)
        cols[2].append(tr.name_index(name, name.startswith("MPI_") or name.upper() in ("SEND", "RECV")))
        if args:
            msgs.append((pid, b, e, name, args))

    try:
        for e in _chrome_events(path):
            if not isinstance(e, dict) or "pid" not in e:
                continue
            ph, pid = e.get("ph"), e["pid"]
            if ph == "X" and "ts" in e and "dur" in e:
                span(pid, float(e["ts"]), float(e["ts"]) + float(e["dur"]), str(e.get("name", "")), e.get("args"))
            elif ph == "B" and "ts" in e:
                open_b.setdefault((pid, e.get("tid")), []).append(e)
            elif ph == "E" and "ts" in e and open_b.get((pid, e.get("tid"))):
                b = open_b[(pid, e.get("tid"))].pop()
                span(pid, float(b["ts"]), float(e["ts"]), str(b.get("name", "")), b.get("args"))
    except DesyncError:
        raise
    except Exception as exc:  # json and ijson raise their own errors for a damaged file
        raise DesyncError("%s: not a readable Chrome trace (JSON): %s" % (path, str(exc).splitlines()[0] if str(exc)
                                                                          else type(exc).__name__)) from None
    if not spans:
        raise DesyncError("%s: no complete (X) or begin/end (B/E) events with a pid: nothing to import" % path)
    pids = sorted(spans)
    rank = {pid: r for r, pid in enumerate(pids)}
    tr.ranks = len(pids)
    tr.regions = [None] * tr.ranks
    tr.hostnames = ["rank%d" % r for r in range(tr.ranks)]
    for pid in pids:
        b, e, k = spans.pop(pid)
        tr.set_regions(rank[pid], np.frombuffer(b, float) * 1e-6, np.frombuffer(e, float) * 1e-6, np.frombuffer(k, np.int64))
    for pid, b, e, n, a in msgs:
        peer, send = _chrome_peer(n, a)
        if peer is None:
            continue
        tr.messages.append(rank[pid], rank.get(peer, int(peer)), int(a.get("bytes", a.get("size", 0)) or 0), 0,
                           int(a.get("tag", 0) or 0), send, b * 1e-6, e * 1e-6)
    return tr


def _chrome_events(path):
    """The events of a Chrome trace: the traceEvents list of an object, or a top-level list."""
    try:
        import ijson  # Debian's python3-ijson (ci/install-deps.sh)
    except ImportError:
        ijson = None
    opener = gzip.open if path.endswith(".gz") else open  # desync-view trace writes .json.gz too
    if ijson is None:
        with opener(path, "rt") as fh:
            doc = json.load(fh)
        events = doc.get("traceEvents") if isinstance(doc, dict) else doc
        if not isinstance(events, list):
            raise DesyncError("%s: a Chrome trace needs a traceEvents list (or a top-level list of events)" % path)
        yield from events
        return
    with opener(path, "rb") as fh:
        first = fh.read(1)
        while first and first.isspace():
            first = fh.read(1)
        fh.seek(0)
        if first == b"[":
            prefix = "item"
        elif first == b"{":
            prefix = "traceEvents.item"
        else:
            raise DesyncError("%s: not a readable Chrome trace (JSON): neither an object nor a list" % path)
        yield from ijson.items(fh, prefix, use_float=True)


def _chrome_peer(name, args):
    """(peer pid, send?) of an event whose args name its partner, else (None, None)."""
    send = name in SEND_NAMES or name.upper() == "SEND"
    keys = ("peer", "dest", "dst", "to") if send else ("peer", "src", "source", "from")
    for k in keys:
        if k in args:
            try:
                return int(args[k]), send
            except (TypeError, ValueError):
                return None, None
    return None, None


# --- OTF2 --------------------------------------------------------------------------------------

def read_otf2(anchor):
    try:
        import otf2  # Debian's python3-otf2
    except ImportError as exc:
        raise DesyncError("importing an OTF2 archive needs the OTF2 library's Python binding (Debian: apt install "
                          "python3-otf2): %s" % exc) from None
    try:
        with _quiet_stderr():  # the C library prints its own lines; ours is the one that counts
            reader = otf2.reader.open(anchor)
    except Exception as exc:  # the binding raises its own error types for a missing or broken archive
        raise DesyncError("%s: not a readable OTF2 archive: %s" % (anchor, str(exc).splitlines()[0] if str(exc) else
                                                                       type(exc).__name__)) from None
    with _quiet_stderr(), reader as trace:
        defs = trace.definitions
        groups = [g for g in defs.location_groups if g.location_group_type == otf2.LocationGroupType.PROCESS]
        if not groups:
            raise DesyncError("%s: no MPI locations (no location group of type process): nothing to import" % anchor)
        rank_of_group = {g: r for r, g in enumerate(groups)}
        first = {}
        for loc in defs.locations:
            if loc.group in rank_of_group and loc.group not in first:
                first[loc.group] = loc
        rank_of_loc = {first[g]: rank_of_group[g] for g in first}
        tr = Trace(len(groups), "OTF2 archive %s" % anchor)
        clock = defs.clock_properties
        tick = 1.0 / float(clock.timer_resolution) if clock and clock.timer_resolution else 1e-9
        offset = int(clock.global_offset) if clock else 0
        tr.resolution = tick
        tr.hostnames = [_host_of(g) for g in groups]
        tr.hosts_known = True
        world = _comm_members(defs, rank_of_group, groups)
        begin = [array.array("d") for _ in groups]
        end = [array.array("d") for _ in groups]
        name = [array.array("q") for _ in groups]
        stack = [[] for _ in groups]
        isend, irecv = [{} for _ in groups], [{} for _ in groups]
        # By reference: a location's rank (-1: not read), a region's name index in tr.names.
        loc_rank = {loc._ref: r for loc, r in rank_of_loc.items()}
        region_name = {reg._ref: tr.name_index(reg.name, _is_mpi(otf2, reg)) for reg in defs.regions}
        comm_of = {c._ref: c for c in defs.comms}
        seen = [0]

        # The binding's low-level callbacks (no event objects: about 3 times faster than
        # iterating trace.events); each gets (location, time, user data, attributes, *record).
        def enter(loc, time, _u, _a, region):
            r = loc_rank.get(loc)
            if r is not None:
                seen[0] += 1
                stack[r].append(((time - offset) * tick, region))

        def leave(loc, time, _u, _a, region):
            r = loc_rank.get(loc)
            if r is not None and stack[r]:
                t0, reg = stack[r].pop()
                begin[r].append(t0)
                end[r].append((time - offset) * tick)
                name[r].append(region_name[reg])

        def send(loc, time, _u, _a, receiver, comm, tag, length, request=None):
            r = loc_rank.get(loc)
            if r is None:
                return
            t = (time - offset) * tick
            row = tr.messages.append(r, world(comm_of.get(comm), receiver), int(length), 0, int(tag), True, t, t)
            if request is not None:
                isend[r][request] = row

        def send_complete(loc, time, _u, _a, request):
            r = loc_rank.get(loc)
            row = isend[r].pop(request, None) if r is not None else None
            if row is not None:
                tr.messages.set_done(row, (time - offset) * tick)

        def recv_request(loc, time, _u, _a, request):
            r = loc_rank.get(loc)
            if r is not None:
                irecv[r][request] = (time - offset) * tick

        def recv(loc, time, _u, _a, sender, comm, tag, length, request=None):
            r = loc_rank.get(loc)
            if r is None:
                return
            t = (time - offset) * tick
            post = irecv[r].pop(request, t) if request is not None else t
            tr.messages.append(r, world(comm_of.get(comm), sender), int(length), 0, int(tag), False, post, t)

        import _otf2

        def read_events(reader, locations):
            handle = reader._get_global_evt_reader_handle(locations)
            cbs = _otf2.GlobalEvtReaderCallbacks_New()
            for setter, fn in ((_otf2.GlobalEvtReaderCallbacks_SetEnterCallback, enter),
                               (_otf2.GlobalEvtReaderCallbacks_SetLeaveCallback, leave),
                               (_otf2.GlobalEvtReaderCallbacks_SetMpiSendCallback, send),
                               (_otf2.GlobalEvtReaderCallbacks_SetMpiIsendCallback, send),
                               (_otf2.GlobalEvtReaderCallbacks_SetMpiIsendCompleteCallback, send_complete),
                               (_otf2.GlobalEvtReaderCallbacks_SetMpiIrecvRequestCallback, recv_request),
                               (_otf2.GlobalEvtReaderCallbacks_SetMpiRecvCallback, recv),
                               (_otf2.GlobalEvtReaderCallbacks_SetMpiIrecvCallback, recv)):
                setter(cbs, fn)
            _otf2.GlobalEvtReader_SetCallbacks(handle, cbs, None)
            _otf2.GlobalEvtReaderCallbacks_Delete(cbs)
            while _otf2.GlobalEvtReader_ReadEvents(handle, 1 << 20) == 1 << 20:
                pass

        # The ranks' master threads only, LOCATION_BATCH at a time, each batch through a reader of
        # its own: the library buffers a chunk of every open event file (1000 ranks at once held
        # a GiB of buffers), and a reader selects its locations once.
        # A batch's ranks are complete when it is read: their regions are sorted into the trace
        # then and the growing columns dropped, so that no more than a batch exists twice.
        refs = sorted(loc_rank)
        try:
            for k in range(0, len(refs), LOCATION_BATCH):
                batch = refs[k:k + LOCATION_BATCH]
                if k == 0:
                    read_events(trace, [defs.locations[x] for x in batch])
                else:
                    with otf2.reader.open(anchor) as again:
                        read_events(again, [again.definitions.locations[x] for x in batch])
                for r in (loc_rank[x] for x in batch):
                    tr.set_regions(r, begin[r], end[r], name[r])
                    begin[r] = end[r] = name[r] = None
        except Exception as exc:
            raise DesyncError("%s: the archive's events end early or are damaged (after %d events): %s"
                              % (anchor, seen[0], str(exc).splitlines()[0] if str(exc) else type(exc).__name__)) from None
        if seen[0] == 0:
            raise DesyncError("%s: the MPI locations have no events: nothing to import" % anchor)
        for r in range(tr.ranks):
            if tr.regions[r] is None:  # a rank whose location was not read
                tr.set_regions(r, [], [], [])
    return tr


class _quiet_stderr:
    """File descriptor 2 to /dev/null while the OTF2 C library runs (it reports errors on stderr
    by itself, beside the exception the binding raises)."""

    def __enter__(self):
        import sys
        sys.stderr.flush()
        self.saved = os.dup(2)
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 2)
        os.close(null)
        return self

    def __exit__(self, *exc):
        os.dup2(self.saved, 2)
        os.close(self.saved)
        return False


def _is_mpi(otf2, region):
    try:
        if region.paradigm == otf2.Paradigm.MPI:
            return True
    except AttributeError:
        pass
    return region.name.startswith("MPI_")


def _host_of(group):
    node = getattr(group, "system_tree_parent", None)
    return str(node.name) if node is not None and getattr(node, "name", None) else str(group.name)


def _comm_members(defs, rank_of_group, groups):
    """f(communicator, rank in it) -> world rank (the location group's index among the MPI
    processes); the rank itself where the communicator's group is not resolvable."""
    cache = {}

    def world(comm, rank):
        if comm is None:
            return int(rank)
        if comm not in cache:
            members = None
            try:
                g = comm.group
                members = list(g.members)
            except AttributeError:
                members = None
            cache[comm] = members
        members = cache[comm]
        if members and 0 <= rank < len(members):
            m = members[rank]
            if m in rank_of_group:
                return rank_of_group[m]
            if isinstance(m, int) and 0 <= m < len(groups):
                return m
            loc_group = getattr(m, "group", None)
            if loc_group in rank_of_group:
                return rank_of_group[loc_group]
        return int(rank)

    return world
