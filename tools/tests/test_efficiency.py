"""POP efficiencies (desync.efficiency) on hand-made work intervals with known answers, and the
command on a synthetic file."""
import os
import subprocess
import sys
import tempfile
import unittest

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.dirname(__file__))
from desync.efficiency import pop  # noqa: E402
from synthetic_files import write_synthetic  # noqa: E402

TOOLS = os.path.join(os.path.dirname(__file__), "..")


class Pop(unittest.TestCase):
    def test_known_load_balance_and_communication_efficiency(self):
        # 3 ranks, 2 iterations in a 10 s span: useful 8, 6 and 4 s (compute + local).
        b = np.array([[0.0, 5.0], [0.0, 5.0], [0.0, 5.0]])
        compute = (b, b + np.array([[4.0, 3.0], [3.0, 2.0], [2.0, 1.0]]))
        local = (b, b + np.array([[0.5, 0.5], [0.5, 0.5], [0.5, 0.5]]))
        wait = (b + 4, b + 5)
        r = pop({"compute": compute, "local": local, "wait": wait}, 10.0)
        np.testing.assert_allclose(r["useful_s"], [8.0, 6.0, 4.0])
        self.assertAlmostEqual(r["load_balance"], 6.0 / 8.0)
        self.assertAlmostEqual(r["communication_efficiency"], 0.8)
        self.assertAlmostEqual(r["parallel_efficiency"], 0.6)

    def test_no_work_phase_gives_none(self):
        b = np.zeros((2, 1))
        self.assertIsNone(pop({"wait": (b, b + 1)}, 1.0))

    def test_command(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "chain.h5")
            write_synthetic(path, n_ranks=6, n_iter=20)
            run = subprocess.run([sys.executable, os.path.join(TOOLS, "desync_view.py"), "efficiency", path],
                                 capture_output=True, text=True)
            self.assertEqual(run.returncode, 0, run.stderr)
            self.assertIn("load balance", run.stdout)
            pe = float(run.stdout.split("parallel efficiency")[1].split()[0])
            self.assertTrue(0.0 < pe <= 1.0)


if __name__ == "__main__":
    unittest.main()
