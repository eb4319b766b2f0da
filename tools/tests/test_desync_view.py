#!/usr/bin/env python3
"""Tests of tools/desync_view.py on synthetic desync output files (layout: docs/output.md).

Run from the repository root with
    /usr/bin/python3 -m unittest discover -s tools/tests -v
or directly: /usr/bin/python3 tools/tests/test_desync_view.py

The synthetic run: triad, 4 ranks, 20 recorded iterations of which 2 warm-up, every rank r
sends to r+1 (open boundary). Iterations are numbered as in the deck: measured 0..17, warm-up
-2..-1 (recorded index = number + 2). Rank 0 gets an injected delay at measured iteration 8,
which makes rank 1 wait at iteration 8, rank 2 at 9 and rank 3 at 10 (the delay travels one
rank per iteration).

The synthetic SpMV run: 3 ranks in a chain (rank r exchanges with r-1 and r+1), 12 recorded
iterations of which 2 warm-up, SPLIT-WAIT event order (local part before the wait), a barrier
after every iteration, and the optional /matrix group and SpMV metrics.
"""

import gzip
import json
import os
import subprocess
import sys
import tempfile
import unittest
import warnings

import h5py
import numpy as np

TOOLS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VIEW = os.path.join(TOOLS, "desync_view.py")
sys.path.insert(0, TOOLS)

import desync_h5  # noqa: E402
import desync_view  # noqa: E402

EVENTS = ["compute_begin", "compute_end", "delay_begin", "delay_end", "post_end", "wait_end",
          "barrier_end"]
PHASES = ["compute", "delay", "post", "wait", "barrier", "iteration"]
DELAY_RANK, DELAY_ITERATION, DELAY = 0, 8, 5e-3  # deck numbering: measured iteration 8
WARMUP = 2
COMPUTE, POST, MIN_WAIT, LATENCY = 1e-3, 10e-6, 20e-6, 5e-6


def fixed(strings, size=None):
    """Fixed-length, null-padded byte strings as the C++ side writes them."""
    data = np.char.encode(np.array(strings, dtype=str), "ascii")
    width = size or max(1, data.dtype.itemsize)
    return data.astype("S%d" % width)


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
                 old_names=False):
    """Everything but /comm and the workload's extra metrics; returns the ds() helper."""
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
        send = np.array([[r + 1 if r + 1 < n_ranks else -1] for r in range(n_ranks)], np.int32)
        recv = np.array([[r - 1] for r in range(n_ranks)], np.int32)
        ds("comm/send_partner", send, "1")
        ds("comm/recv_partner", recv, "1")
        ds("comm/send_bytes", np.where(send >= 0, 8192, 0).astype(np.int64), "B")
        ds("comm/recv_bytes", np.where(recv >= 0, 8192, 0).astype(np.int64), "B")
    return ev


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


