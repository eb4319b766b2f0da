"""Computational wavefronts and concurrency (desync.wavefronts) on hand-made finish times and
work intervals with known slopes and counts, and the command on a synthetic file."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.dirname(__file__))
from desync.wavefronts import concurrency, wavefronts  # noqa: E402
from synthetic_files import write_synthetic  # noqa: E402

TOOLS = os.path.join(os.path.dirname(__file__), "..")


class Fronts(unittest.TestCase):
    def test_a_linear_front_has_its_slope_r_and_amplitude(self):
        # 8 ranks, rank r finishes step n at n ms + 0.1 ms r: 10,000 ranks/s, skew 0.7 ms.
        p, n = 8, 20
        finish = np.arange(n)[None, :] * 1e-3 + np.arange(p)[:, None] * 1e-4
        w = wavefronts(finish, np.arange(p), np.arange(n), domains=np.array([0] * 4 + [1] * 4), steps=[3, 7])
        self.assertEqual([s["iteration"] for s in w["steps"]], [3, 7])
        for s in w["steps"]:
            self.assertAlmostEqual(s["slope_ranks_per_s"], 1e4, delta=1e-3)
            self.assertAlmostEqual(s["r"], 1.0, places=9)
            self.assertAlmostEqual(s["amplitude_s"], 7e-4, places=12)
            self.assertEqual(set(s["per_domain"]), {"0", "1"})
            for f in s["per_domain"].values():
                self.assertAlmostEqual(f["slope_ranks_per_s"], 1e4, delta=1e-3)
        self.assertAlmostEqual(w["median_slope_ranks_per_s"], 1e4, delta=1e-3)
        self.assertEqual(w["slowest_rank"], [p - 1] * n, "the last rank finishes every step last")

    def test_a_front_running_the_other_way_has_a_negative_slope(self):
        finish = np.arange(10)[None, :] * 1e-3 - np.arange(6)[:, None] * 2e-4
        w = wavefronts(finish, np.arange(6), np.arange(10), steps=[5])
        self.assertAlmostEqual(w["steps"][0]["slope_ranks_per_s"], -5e3, delta=1e-3)
        self.assertEqual(w["slowest_rank"][5], 0)


class Concurrency(unittest.TestCase):
    def test_counts_ranks_in_work_phases_per_domain(self):
        # 4 ranks over [0, 1) s: ranks 0 and 1 compute all the time (domain 0), rank 2 the first
        # half (domain 1), rank 3 never (it waits).
        b = np.array([[0.0], [0.0], [0.0], [np.nan]])
        e = np.array([[1.0], [1.0], [0.5], [np.nan]])
        c = concurrency({"compute": (b, e), "wait": (e, e + 1)}, np.array([0, 0, 1, 1]), 0.0, 0.999, samples=1000)
        self.assertEqual(c["0"], {"ranks": 2, "mean": 2.0, "min": 2, "max": 2})
        self.assertAlmostEqual(c["1"]["mean"], 0.5, delta=0.01)
        self.assertEqual((c["1"]["min"], c["1"]["max"]), (0, 1))


class Command(unittest.TestCase):
    def test_wavefront_command_writes_json(self):
        with tempfile.TemporaryDirectory() as d:
            path, out = os.path.join(d, "chain.h5"), os.path.join(d, "fronts.json")
            write_synthetic(path, n_ranks=6, n_iter=20)
            run = subprocess.run([sys.executable, os.path.join(TOOLS, "desync_view.py"), "wavefront", path, "--steps", "2,4",
                                  "--json", out], capture_output=True, text=True)
            self.assertEqual(run.returncode, 0, run.stderr)
            self.assertIn("ranks/s", run.stdout)
            with open(out) as f:
                data = json.load(f)
            self.assertEqual([s["iteration"] for s in data["wavefront"]["steps"]], [2, 4])
            self.assertIn("0", data["concurrency"])


if __name__ == "__main__":
    unittest.main()
