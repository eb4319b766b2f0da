"""Concurrency per contention domain over time (desync.concurrency_plot): the series equal
known counts on hand-made intervals and a brute-force count on the synthetic chain, agree with
wavefronts.concurrency's mean, and the command draws and writes JSON."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.dirname(__file__))
from desync.concurrency_plot import concurrency_series, cpuset_cpus, domain_cores  # noqa: E402
from desync.h5file import open_output  # noqa: E402
from desync.phases import phase_intervals  # noqa: E402
from desync.timeline import Timeline, read_timeline  # noqa: E402
from desync.wavefronts import concurrency  # noqa: E402
from desync.window import Window, select_window  # noqa: E402
from synthetic_files import WARMUP, set_domains, write_synthetic  # noqa: E402

TOOLS = os.path.join(os.path.dirname(__file__), "..")


class Series(unittest.TestCase):
    def test_hand_made_intervals_give_the_known_counts(self):
        # one iteration each: rank 0 computes [0, 4), rank 1 [1, 3), rank 2 [2, 6), then waits
        # 1 s; ranks 0, 1 in domain 5, rank 2 in domain 9.
        b = np.array([0.0, 1.0, 2.0])
        e = np.array([4.0, 3.0, 6.0])
        events = np.stack([b, e, e + 1.0], axis=1)[:, None, :]
        tl = Timeline(events, ["compute_begin", "compute_end", "wait_end"], Window([0, 1, 2], [0]), [False],
                      ["h"] * 3)
        times = np.array([-0.5, 0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5])
        s = concurrency_series(phase_intervals(tl), [5, 5, 9], times)
        self.assertEqual(sorted(s), [5, 9])
        np.testing.assert_array_equal(s[5], [0, 1, 2, 2, 1, 0, 0, 0])
        np.testing.assert_array_equal(s[9], [0, 0, 0, 1, 1, 1, 1, 0])
        # an interval is [begin, end): at t = 4.0 rank 0 has stopped, rank 2 is still busy
        s = concurrency_series(phase_intervals(tl), [5, 5, 9], np.array([0.0, 3.0, 4.0]))
        np.testing.assert_array_equal(s[5], [1, 1, 0])

    def test_synthetic_chain_equals_a_brute_force_count(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "chain.h5")
            ev = write_synthetic(path, n_ranks=6, n_iter=16)
            with open_output(path) as f:
                tl = read_timeline(f, select_window(f))
            domains = np.array([0, 0, 0, 1, 1, 1])
            intervals = phase_intervals(tl)
            t0, t1 = float(np.nanmin(tl.events)), float(np.nanmax(tl.events))
            times = np.linspace(t0, t1, 997)
            s = concurrency_series(intervals, domains, times)
            begin, end = ev[:, WARMUP:, 0], ev[:, WARMUP:, 1]  # compute_begin, compute_end
            for dom, ranks in ((0, range(3)), (1, range(3, 6))):
                brute = [sum(1 for r in ranks if any(begin[r, k] <= t < end[r, k] for k in range(begin.shape[1])))
                         for t in times]
                np.testing.assert_array_equal(s[dom], brute)
            # the same instants as wavefronts.concurrency: the same mean, min and max
            agg = concurrency(intervals, domains, t0, t1, 997)
            for dom in (0, 1):
                self.assertAlmostEqual(agg[str(dom)]["mean"], float(s[dom].mean()), places=12)
                self.assertEqual((agg[str(dom)]["min"], agg[str(dom)]["max"]), (int(s[dom].min()), int(s[dom].max())))

    def test_cores_from_cpusets(self):
        self.assertEqual(cpuset_cpus("0-3,8"), {0, 1, 2, 3, 8})
        self.assertEqual(cpuset_cpus("5"), {5})
        self.assertIsNone(cpuset_cpus("garbage"))
        self.assertEqual(domain_cores(["0-3", "2-5", "8-9"], [0, 0, 1]), {0: 6, 1: 2})
        self.assertEqual(domain_cores(["0-3", ""], [0, 0]), {0: None})


class Command(unittest.TestCase):
    def test_concurrency_command_draws_and_writes_json(self):
        with tempfile.TemporaryDirectory() as d:
            path, png, out = (os.path.join(d, n) for n in ("chain.h5", "conc.png", "conc.json"))
            write_synthetic(path, n_ranks=8, n_iter=20)
            set_domains(path, [1024] * 4 + [1025] * 4)
            view = os.path.join(TOOLS, "desync_view.py")
            run = subprocess.run([sys.executable, view, "concurrency", path, "-o", png, "--samples", "400",
                                  "--saturation", "3", "--json", out], capture_output=True, text=True)
            self.assertEqual(run.returncode, 0, run.stderr)
            self.assertIn("domain 1024 (node 1, NUMA 0, 4 ranks, 8 cores)", run.stdout)
            self.assertGreater(os.path.getsize(png), 5000)
            with open(out) as f:
                data = json.load(f)
            self.assertEqual(data["samples"], 400)
            self.assertEqual(len(data["times_s"]), 400)
            self.assertEqual(set(data["domains"]), {"1024", "1025"})
            for dom in data["domains"].values():
                self.assertEqual((dom["ranks"], dom["cores"]), (4, 8))  # synthetic cpusets: 2 CPUs per rank
                self.assertEqual(len(dom["series"]), 400)
                self.assertAlmostEqual(dom["mean"], float(np.mean(dom["series"])), places=12)
                self.assertLessEqual(max(dom["series"]), 4)
            run = subprocess.run([sys.executable, view, "concurrency", path, "-o", png, "--saturation", "0"],
                                 capture_output=True, text=True)
            self.assertEqual(run.returncode, 2)
            self.assertIn("argument --saturation: '0': allowed: a finite number > 0", run.stderr)


if __name__ == "__main__":
    unittest.main()
