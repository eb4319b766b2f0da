"""Synthetic desync output files for the tests of tools/ (layout: docs/output.md).

The synthetic run: triad, 4 ranks, 20 recorded iterations of which 2 warm-up, every rank r
sends to r+1 (open boundary). Iterations are numbered as in the deck: measured 0..17, warm-up
-2..-1 (recorded index = number + 2). Rank 0 gets an injected delay at measured iteration 8,
which makes rank 1 wait at iteration 8, rank 2 at 9 and rank 3 at 10 (the delay travels one
rank per iteration).

The synthetic SpMV run: 3 ranks in a chain (rank r exchanges with r-1 and r+1), 12 recorded
iterations of which 2 warm-up, SPLIT-WAIT event order (local part before the wait), a barrier
after every iteration, and the optional /matrix group and SpMV metrics.
"""

import warnings

import h5py
import numpy as np

from synthetic_phases import fixed, write_phases  # noqa: F401 (fixed: for the tests that import it from here)

EVENTS = ["compute_begin", "compute_end", "delay_begin", "delay_end", "post_end", "wait_end",
          "barrier_end"]
PHASES = ["compute", "delay", "post", "wait", "barrier", "iteration"]
DELAY_RANK, DELAY_ITERATION, DELAY = 0, 8, 5e-3  # deck numbering: measured iteration 8
WARMUP = 2
COMPUTE, POST, MIN_WAIT, LATENCY = 1e-3, 10e-6, 20e-6, 5e-6


def simulate(n_ranks, n_iter, warmup):
    """events[P, N, E] of an open chain (rank r sends to r+1, eager), no barrier."""
    ev = np.full((n_ranks, n_iter, len(EVENTS)), np.nan)
    post_end = np.zeros((n_ranks, n_iter))
    clock = np.array([3e-6 * r for r in range(n_ranks)])  # staggered start
    for k in range(n_iter):
        for r in range(n_ranks):
            t = clock[r]
            ev[r, k, 0] = t
            t += COMPUTE * (1 + 0.01 * r)
            ev[r, k, 1] = t
            if (r, k - warmup) == (DELAY_RANK, DELAY_ITERATION):
                ev[r, k, 2], ev[r, k, 3] = t, t + DELAY
                t += DELAY
            t += POST
            ev[r, k, 4] = post_end[r, k] = t
            arrival = post_end[r - 1, k] + LATENCY if r > 0 else -np.inf
            t = max(t + MIN_WAIT, arrival)
            ev[r, k, 5] = t
            clock[r] = t
    return ev - ev[0, warmup, 0]  # common time base: 0 at rank 0's first measured iteration


def durations(ev):
    post_begin = np.fmax(ev[..., 1], ev[..., 3])
    it = np.append(ev[:, 1:, 0], np.nanmax(ev[:, -1:, :], axis=2), axis=1) - ev[..., 0]
    return np.stack([ev[..., 1] - ev[..., 0], ev[..., 3] - ev[..., 2], ev[..., 4] - post_begin,
                     ev[..., 5] - ev[..., 4], ev[..., 6] - ev[..., 5], it], axis=2)


def phase_stats(d, warmup):
    """(/summary/phase_stats, /metrics/phase_over_ranks, argmin, argmax) of durations [P, N, F]."""
    d = d[:, warmup:, :]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # all-NaN phases (barrier)
        stats = np.stack([np.nanmin(d, 1), np.nanmedian(d, 1), np.nanmax(d, 1)], axis=2)
        med = stats[:, :, 1]
        over = np.stack([np.nanmin(med, 0), np.nanmedian(med, 0), np.nanmax(med, 0)], axis=1)
    argmin = np.array([np.nanargmin(c) if np.isfinite(c).any() else -1 for c in med.T])
    argmax = np.array([np.nanargmax(c) if np.isfinite(c).any() else -1 for c in med.T])
    return stats, over, argmin.astype(np.int32), argmax.astype(np.int32)