def run_view(*args):
    """Run the tool as a separate process: (exit code, stdout, stderr)."""
    proc = subprocess.run([sys.executable, VIEW] + [str(a) for a in args],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
    return proc.returncode, proc.stdout, proc.stderr


def x_events(trace):
    return [e for e in trace["traceEvents"] if e["ph"] == "X"]


def assert_tracks_do_not_overlap(test, xs):
    """X events of each pid: positive durations, each ends before the next begins."""
    test.assertTrue(all(e["dur"] > 0 for e in xs))
    for pid in {e["pid"] for e in xs}:
        track = sorted((e["ts"], e["ts"] + e["dur"]) for e in xs if e["pid"] == pid)
        for (b0, e0), (b1, e1) in zip(track, track[1:]):
            test.assertLessEqual(e0, b1 + 1e-6)


def timeline_of(path, **window):
    with desync_h5.open_output(path) as f:
        w = desync_h5.select_window(f, **window)
        return desync_h5.read_timeline(f, w), desync_h5.root_attributes(f)


def legend_labels(path, **window):
    tl, attrs = timeline_of(path, **window)
    fig = desync_view.draw_timeline(tl, attrs)
    try:
        return [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    finally:
        import matplotlib.pyplot as plt
        plt.close(fig)


def png_colour_counts(path, colours, tolerance=12):
    """Pixels of each RGB colour in the plot area (the legend is right of it)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.image as mpimg

    img = mpimg.imread(path)
    rgb = (img[:, : int(0.75 * img.shape[1]), :3] * 255).astype(int)
    return [int(np.all(np.abs(rgb - c) < tolerance, axis=-1).sum()) for c in colours]


BLUE, RED, ORANGE = [0x1F, 0x5F, 0xD6], [0xE0, 0x20, 0x1B], [0xF5, 0xA6, 0x23]
LIGHT_GREEN, GREEN = [0xB9, 0xE3, 0xB0], [0x8F, 0xD1, 0x8A]


class DesyncViewTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.h5 = os.path.join(cls.tmp.name, "triad.h5")
        cls.events = write_synthetic(cls.h5)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def path(self, name):
        return os.path.join(self.tmp.name, name)

    def trace(self, *extra, name="trace.json"):
        code, out, err = run_view("trace", self.h5, "-o", self.path(name), *extra)
        self.assertEqual(code, 0, err)
        opener = gzip.open if name.endswith(".gz") else open
        with opener(self.path(name), "rt") as f:
            return json.load(f)

    # ------------------------------------------------------------------ summary

    def test_summary(self):
        code, out, err = run_view("summary", self.h5)
        self.assertEqual(code, 0, err)
        self.assertRegex(out, r"workload\s+triad\n")
        self.assertRegex(out, r"verification\s+passed\n")
        self.assertRegex(out, r"iterations\s+18 measured \+ 2 warm-up \(numbered 0\.\.17 and "
                              r"-2\.\.-1, as in the deck\)")
        self.assertIn("node-a (ranks 0-1), node-b (ranks 2-3)", out)
        self.assertIn("rank 3: threads not bound", out)
        self.assertIn("node-b: oversubscribed", out)
        self.assertNotIn("\x00", out)
        # the compute row: rank 0 is fastest, rank 3 slowest (compute grows 1 % per rank)
        compute = [line for line in out.splitlines() if line.split()[:1] == ["compute"]]
        self.assertEqual(len(compute), 1, out)
        self.assertEqual(compute[0].split()[-2:], ["0", "3"])
        self.assertRegex(out, r"total time\s+\d")
        # /comm: rank 0 receives from nobody (open boundary), the others from one rank each
        self.assertRegex(out, r"partners per rank\s+min 0, mean 0\.75, max 1 \(receive\)\n")
        self.assertRegex(out, r"received bytes\s+min 0 B, mean 6\.144 kB, max 8\.192 kB\n")
        self.assertRegex(out, r"offsets\s+1\n")
        self.assertRegex(out, r"bytes per iteration\s+25\.17 MB \(every rank\)\n")
        self.assertNotIn("message size", out)
        self.assertNotIn("other metrics", out)  # triad has no extra metrics
        self.assertNotIn("matrix", out)

    def test_summary_reads_old_bytes_per_sweep(self):
        old = self.path("old.h5")
        write_synthetic(old, old_names=True)
        code, out, err = run_view("summary", old)
        self.assertEqual(code, 0, err)
        self.assertRegex(out, r"bytes per iteration\s+25\.17 MB \(every rank\)\n")

    def test_summary_warnings_as_list(self):
        listed = self.path("listed.h5")
        write_synthetic(listed, warnings_as_list=True)
        code, out, err = run_view("summary", listed)
        self.assertEqual(code, 0, err)
        self.assertRegex(out, r"placement warnings\s+rank 3: threads not bound\n\s+node-b: oversubscribed\n")
        self.assertEqual(desync_h5.lines(["a\nb", "", "c"]), ["a", "b", "c"])
        self.assertEqual(desync_h5.lines("a\n\nb\n"), ["a", "b"])

    # ------------------------------------------------------------------ timeline

    def check_png(self, name, *extra, colours=(BLUE, RED)):
        """Draw the timeline; the pixel counts of colours in the plot area."""
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.image as mpimg

        png = self.path(name)
        code, out, err = run_view("timeline", self.h5, "-o", png, *extra)
        self.assertEqual(code, 0, err)
        with open(png, "rb") as f:
            self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")
        img = mpimg.imread(png)
        self.assertEqual(img.ndim, 3)
        self.assertTrue(500 < img.shape[1] < 4000 and 300 < img.shape[0] < 4000, img.shape)
        return png_colour_counts(png, colours)

    def test_timeline_legend_shows_only_present_phases(self):
        self.assertEqual(legend_labels(self.h5),
                         ["compute", "injected delay", "post (Isend/Irecv)", "wait (Waitall)"])
        self.assertEqual(legend_labels(self.h5, iterations=slice(9, None)),
                         ["compute", "post (Isend/Irecv)", "wait (Waitall)"])
        self.assertEqual(desync_view.style("mystery")["label"], "mystery")  # unknown: grey
        self.assertEqual(desync_view.style("mystery")["facecolor"],
                         desync_view.UNKNOWN_STYLE["facecolor"])

    def test_timeline_png(self):
        blue, red = self.check_png("timeline.png", "--title", "synthetic")
        self.assertGreater(blue, 100)
        self.assertGreater(red, 100)

    def test_timeline_window_without_delay(self):
        blue, red = self.check_png("late.png", "--iterations", "9:")
        self.assertEqual(blue, 0)  # the delay (measured iteration 8) is outside the window
        blue, red = self.check_png("early.png", "--iterations", "-2:9")
        self.assertGreater(blue, 100)  # ... and inside this one, which starts in the warm-up

    # ------------------------------------------------------------------ trace

    def test_trace_default_window(self):
        trace = self.trace()
        self.assertEqual(trace["displayTimeUnit"], "ms")
        self.assertEqual(trace["otherData"]["workload"], "triad")
        self.assertEqual(trace["otherData"]["verification"], "passed")
        xs = x_events(trace)
        self.assertTrue(all(e["dur"] > 0 for e in xs))
        self.assertEqual({e["pid"] for e in xs}, {0, 1, 2, 3})
        self.assertEqual({e["args"]["iteration"] for e in xs}, set(range(18)))  # measured only
        self.assertFalse(any(e["args"]["warmup"] for e in xs))
        self.assertEqual(trace["otherData"]["window_iterations"], "0..17")
        self.assertEqual({e["name"] for e in xs}, {"compute", "delay", "post", "wait"})
        self.assertTrue(all(e["cat"] == e["name"] for e in xs))
        names = {e["pid"]: e["args"]["name"] for e in trace["traceEvents"]
                 if e["ph"] == "M" and e["name"] == "process_name"}
        self.assertEqual(names, {0: "rank 0 (node-a)", 1: "rank 1 (node-a)",
                                 2: "rank 2 (node-b)", 3: "rank 3 (node-b)"})
        delays = [(e["pid"], e["args"]["iteration"], e["dur"]) for e in xs if e["name"] == "delay"]
        self.assertEqual(len(delays), 1)
        self.assertEqual(delays[0][:2], (DELAY_RANK, DELAY_ITERATION))
        self.assertAlmostEqual(delays[0][2], DELAY * 1e6, delta=0.01)

    def test_trace_waits_follow_the_delay(self):
        xs = x_events(self.trace())
        wait = {(e["pid"], e["args"]["iteration"]): e["dur"] for e in xs if e["name"] == "wait"}
        long_waits = {key for key, dur in wait.items() if dur > 1000}  # > 1 ms
        self.assertEqual(long_waits, {(1, 8), (2, 9), (3, 10)})  # deck numbering
        for key in long_waits:
            self.assertGreater(wait[key], 0.8 * DELAY * 1e6)

    def test_trace_events_nest_on_each_track(self):
        trace = self.trace("--include-warmup")
        xs = x_events(trace)
        self.assertEqual({e["args"]["iteration"] for e in xs}, set(range(-WARMUP, 18)))
        self.assertTrue(all(e["args"]["warmup"] == (e["args"]["iteration"] < 0) for e in xs))
        self.assertTrue(all(e["ts"] >= 0 for e in xs))  # warm-up is at negative times: shifted
        assert_tracks_do_not_overlap(self, xs)
        # shifted by the warm-up's start; the timestamps still match the file
        origin = trace["otherData"]["time_origin_s"]
        self.assertLess(origin, 0)
        for k in (-2, -1, 0, 5):  # deck iteration k is recorded at index WARMUP + k
            c = [e for e in xs if e["pid"] == 2 and e["name"] == "compute"
                 and e["args"]["iteration"] == k]
            self.assertAlmostEqual(c[0]["ts"] / 1e6 + origin, self.events[2, WARMUP + k, 0],
                                   delta=1e-8)

    def test_trace_window_and_stride(self):
        xs = x_events(self.trace("--ranks", "1:3", "--iterations", "9:11"))
        self.assertEqual({e["pid"] for e in xs}, {1, 2})
        self.assertEqual({e["args"]["iteration"] for e in xs}, {9, 10})
        xs = x_events(self.trace("--ranks", "-1", "--stride", "5", name="t.json.gz"))
        self.assertEqual({e["pid"] for e in xs}, {3})
        self.assertEqual({e["args"]["iteration"] for e in xs}, {0, 5, 10, 15})
        xs = x_events(self.trace("--iterations", "5:15", "--include-warmup"))
        self.assertEqual({e["args"]["iteration"] for e in xs}, set(range(5, 15)))

    def test_trace_window_with_negative_start(self):
        # -2:3 is warm-up -2..-1 plus measured 0..2, NOT Python's "from the end"
        trace = self.trace("--iterations", "-2:3")
        xs = x_events(trace)
        self.assertEqual({e["args"]["iteration"] for e in xs}, {-2, -1, 0, 1, 2})
        self.assertEqual({e["args"]["iteration"] for e in xs if e["args"]["warmup"]}, {-2, -1})
        self.assertEqual(trace["otherData"]["window_iterations"], "-2..2")
        c = [e for e in xs if e["pid"] == 1 and e["name"] == "compute"
             and e["args"]["iteration"] == -1]
        origin = trace["otherData"]["time_origin_s"]
        self.assertAlmostEqual(c[0]["ts"] / 1e6 + origin, self.events[1, WARMUP - 1, 0], delta=1e-8)
        # bounds before the first warm-up iteration are clipped: -3:4 is -2..3 here
        xs = x_events(self.trace("--iterations", "-3:4"))
        self.assertEqual({e["args"]["iteration"] for e in xs}, set(range(-2, 4)))
        # a single negative number is that warm-up iteration, not the last one
        xs = x_events(self.trace("--iterations", "-1"))
        self.assertEqual({e["args"]["iteration"] for e in xs}, {-1})
        # --include-warmup does not change an explicit window; it moves an open start to -W
        xs = x_events(self.trace("--iterations", ":1", "--include-warmup"))
        self.assertEqual({e["args"]["iteration"] for e in xs}, {-2, -1, 0})
        xs = x_events(self.trace("--iterations", ":1"))
        self.assertEqual({e["args"]["iteration"] for e in xs}, {0})

    # ------------------------------------------------------------------ errors

    def test_not_a_desync_file(self):
        other = self.path("other.h5")
        write_synthetic(other, fmt="something-else")
        code, out, err = run_view("summary", other)
        self.assertEqual(code, 2)
        self.assertIn("not a desync output file", err)
        self.assertNotIn("Traceback", err)
        text = self.path("text.h5")
        with open(text, "w") as f:
            f.write("hello\n")
        code, out, err = run_view("trace", text, "-o", self.path("x.json"))
        self.assertEqual(code, 2)
        self.assertIn("not an HDF5 file", err)

    def test_missing_file_and_empty_window(self):
        code, out, err = run_view("summary", self.path("missing.h5"))
        self.assertEqual(code, 2)
        self.assertIn("no such file", err)
        code, out, err = run_view("trace", self.h5, "-o", self.path("e.json"), "--ranks", "4:8")
        self.assertEqual(code, 2)
        self.assertIn("empty window", err)
        code, out, err = run_view("timeline", self.h5, "-o", self.path("e.png"), "--iterations", "18:30")
        self.assertEqual(code, 2)
        self.assertIn("empty window", err)
        self.assertIn("measured iterations 0..17, warm-up -2..-1", err)
        self.assertFalse(os.path.exists(self.path("e.png")))
        code, out, err = run_view("timeline", self.h5, "-o", self.path("e.png"), "--iterations", "-9:-2")
        self.assertEqual(code, 2)
        self.assertIn("empty window", err)
        code, out, err = run_view("timeline", self.h5, "-o", self.path("e.png"), "--ranks", "a:b")
        self.assertEqual(code, 2)
        self.assertNotIn("Traceback", err)

    # ------------------------------------------------------------------ reading layer

    def test_phase_tracks_never_overlap(self):
        # one rank, two iterations; the delay starts 1 us before compute ends (clock glitch)
        ev = np.full((1, 2, len(EVENTS)), np.nan)
        ev[0, 0, :6] = [0.0, 1e-3, 0.999e-3, 2e-3, 2.01e-3, 2.05e-3]
        ev[0, 1, [0, 1, 4, 5]] = [2.05e-3, 3.05e-3, 3.05e-3, 3.06e-3]  # post of zero length
        window = desync_h5.Window([0], [0, 1])  # no warm-up: numbers = indices
        tl = desync_h5.Timeline(ev, EVENTS, window, np.zeros(2, bool), ["h"])
        order, tracks, clipped = desync_h5.phase_tracks(tl)
        self.assertEqual(clipped, 1)
        code, b, e, it = tracks[0]
        self.assertTrue(np.all(e > b))
        self.assertTrue(np.all(e[:-1] <= b[1:]))
        self.assertEqual([order[c] for c in code],
                         ["compute", "delay", "post", "wait", "compute", "wait"])
        self.assertEqual(e[0], 999000)  # compute clipped at the delay's begin (ns)

    def test_phase_intervals_match_phase_stats(self):
        # the generic rule reproduces the triad durations (post begins after the delay if any)
        tl, _ = timeline_of(self.h5, include_warmup=True)
        phases = desync_h5.phase_intervals(tl, iteration=True)
        self.assertEqual(list(phases), PHASES)
        expected = durations(self.events)
        for i, name in enumerate(PHASES):
            begin, end = phases[name]
            np.testing.assert_allclose(end - begin, expected[..., i], rtol=0, atol=1e-12,
                                       err_msg=name)
        # the last iteration of a window ends where the next recorded one begins
        tl, _ = timeline_of(self.h5, iterations=slice(0, 3))
        begin, end = desync_h5.phase_intervals(tl, iteration=True)["iteration"]
        np.testing.assert_array_equal(end[:, -1], self.events[:, WARMUP + 3, 0])

    def test_decode(self):
        self.assertEqual(desync_h5.decode(b"triad\x00\x00\x00"), "triad")
        self.assertEqual(desync_h5.decode("passed\x00"), "passed")
        self.assertEqual(desync_h5.decode(np.bytes_(b"a\x00b")), "a")
        self.assertEqual(desync_h5.decode(np.array([b"x\x00", b"yz"], dtype="S4")), ["x", "yz"])
        self.assertEqual(desync_h5.to_scalar(np.array([3], np.int32)), 3)
        self.assertEqual(desync_h5.parse_slice("2:5"), slice(2, 5))
        self.assertEqual(desync_h5.parse_slice("-1"), slice(-1, None))  # ranks: Python
        self.assertEqual(desync_h5.parse_iterations("-1"), slice(-1, 0))  # deck numbering
        self.assertEqual(desync_h5.parse_iterations("-3:4"), slice(-3, 4))
        self.assertEqual(desync_h5.parse_iterations("7"), slice(7, 8))
        numbers = desync_h5.iteration_numbers
        self.assertEqual(numbers(slice(-3, 4), -2, 18).tolist(), list(range(-2, 4)))
        self.assertEqual(numbers(slice(None, None), -2, 18).tolist(), list(range(18)))
        self.assertEqual(numbers(slice(None, None), -2, 18, True).tolist(), list(range(-2, 18)))
        self.assertEqual(numbers(slice(-5, 6, 3), -2, 18).tolist(), [-2, 1, 4])
        self.assertEqual(numbers(slice(15, 30), -2, 18).tolist(), [15, 16, 17])
        self.assertEqual(desync_h5.rank_ranges([0, 1, 2, 5, 7, 8]), "0-2,5,7-8")


class SpmvTest(unittest.TestCase):
    """The SpMV workload: its own event names, SPLIT-WAIT order, /matrix, extra metrics."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.h5 = os.path.join(cls.tmp.name, "spmv.h5")
        cls.events = write_synthetic_spmv(cls.h5, "split")

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def path(self, name):
        return os.path.join(self.tmp.name, name)

    def trace(self, *extra):
        code, out, err = run_view("trace", self.h5, "-o", self.path("spmv.json"), *extra)
        self.assertEqual(code, 0, err)
        with open(self.path("spmv.json")) as f:
            return json.load(f)

    def test_phases_follow_the_generic_rule(self):
        tl, _ = timeline_of(self.h5, include_warmup=True)
        phases = desync_h5.phase_intervals(tl, iteration=True)
        self.assertEqual(list(phases), ["pack", "post", "local", "wait", "remote", "barrier",
                                        "iteration"])
        ix = SPMV_EVENTS["split"].index
        ev = self.events
        # SPLIT-WAIT: local runs from post_end, wait from local_end to wait_end, remote after
        np.testing.assert_array_equal(phases["local"][0], ev[..., ix("post_end")])
        np.testing.assert_array_equal(phases["wait"][0], ev[..., ix("local_end")])
        np.testing.assert_array_equal(phases["wait"][1], ev[..., ix("wait_end")])
        np.testing.assert_array_equal(phases["remote"][0], ev[..., ix("wait_end")])
        np.testing.assert_array_equal(phases["barrier"][0], ev[..., ix("remote_end")])
        expected = spmv_durations(ev, "split")
        for name, (begin, end) in phases.items():
            i = SPMV_PHASES.index(name)
            np.testing.assert_allclose(end - begin, expected[..., i], rtol=0, atol=1e-12,
                                       err_msg=name)

    def test_nonsplit_order(self):
        path = self.path("nonsplit.h5")
        ev = write_synthetic_spmv(path, "nonsplit")
        tl, _ = timeline_of(path, include_warmup=True)
        phases = desync_h5.phase_intervals(tl)
        self.assertEqual(list(phases), ["pack", "post", "wait", "local", "remote", "barrier"])
        ix = SPMV_EVENTS["nonsplit"].index
        np.testing.assert_array_equal(phases["wait"][0], ev[..., ix("post_end")])
        np.testing.assert_array_equal(phases["local"][0], ev[..., ix("wait_end")])
        np.testing.assert_array_equal(phases["remote"][0], ev[..., ix("local_end")])

    def test_a_missing_event_is_skipped(self):
        # no barrier in iteration 1: the next iteration's phases are unaffected, barrier NaN;
        # a missing local_end: wait begins at post_end (the latest earlier event that happened)
        names = SPMV_EVENTS["split"]
        ev = np.array([[[0.0, 1.0, 2.0, 5.0, 6.0, 7.0, 8.0],
                        [8.0, 9.0, 10.0, np.nan, 12.0, 13.0, np.nan]]]) * 1e-3
        tl = desync_h5.Timeline(ev, names, desync_h5.Window([0], [0, 1]), np.zeros(2, bool), ["h"])
        phases = desync_h5.phase_intervals(tl, iteration=True)
        self.assertTrue(np.isnan(phases["local"][1][0, 1]))
        self.assertEqual(phases["wait"][0][0, 1], 10e-3)
        self.assertTrue(np.isnan(phases["barrier"][1][0, 1]))
        np.testing.assert_allclose(phases["iteration"][1][0] - phases["iteration"][0][0],
                                   [8e-3, 5e-3])  # the last one: to its latest event

    def test_summary(self):
        code, out, err = run_view("summary", self.h5)
        self.assertEqual(code, 0, err)
        self.assertRegex(out, r"workload\s+spmv\n")
        self.assertRegex(out, r"rows\s+3000 total")
        self.assertRegex(out, r"nonzeros\s+36000 total")
        self.assertRegex(out, r"partners per rank\s+min 1, mean 1\.333, max 2 \(receive\)\n")
        self.assertNotIn("(send)", out)  # same partner counts as for receiving
        self.assertRegex(out, r"received bytes\s+min 4\.096 kB, mean 5\.461 kB, max 8\.192 kB\n")
        self.assertNotRegex(out, r"\n  offsets\s")
        for name in SPMV_PHASES:
            self.assertRegex(out, r"\n  %s\s" % name)
        self.assertRegex(out, r"bytes per iteration\s+min ")
        # every other scalar in /metrics, by its units
        other = out[out.index("other metrics"):]
        self.assertRegex(other, r"barrier_cost\s+2\.5 us\n")
        self.assertRegex(other, r"gflops\s+1\.235 Gflop/s\n")
        self.assertRegex(other, r"gflops_barrier_corrected\s+1\.3 Gflop/s\n")
        self.assertRegex(other, r"cer_median\s+0\.125\n")
        self.assertRegex(other, r"partners_mean\s+1\.333\n")
        self.assertRegex(other, r"msg_bytes_mean\s+4\.096 kB\n")
        self.assertRegex(other, r"nnz_total\s+36000\n")
        self.assertRegex(other, r"desync_speedup\s+-0\.0125\n")
        for shown in desync_view.SHOWN_METRICS:
            self.assertNotIn(shown, other)

    def test_trace(self):
        trace = self.trace("--include-warmup")
        self.assertEqual(trace["otherData"]["workload"], "spmv")
        self.assertEqual(trace["otherData"]["clipped_events"], 0)
        xs = x_events(trace)
        self.assertEqual({e["name"] for e in xs},
                         {"pack", "post", "local", "wait", "remote", "barrier"})
        assert_tracks_do_not_overlap(self, xs)
        # one event per phase per iteration (the barrier of the last rank is 1 us or more)
        for pid in range(3):
            mine = [e for e in xs if e["pid"] == pid]
            self.assertEqual(len(mine), 6 * 12)
        # wait lies between local_end and wait_end
        origin = trace["otherData"]["time_origin_s"]
        ix = SPMV_EVENTS["split"].index
        for e in xs:
            if e["name"] == "wait":
                r, k = e["pid"], e["args"]["iteration"] + SPMV_WARMUP
                self.assertAlmostEqual(e["ts"] / 1e6 + origin, self.events[r, k, ix("local_end")],
                                       delta=1e-8)
                self.assertAlmostEqual((e["ts"] + e["dur"]) / 1e6 + origin,
                                       self.events[r, k, ix("wait_end")], delta=1e-8)
        # rank 1's slow local part in iteration 4 makes ranks 0 and 2 wait at the barrier
        barrier = {(e["pid"], e["args"]["iteration"]): e["dur"] for e in xs
                   if e["name"] == "barrier"}
        self.assertEqual({key for key, dur in barrier.items() if dur > 500}, {(0, 4), (2, 4)})

    def test_timeline(self):
        png = self.path("spmv.png")
        code, out, err = run_view("timeline", self.h5, "-o", png)
        self.assertEqual(code, 0, err)
        blue, red, orange, light, green = png_colour_counts(
            png, (BLUE, RED, ORANGE, LIGHT_GREEN, GREEN))
        self.assertEqual(blue, 0)  # no injected delay
        self.assertGreater(red, 100)  # wait
        self.assertGreater(orange, 20)  # barrier (hatched) at iteration 4
        self.assertGreater(light, 1000)  # local part
        self.assertGreater(green, 100)  # remote part, another green
        self.assertEqual(legend_labels(self.h5), [
            "pack (send buffer)", "post (Isend/Irecv)", "local part", "wait (Waitall)",
            "remote part", "barrier"])


if __name__ == "__main__":
    unittest.main()
