"""Idle waves (desync.idle_waves): source, speed, decay and sigma_eff from timelines, on the
synthetic triad chain (a delay on rank 0 travels up one rank per iteration) and on hand-made
idle matrices with a known wave."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

import h5py
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.dirname(__file__))
from desync.idle_waves import analyse, detect  # noqa: E402
from synthetic_files import DELAY_ITERATION, DELAY_RANK, write_synthetic  # noqa: E402

TOOLS = os.path.join(os.path.dirname(__file__), "..")


class SyntheticChain(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.TemporaryDirectory()
        cls.path = os.path.join(cls.dir.name, "chain.h5")
        write_synthetic(cls.path, n_ranks=12, n_iter=30)
        with h5py.File(cls.path, "r") as f:
            cls.result = analyse(f)

    @classmethod
    def tearDownClass(cls):
        cls.dir.cleanup()

    def test_source_is_the_recorded_delay(self):
        self.assertEqual(self.result["source"], {"rank": DELAY_RANK, "iteration": DELAY_ITERATION, "given": True})

    def test_the_wave_travels_up_one_rank_per_iteration(self):
        up, down = self.result["waves"]
        self.assertEqual(up["reached"], 11, "every rank above the source")
        self.assertEqual(down["reached"], 0, "nothing below rank 0")
        self.assertAlmostEqual(up["speed_ranks_per_iteration"], 1.0, places=6)
        self.assertGreater(up["speed_r2"], 0.99)
        iterations = [p["iteration"] for p in up["points"]]
        self.assertEqual(iterations, list(range(DELAY_ITERATION, DELAY_ITERATION + 11)))

    def test_speed_in_ranks_per_second_is_one_rank_per_iteration_time(self):
        up = self.result["waves"][0]
        expected = 1.0 / self.result["iteration_time_s"]
        self.assertLess(abs(up["speed_ranks_per_s"] / expected - 1), 0.1)
        self.assertLess(abs(up["sigma_eff"] - 1), 0.1, "one rank per iteration over distance 1")

    def test_command_line_writes_json(self):
        out = os.path.join(self.dir.name, "waves.json")
        run = subprocess.run([sys.executable, os.path.join(TOOLS, "desync_view.py"), "idlewave", self.path,
                              "--json", out], capture_output=True, text=True)
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertIn("ranks/iteration", run.stdout)
        with open(out) as f:
            data = json.load(f)
        self.assertEqual(data["waves"][0]["reached"], 11)


class HandMadeWave(unittest.TestCase):
    def test_detects_a_symmetric_decaying_wave_without_a_source(self):
        # 21 ranks, 40 iterations of 1 ms; a delay on rank 10 at iteration 5 makes rank 10 +- d
        # idle at iteration 4 + d for 2 ms - 0.1 ms * d (decaying), plus small noise.
        rng = np.random.default_rng(1)
        p, n, r0, k0 = 21, 40, 10, 5
        idle = 1e-5 * rng.random((p, n))
        end = np.arange(n)[None, :] * 1e-3 + np.zeros((p, 1))
        for d in range(1, 10):
            for r in (r0 - d, r0 + d):
                idle[r, k0 + d - 1] += 2e-3 - 1e-4 * d
        res = detect(idle, end, np.arange(p), np.arange(n))
        self.assertEqual(res["source"]["rank"], r0)
        self.assertFalse(res["source"]["given"])
        for w in res["waves"]:
            self.assertGreaterEqual(w["reached"], 9)
            self.assertAlmostEqual(w["speed_ranks_per_iteration"], 1.0, places=6)
            self.assertAlmostEqual(w["speed_ranks_per_s"], 1000.0, delta=1.0)
            self.assertAlmostEqual(w["decay_s_per_rank"], -1e-4, delta=1e-5)

    def test_no_idle_period_is_an_error(self):
        from desync.errors import DesyncError

        with self.assertRaises(DesyncError):
            detect(np.ones((4, 10)), np.zeros((4, 10)), np.arange(4), np.arange(10))


if __name__ == "__main__":
    unittest.main()