def write_common(f, workload, ev, event_names, phases, durations, bytes_per_iteration,
                 work_phase, warmup, fmt="desync-output", warnings_as_list=False,
                 old_names=False, description=None):
    """Everything but /comm and the workload's extra metrics; returns the ds() helper.
    description: the /phases rows [(name, class, colour, label)] (write_phases), None: no
    /phases, as in files written before it existed."""
    n_ranks, n_iter = ev.shape[:2]
    stats, over, argmin, argmax = phase_stats(durations, warmup)
    bandwidth = bytes_per_iteration / stats[:, phases.index(work_phase), 1]
    total = np.nanmax(ev[:, -1, :]) - np.nanmin(ev[:, warmup, 0])
    f.attrs.update({
        "format": fixed(fmt), "format_version": np.int32(1), "verification": fixed("passed"),
        "workload": fixed(workload, 16), "desync_version": fixed("0.1.0"),
        "git_revision": fixed("0123abcd-dirty"), "compiler": fixed("GNU 12.2.0 Release -O3"),
        "kokkos_version": fixed("3.4.1"), "execution_space": fixed("OpenMP"),
        "mpi_library_version": fixed("Open MPI v4.1.4, package: Debian\nsecond line"),
        "start_time": fixed("2024-05-01T12:00:00Z"),
        "command_line": fixed("desync run inputs/%s.toml" % workload),
        "ranks": np.int32(n_ranks), "iterations": np.int32(n_iter - warmup),
        "warmup_iterations": np.int32(warmup),
    })

    def ds(name, data, units):
        f.create_dataset(name, data=data).attrs["units"] = fixed(units)

    ds("config/deck_text", fixed("[run]\nworkload = \"%s\"\n" % workload), "text")
    ds("config/resolved", fixed("[run]\nworkload = \"%s\"\niterations = %d\n"
                                % (workload, n_iter - warmup)), "text")
    ds("config/overrides", fixed(""), "text")
    ds("provenance/environment", fixed("OMP_PROC_BIND=spread"), "text")
    ds("provenance/kokkos_configuration", fixed("Kokkos OpenMP"), "text")
    ds("provenance/hwloc_version", fixed("2.9.0"), "text")
    ds("provenance/allocator", fixed("glibc malloc 2.36"), "text")
    hosts = ["node-a"] * (n_ranks // 2) + ["node-b"] * (n_ranks - n_ranks // 2)
    ds("topology/hostname", fixed(hosts, 32), "text")
    ds("topology/node_index", np.array([0 if h == "node-a" else n_ranks // 2 for h in hosts],
                                       dtype=np.int32), "1")
    ds("topology/ranks_on_node", np.array([hosts.count(h) for h in hosts], np.int32), "1")
    ds("topology/threads", np.full(n_ranks, 2, np.int32), "1")
    ds("topology/process_cpuset", fixed(["%d-%d" % (2 * r, 2 * r + 1) for r in range(n_ranks)], 16), "text")
    ds("topology/thread_cpuset", fixed([[str(2 * r), str(2 * r + 1)] for r in range(n_ranks)], 8), "text")
    ds("topology/thread_last_cpu", np.arange(2 * n_ranks, dtype=np.int32).reshape(n_ranks, 2), "1")
    for name in ("thread_package", "thread_numa", "thread_l3"):
        ds("topology/" + name, np.zeros((n_ranks, 2), np.int32), "1")
    ds("topology/contention_domain", np.zeros(n_ranks, np.int32), "1")
    ds("topology/clock_offset", np.linspace(0, 2e-6, n_ranks), "s")
    ds("topology/clock_offset_error", np.full(n_ranks, 3e-7), "s")
    ds("topology/clock_offset_end", np.linspace(0, 2e-6, n_ranks), "s")
    ds("topology/clock_offset_end_error", np.full(n_ranks, 3e-7), "s")
    ds("topology/clock_offset_at", np.full(n_ranks, 1000.0), "s")
    ds("topology/clock_offset_end_at", np.full(n_ranks, 1010.0), "s")
    ds("topology/clock_drift", np.zeros(n_ranks), "s/s")
    placement = ["rank %d: threads not bound" % (n_ranks - 1), "node-b: oversubscribed"]
    # the C++ side writes one multi-line string; an array of strings is accepted too
    f["topology"].attrs["warnings"] = (fixed(placement, 32) if warnings_as_list
                                       else fixed("\n".join(placement)))
    ds("timeline/events", ev, "s")
    f["timeline/events"].attrs["event_names"] = fixed(event_names, 16)
    ds("timeline/warmup", (np.arange(n_iter) < warmup).astype(np.uint8), "1")
    ds("summary/phase_stats", stats, "s")
    f["summary/phase_stats"].attrs["phase_names"] = fixed(phases, 16)
    f["summary/phase_stats"].attrs["stat_names"] = fixed(["min", "median", "max"], 8)
    # files written before the rename call it bytes_per_sweep
    ds("summary/bytes_per_sweep" if old_names else "summary/bytes_per_iteration",
       bytes_per_iteration, "B")
    ds("summary/bandwidth", bandwidth, "B/s")
    ds("metrics/total_time", np.float64(total), "s")
    ds("metrics/aggregate_bandwidth", np.float64(bandwidth.sum()), "B/s")
    ds("metrics/effective_bandwidth",
       np.float64(bytes_per_iteration.sum() * (n_iter - warmup) / total), "B/s")
    ds("metrics/phase_over_ranks", over, "s")
    f["metrics/phase_over_ranks"].attrs["phase_names"] = fixed(phases, 16)
    ds("metrics/phase_argmin_rank", argmin, "1")
    ds("metrics/phase_argmax_rank", argmax, "1")
    ds("metrics/verification_errors", np.int64(0), "1")
    if description is not None:
        write_phases(f, description)
    return ds


def write_synthetic(path, n_ranks=4, n_iter=20, warmup=WARMUP, fmt="desync-output",
                    warnings_as_list=False, old_names=False):
    """A triad output file following docs/output.md; returns the events array."""
    ev = simulate(n_ranks, n_iter, warmup)
    with h5py.File(path, "w") as f:
        ds = write_common(f, "triad", ev, EVENTS, PHASES, durations(ev),
                          np.full(n_ranks, 24.0 * 2**20), "compute", warmup, fmt,
                          warnings_as_list, old_names)
        # one offset (+1), open boundary: the last rank sends nothing, rank 0 receives nothing
        ds("comm/offsets", np.array([1], np.int32), "1")
        write_open_chain(ds, n_ranks, 8192)
    return ev


def write_open_chain(ds, n_ranks, nbytes):
    """/comm partners and bytes of an open chain: rank r sends nbytes to r + 1 (the last rank to
    nobody) and receives from r - 1 (rank 0 from nobody, -1)."""
    send = np.array([[r + 1 if r + 1 < n_ranks else -1] for r in range(n_ranks)], np.int32)
    recv = np.array([[r - 1] for r in range(n_ranks)], np.int32)
    ds("comm/send_partner", send, "1")
    ds("comm/recv_partner", recv, "1")
    ds("comm/send_bytes", np.where(send >= 0, nbytes, 0).astype(np.int64), "B")
    ds("comm/recv_bytes", np.where(recv >= 0, nbytes, 0).astype(np.int64), "B")


SPMV_EVENTS = {
    "split": ["begin", "pack_end", "post_end", "local_end", "wait_end", "remote_end", "barrier_end"],
    "nonsplit": ["begin", "pack_end", "post_end", "wait_end", "local_end", "remote_end",
                 "barrier_end"],
}
SPMV_PHASES = ["pack", "post", "local", "wait", "remote", "barrier", "exec", "comm", "iteration"]
SPMV_WARMUP, PACK, LOCAL, REMOTE, BARRIER = 2, 20e-6, 400e-6, 60e-6, 3e-6
SPMV_ROWS, SPMV_NNZ, SPMV_MSG = [1000, 1100, 900], [12000, 13000, 11000], 4096


def simulate_spmv(scheme="split", n_ranks=3, n_iter=12, warmup=SPMV_WARMUP):
    """events[P, N, E]: chain r <-> r+-1, barrier after every iteration. Rank 1's local part
    is 3x longer in measured iteration 4, so its neighbours wait for it there."""
    names = SPMV_EVENTS[scheme]
    ix = {n: i for i, n in enumerate(names)}
    ev = np.full((n_ranks, n_iter, len(names)), np.nan)
    start = np.array([2e-6 * r for r in range(n_ranks)])
    for k in range(n_iter):
        post_end = start + PACK + POST
        ev[:, k, ix["begin"]] = start
        ev[:, k, ix["pack_end"]] = start + PACK
        ev[:, k, ix["post_end"]] = post_end
        for r in range(n_ranks):
            local = LOCAL * (1 + 0.02 * r) * (3 if (r, k - warmup) == (1, 4) else 1)
            partners = [q for q in (r - 1, r + 1) if 0 <= q < n_ranks]
            arrival = max(post_end[q] for q in partners) + LATENCY
            if scheme == "split":
                t = post_end[r] + local
                ev[r, k, ix["local_end"]] = t
                t = max(t + MIN_WAIT, arrival)
                ev[r, k, ix["wait_end"]] = t
            else:
                t = max(post_end[r] + MIN_WAIT, arrival)
                ev[r, k, ix["wait_end"]] = t
                t += local
                ev[r, k, ix["local_end"]] = t
            ev[r, k, ix["remote_end"]] = t + REMOTE
        start = np.full(n_ranks, ev[:, k, ix["remote_end"]].max() + BARRIER)
        ev[:, k, ix["barrier_end"]] = start + 1e-6 * np.arange(n_ranks)
        start = ev[:, k, ix["barrier_end"]]
    return ev - ev[0, warmup, 0]


def spmv_durations(ev, scheme="split"):
    """[P, N, F] phase durations of SPMV_PHASES, written out by hand for each scheme."""
    i = {n: k for k, n in enumerate(SPMV_EVENTS[scheme])}.__getitem__
    e = lambda name: ev[..., i(name)]  # noqa: E731
    pack, post = e("pack_end") - e("begin"), e("post_end") - e("pack_end")
    if scheme == "split":
        local, wait = e("local_end") - e("post_end"), e("wait_end") - e("local_end")
        remote = e("remote_end") - e("wait_end")
    else:
        wait, local = e("wait_end") - e("post_end"), e("local_end") - e("wait_end")
        remote = e("remote_end") - e("local_end")
    barrier = e("barrier_end") - e("remote_end")
    it = np.append(ev[:, 1:, 0], np.nanmax(ev[:, -1:, :], axis=2), axis=1) - ev[..., 0]
    return np.stack([pack, post, local, wait, remote, barrier, local + remote,
                     pack + post + wait, it], axis=2)


def write_synthetic_spmv(path, scheme="split", n_iter=12):
    """A SpMV output file (3 ranks) following docs/output.md; returns the events array."""
    ev = simulate_spmv(scheme, n_iter=n_iter)
    n_ranks = ev.shape[0]
    with h5py.File(path, "w") as f:
        ds = write_common(f, "spmv", ev, SPMV_EVENTS[scheme], SPMV_PHASES,
                          spmv_durations(ev, scheme), np.array(SPMV_NNZ) * 12.0 + 8e3, "exec",
                          SPMV_WARMUP)
        partners = np.full((n_ranks, 2), -1, np.int32)
        for r in range(n_ranks):
            q = [p for p in (r - 1, r + 1) if 0 <= p < n_ranks]
            partners[r, :len(q)] = q
        nbytes = np.where(partners >= 0, SPMV_MSG, 0).astype(np.int64)
        for name, data in (("send_partner", partners), ("recv_partner", partners),
                           ("send_bytes", nbytes), ("recv_bytes", nbytes)):
            ds("comm/" + name, data, "B" if name.endswith("bytes") else "1")
        ds("matrix/rows", np.array(SPMV_ROWS, np.int64), "1")
        ds("matrix/nnz", np.array(SPMV_NNZ, np.int64), "1")
        ds("metrics/barrier_cost", np.float64(2.5e-6), "s")
        ds("metrics/gflops", np.float64(1.234567), "Gflop/s")
        ds("metrics/cer_median", np.float64(0.125), "1")
        ds("metrics/partners_mean", np.float64(4 / 3), "1")
        ds("metrics/msg_bytes_mean", np.float64(SPMV_MSG), "B")
        ds("metrics/nnz_total", np.float64(sum(SPMV_NNZ)), "1")
        ds("metrics/gflops_barrier_corrected", np.float64(1.3), "Gflop/s")
        ds("metrics/desync_speedup", np.float64(-0.0125), "1")
    return ev


TOY_EVENTS = {
    True: ["begin", "post_end", "part1_end", "wait_end", "part2_end", "delay_end", "sync_end"],
    False: ["begin", "post_end", "wait_end", "compute_end", "delay_end", "sync_end"],
}
TOY_WARMUP, TOY_POST, TOY_PART1, TOY_PART2, TOY_SYNC = 2, 1e-3, 6e-3, 2e-3, 0.1e-3
TOY_PURE_WAIT, TOY_COMPUTE = 4e-3, 8e-3


def toy_wait(r):
    """The overlap toy's wait after part 1 on rank r: 0.5 ms r."""
    return 0.5e-3 * r


def generic_durations(ev, names):
    """([phase names], [P, N, F] durations) by the generic rule of docs/output.md: "<phase>_end"
    ends <phase>, which began at the latest earlier event that happened; plus "iteration"."""
    phases = [n[:-4] for n in names[1:] if n.endswith("_end")]
    d = np.full(ev.shape[:2] + (len(phases) + 1,), np.nan)
    last = ev[..., 0].copy()
    for e in range(1, len(names)):
        if names[e].endswith("_end"):
            d[..., phases.index(names[e][:-4])] = ev[..., e] - last
        last = np.where(np.isfinite(ev[..., e]), ev[..., e], last)
    d[..., -1] = np.append(ev[:, 1:, 0], np.nanmax(ev[:, -1:, :], axis=2), axis=1) - ev[..., 0]
    return phases + ["iteration"], d


def write_synthetic_toy(path, overlap=True, n_ranks=4, n_iter=10, warmup=TOY_WARMUP, plain=()):
    """A toy output file (docs/output.md) with known overlap; returns the events array.

    overlap=True (the overlap toy): post TOY_POST, part 1 TOY_PART1, wait toy_wait(r), part 2
    TOY_PART2, then an allreduce (sync) that ends TOY_SYNC after the latest rank's part 2. The
    measured iterations listed in `plain` have no part 1 (NaN) and a wait of TOY_PURE_WAIT: a
    communication section without compute. overlap=False (the no-overlap toy): post TOY_POST,
    wait TOY_PURE_WAIT, compute TOY_COMPUTE, sync."""
    names = TOY_EVENTS[overlap]
    ix = {n: i for i, n in enumerate(names)}
    ev = np.full((n_ranks, n_iter, len(names)), np.nan)
    start = 0.0
    for k in range(n_iter):
        for r in range(n_ranks):
            t = start
            ev[r, k, ix["begin"]] = t
            t += TOY_POST
            ev[r, k, ix["post_end"]] = t
            if overlap and k - warmup not in plain:
                t += TOY_PART1
                ev[r, k, ix["part1_end"]] = t
                t += toy_wait(r)
            else:
                t += TOY_PURE_WAIT
            ev[r, k, ix["wait_end"]] = t
            t += TOY_PART2 if overlap else TOY_COMPUTE
            ev[r, k, ix["part2_end" if overlap else "compute_end"]] = t
        start = np.nanmax(ev[:, k, :]) + TOY_SYNC
        ev[:, k, ix["sync_end"]] = start
    ev -= ev[0, warmup, 0]
    phases, d = generic_durations(ev, names)
    with h5py.File(path, "w") as f:
        ds = write_common(f, "toy", ev, names, phases, d, np.zeros(n_ranks),
                          "part1" if overlap else "compute", warmup)
        send = np.array([[(r + 1) % n_ranks] for r in range(n_ranks)], np.int32)
        recv = np.array([[(r - 1) % n_ranks] for r in range(n_ranks)], np.int32)
        ds("comm/send_partner", send, "1")
        ds("comm/recv_partner", recv, "1")
        ds("comm/send_bytes", np.full((n_ranks, 1), 65536, np.int64), "B")
        ds("comm/recv_bytes", np.full((n_ranks, 1), 65536, np.int64), "B")
    return ev


MESSAGE_TAG, MESSAGE_BYTES = 7, 8192


def add_messages(path):
    """Add /messages (docs/output.md) to a synthetic triad file (write_synthetic): in every
    recorded iteration rank r sends one message to r+1. The send is posted in the middle of the
    sender's post phase and completes at its post_end; the receive is posted in the middle of
    the receiver's post phase and completes three quarters into its wait phase. Each rank
    records per iteration its receive (from r-1) first, then its send. Returns (sender,
    iteration index, send post, receive completion) per message, in post order per iteration."""
    with h5py.File(path, "r+") as f:
        ev = f["timeline/events"][()]
        p, n = ev.shape[:2]
        post_begin = np.fmax(ev[..., 1], np.where(np.isfinite(ev[..., 3]), ev[..., 3], -np.inf))
        post_mid = (post_begin + ev[..., 4]) / 2
        done_recv = ev[..., 4] + 0.75 * (ev[..., 5] - ev[..., 4])
        width = 2 * n
        cols = {k: np.full((p, width), -1, np.int64) for k in ("peer", "bytes", "communicator", "tag", "send")}
        cols["post"], cols["done"] = np.full((p, width), np.nan), np.full((p, width), np.nan)
        count = np.zeros(p, np.int64)
        sent = []

        def record(r, peer, send, post, done):
            i = count[r]
            for k, v in (("peer", peer), ("bytes", MESSAGE_BYTES), ("communicator", 0), ("tag", MESSAGE_TAG),
                         ("send", send), ("post", post), ("done", done)):
                cols[k][r, i] = v
            count[r] += 1

        for k in range(n):
            for r in range(p):
                if r > 0:
                    record(r, r - 1, 0, post_mid[r, k], done_recv[r, k])
                if r + 1 < p:
                    record(r, r + 1, 1, post_mid[r, k], ev[r, k, 4])
                    sent.append((r, k, post_mid[r, k], done_recv[r + 1, k]))
        g = f.create_group("messages")
        for k, dtype, units in (("peer", np.int32, "1"), ("bytes", np.int64, "B"), ("communicator", np.int32, "1"),
                                ("tag", np.int32, "1"), ("send", np.uint8, "1"), ("post", np.float64, "s"),
                                ("done", np.float64, "s")):
            g.create_dataset(k, data=cols[k].astype(dtype)).attrs["units"] = fixed(units)
        g.create_dataset("count", data=count).attrs["units"] = fixed("1")
        g.create_dataset("dropped", data=np.zeros(p, np.int64)).attrs["units"] = fixed("1")
    return sent


def set_domains(path, domains):
    """Overwrite /topology/contention_domain of a synthetic file (one value per rank)."""
    with h5py.File(path, "r+") as f:
        f["topology/contention_domain"][...] = np.asarray(domains, np.int32)


def write_synthetic_idle(path, idle, compute=COMPUTE, domains=None, packages=None, warmup=0):
    """A triad-layout file whose wait phase of (rank r, recorded iteration n) lasts idle[r, n]
    (s): compute `compute`, post POST, wait idle[r, n], one iteration after the other on each
    rank (no message causality: for analyses of given idle patterns). domains[r] sets
    /topology/contention_domain, packages[r] every thread's /topology/thread_package (one node).
    Returns the events array."""
    idle = np.asarray(idle, float)
    n_ranks, n_iter = idle.shape
    ev = np.full((n_ranks, n_iter, len(EVENTS)), np.nan)
    step = compute + POST + idle
    begin = np.concatenate([np.zeros((n_ranks, 1)), np.cumsum(step, axis=1)[:, :-1]], axis=1)
    ev[..., 0] = begin
    ev[..., 1] = begin + compute
    ev[..., 4] = begin + compute + POST
    ev[..., 5] = begin + compute + POST + idle
    ev -= ev[0, warmup, 0]
    with h5py.File(path, "w") as f:
        ds = write_common(f, "triad", ev, EVENTS, PHASES, durations(ev), np.full(n_ranks, 1e6), "compute", warmup)
        send = np.array([[(r + 1) % n_ranks] for r in range(n_ranks)], np.int32)
        recv = np.array([[(r - 1) % n_ranks] for r in range(n_ranks)], np.int32)
        ds("comm/send_partner", send, "1")
        ds("comm/recv_partner", recv, "1")
        ds("comm/send_bytes", np.full((n_ranks, 1), 8, np.int64), "B")
        ds("comm/recv_bytes", np.full((n_ranks, 1), 8, np.int64), "B")
        topo = f["topology"]
        topo["node_index"][...] = 0
        if domains is not None:
            topo["contention_domain"][...] = np.asarray(domains, np.int32)
        if packages is not None:
            topo["thread_package"][...] = np.repeat(np.asarray(packages, np.int32)[:, None], 2, axis=1)
    return ev


def stamp_run(path, overrides=None, deck_text=None, complete=None, verification=None,
              metrics=None, threads=None, ranks=None):
    """Change what a synthetic file says about its run (campaign tests): /config/overrides (a
    list of --set arguments), /config/deck_text, root attributes complete, verification and
    ranks, /topology/threads (one value for every rank), and scalar /metrics (name -> (value,
    units)); None leaves a part as it is."""
    with h5py.File(path, "r+") as f:
        def replace(name, data, units):
            if name in f:
                del f[name]
            f.create_dataset(name, data=data).attrs["units"] = fixed(units)

        if overrides is not None:
            replace("config/overrides", fixed("".join(s + "\n" for s in overrides)), "text")
        if deck_text is not None:
            replace("config/deck_text", fixed(deck_text), "text")
        if complete is not None:
            f.attrs["complete"] = np.int32(complete)
        if verification is not None:
            f.attrs["verification"] = fixed(verification)
        if ranks is not None:
            f.attrs["ranks"] = np.int32(ranks)
        if threads is not None:
            n = f["topology/threads"].shape[0]
            replace("topology/threads", np.full(n, threads, np.int32), "1")
        for name, (value, units) in (metrics or {}).items():
            replace("metrics/" + name, np.float64(value), units)
