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
import h5py  # noqa: E402

from desync.efficiency import dependencies, ideal_replay, pop, serialization_transfer  # noqa: E402
from desync.efficiency import analyse  # noqa: E402
from synthetic_files import COMPUTE, DELAY, write_synthetic  # noqa: E402

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

    def test_parked_ranks_are_left_out_of_the_balance(self):
        # 3 active ranks (useful 3, 6, 9 s in a 9 s span) and one parked rank: every event NaN.
        b = np.array([[0.0], [0.0], [0.0], [np.nan]])
        compute = (b, b + np.array([[3.0], [6.0], [9.0], [np.nan]]))
        r = pop({"compute": compute}, 9.0)
        self.assertAlmostEqual(r["load_balance"], 6.0 / 9.0)
        self.assertAlmostEqual(r["parallel_efficiency"], 6.0 / 9.0)
        np.testing.assert_allclose(r["useful_s"], [3.0, 6.0, 9.0, 0.0])

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
            ser = float(run.stdout.split("serialization efficiency")[1].split()[0])
            te = float(run.stdout.split("transfer efficiency")[1].split()[0])
            comm = float(run.stdout.split("communication efficiency")[1].split()[0])
            self.assertAlmostEqual(ser * te, comm, delta=2e-3)


class SerializationTransfer(unittest.TestCase):
    """The ideal-network replay (module doc of desync.efficiency) on hand-made useful times."""

    def test_two_ranks_with_alternating_imbalance_serialize(self):
        # u = [2,1,2,1] and [1,2,1,2], partners of each other: the replay ends the iterations
        # at [2,1], [3,4], [6,5], [7,8]: T_ideal 8 against 6 s of useful time per rank.
        u = np.array([[2.0, 1.0, 2.0, 1.0], [1.0, 2.0, 1.0, 2.0]])
        dep = dependencies(np.arange(2), np.array([[1], [0]]))
        r = serialization_transfer(u, u, dep, np.zeros(4, bool), 10.0)
        self.assertAlmostEqual(r["ideal_time_s"], 8.0)
        self.assertAlmostEqual(r["serialization_efficiency"], 0.75)
        self.assertAlmostEqual(r["transfer_efficiency"], 0.8)
        self.assertAlmostEqual(r["communication_efficiency_product"], 0.6)

    def test_the_same_ranks_without_partners_do_not_serialize(self):
        u = np.array([[2.0, 1.0, 2.0, 1.0], [1.0, 2.0, 1.0, 2.0]])
        dep = dependencies(np.arange(2), np.array([[-1], [-1]]))
        r = serialization_transfer(u, u, dep, np.zeros(4, bool), 6.0)
        self.assertAlmostEqual(r["serialization_efficiency"], 1.0)
        self.assertAlmostEqual(r["transfer_efficiency"], 1.0)

    def test_perfect_balance_gives_one(self):
        u = np.full((4, 5), 0.5)
        dep = dependencies(np.arange(4), None)  # no /comm: everybody waits for everybody
        self.assertTrue(dep.all())
        r = serialization_transfer(u, u, dep, np.ones(5, bool), 5.0)
        self.assertAlmostEqual(r["serialization_efficiency"], 1.0)
        self.assertAlmostEqual(r["transfer_efficiency"], 0.5)

    def test_a_global_synchronization_waits_for_every_rank(self):
        # chain 0 <- 1 <- 2 (rank r receives from r - 1); rank 2 is slow in iteration 0.
        u = np.array([[1.0, 1.0], [1.0, 1.0], [3.0, 1.0]])
        dep = dependencies(np.arange(3), np.array([[-1], [0], [1]]))
        local = ideal_replay(u, dep, np.zeros(2, bool))
        np.testing.assert_allclose(local[:, 1], [2.0, 2.0, 4.0])
        glob = ideal_replay(u, dep, np.array([True, False]))
        np.testing.assert_allclose(glob[:, 1], [4.0, 4.0, 4.0])

    def test_partners_outside_the_window_are_ignored(self):
        dep = dependencies(np.array([2, 3]), np.array([[-1], [0], [1], [2]]))
        np.testing.assert_array_equal(dep, [[True, False], [True, True]])

    def test_synthetic_chain_known_critical_path(self):
        # The synthetic chain: rank r computes 1 ms (1 + 0.01 r) per iteration and receives
        # from r - 1; rank 0 has a 5 ms delay in measured iteration 8. Over the 18 measured
        # iterations the critical path stays on rank 0 through iteration 8 (9 x 1.00 ms + the
        # delay), steps to rank 1, 2, 3 in iterations 9, 10, 11 and stays on rank 3 (7 x
        # 1.03 ms): T_ideal = 23.24 ms; the largest useful time is rank 3's 18 x 1.03 ms.
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "chain.h5")
            write_synthetic(path, n_ranks=4, n_iter=20)
            with h5py.File(path, "r") as f:
                r = analyse(f)
        t_ideal = COMPUTE * (9 * 1.00 + 1.01 + 1.02 + 7 * 1.03) + DELAY
        self.assertAlmostEqual(r["ideal_time_s"], t_ideal, places=12)
        self.assertAlmostEqual(r["serialization_efficiency"], 18 * 1.03 * COMPUTE / t_ideal, places=9)
        self.assertAlmostEqual(r["transfer_efficiency"], t_ideal / r["span_s"], places=9)
        self.assertAlmostEqual(r["serialization_efficiency"] * r["transfer_efficiency"],
                               r["communication_efficiency"], places=9)
        self.assertEqual(r["replay"]["replayed_phases"], ["compute", "delay"])
        self.assertEqual(r["replay"]["global_iterations"], 0)


if __name__ == "__main__":
    unittest.main()
