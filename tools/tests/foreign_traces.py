"""Traces desync did not write, of programs with a known answer (issue 29, item 3), written through
the formats' own libraries: OTF2 archives in the conventions Score-P uses for an MPI program (a
process location group and its master thread per rank under its node, MPI_COMM_WORLD, MPI
paradigm regions for the routines, a user region per iteration, Enter/Leave, MpiIsend /
MpiIsendComplete / MpiIrecvRequest / MpiIrecv) and Chrome Trace Event JSON in DisCostiC's form
(complete X events COMP, SEND, RECV; one pid per rank).

The program: P ranks in an open chain, each iteration: compute, then a message to rank r + 1
and one from rank r - 1 (OTF2: MPI_Isend, MPI_Irecv, MPI_Waitall; DisCostiC: SEND, RECV), eager:
a rank's wait ends when its left neighbour's message of the same iteration has arrived. A delay
on one rank (delay=(rank, iteration, seconds)) travels one rank per iteration to the right (the
idle wave's known answer); without one the run is in lock-step (no wave)."""

import json

import numpy as np

COMPUTE, POST, LATENCY, MIN_WAIT, BYTES = 1e-3, 5e-6, 5e-6, 10e-6, 8192


def chain(ranks=6, iterations=30, delay=None, compute=COMPUTE, stagger=2e-6, drift=0.002):
    """Per rank: a list of (iteration, begin, compute_end, post_end, wait_end) and the messages
    (sender, receiver, iteration, post, arrival). Rank r starts r x stagger after rank 0 and
    computes (1 + drift r) x compute: with drift 0 and a stagger above the message's latency, no
    rank ever waits for its neighbour and the stagger stays: a wavefront of slope 1 / stagger
    ranks per second (the known answer of the wavefront fit)."""
    clock = np.arange(ranks) * stagger
    post_end = np.zeros((ranks, iterations))
    rows = [[] for _ in range(ranks)]
    msgs = []
    for k in range(iterations):
        for r in range(ranks):
            t0 = clock[r]
            t = t0 + compute * (1 + drift * r)
            if delay is not None and (r, k) == tuple(delay[:2]):
                t += delay[2]
            ce = t
            t += POST
            post_end[r, k] = t
            arrival = post_end[r - 1, k] + LATENCY if r > 0 else -np.inf
            if r > 0:
                msgs.append((r - 1, r, k, post_end[r - 1, k] - POST / 2, arrival))
            t = max(t + MIN_WAIT, arrival)
            rows[r].append((k, t0, ce, post_end[r, k], t))
            clock[r] = t
    return rows, msgs


def write_chrome(path, rows, msgs):
    """DisCostiC's form: X events COMP, SEND (args dest, bytes) and RECV (args src, bytes), ts and
    dur in microseconds, pid = rank."""
    ev = []
    for r, it in enumerate(rows):
        for k, t0, ce, pe, we in it:
            ev.append({"name": "COMP", "ph": "X", "pid": r, "tid": 0, "ts": t0 * 1e6, "dur": (ce - t0) * 1e6})
            if r + 1 < len(rows):
                ev.append({"name": "SEND", "ph": "X", "pid": r, "tid": 0, "ts": ce * 1e6, "dur": (pe - ce) * 1e6,
                           "args": {"dest": r + 1, "bytes": BYTES}})
            if r > 0:
                ev.append({"name": "RECV", "ph": "X", "pid": r, "tid": 0, "ts": pe * 1e6, "dur": (we - pe) * 1e6,
                           "args": {"src": r - 1, "bytes": BYTES}})
    with open(path, "w") as fh:
        json.dump({"traceEvents": ev, "displayTimeUnit": "ms"}, fh)


def write_otf2(folder, rows, msgs, hosts_per_node=2):
    """Score-P's conventions (see the module's docstring); timer in nanoseconds."""
    import otf2

    ns = lambda t: int(round(t * 1e9))  # noqa: E731
    ranks = len(rows)
    with otf2.writer.open(folder, timer_resolution=1_000_000_000) as trace:
        d = trace.definitions
        machine = d.system_tree_node("machine", class_name="machine")
        nodes = [d.system_tree_node("node%d" % n, class_name="node", parent=machine)
                 for n in range((ranks + hosts_per_node - 1) // hosts_per_node)]
        locs = []
        for r in range(ranks):
            g = d.location_group("MPI Rank %d" % r, location_group_type=otf2.LocationGroupType.PROCESS,
                                 system_tree_parent=nodes[r // hosts_per_node])
            locs.append(d.location("Master thread", type=otf2.LocationType.CPU_THREAD, group=g))
        d.group("", group_type=otf2.GroupType.COMM_LOCATIONS, paradigm=otf2.Paradigm.MPI, members=locs)
        group = d.group("", group_type=otf2.GroupType.COMM_GROUP, paradigm=otf2.Paradigm.MPI, members=locs)
        world = d.comm("MPI_COMM_WORLD", group=group)
        main = d.region("main", paradigm=otf2.Paradigm.USER, region_role=otf2.RegionRole.FUNCTION)
        step = d.region("timestep", paradigm=otf2.Paradigm.USER, region_role=otf2.RegionRole.LOOP)
        compute = d.region("compute", paradigm=otf2.Paradigm.USER, region_role=otf2.RegionRole.FUNCTION)
        isend = d.region("MPI_Isend", paradigm=otf2.Paradigm.MPI, region_role=otf2.RegionRole.POINT2POINT)
        irecv = d.region("MPI_Irecv", paradigm=otf2.Paradigm.MPI, region_role=otf2.RegionRole.POINT2POINT)
        waitall = d.region("MPI_Waitall", paradigm=otf2.Paradigm.MPI, region_role=otf2.RegionRole.POINT2POINT)
        for r in range(ranks):
            w = trace.event_writer_from_location(locs[r])
            w.enter(ns(rows[r][0][1]), main)
            req = 0
            for k, t0, ce, pe, we in rows[r]:
                w.enter(ns(t0), step)
                w.enter(ns(t0), compute)
                w.leave(ns(ce), compute)
                mid = ce + (pe - ce) / 2
                sreq = rreq = None
                if r + 1 < ranks:
                    w.enter(ns(ce), isend)
                    sreq, req = req, req + 1
                    w.mpi_isend(ns(ce) + 1, r + 1, world, k, BYTES, sreq)
                    w.leave(ns(mid), isend)
                if r > 0:
                    w.enter(ns(mid), irecv)
                    rreq, req = req, req + 1
                    w.mpi_irecv_request(ns(mid) + 1, rreq)
                    w.leave(ns(pe), irecv)
                w.enter(ns(pe), waitall)
                if sreq is not None:
                    w.mpi_isend_complete(ns(pe) + 1, sreq)
                if rreq is not None:
                    w.mpi_irecv(ns(we) - 1, r - 1, world, k, BYTES, rreq)
                w.leave(ns(we), waitall)
                w.leave(ns(we), step)
            w.leave(ns(rows[r][-1][4]) + 1, main)
