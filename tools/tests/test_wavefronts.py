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
from desync.wavefronts import concurrency, iteration_classes, phase_averages, wavefronts  # noqa: E402
from synthetic_files import COMPUTE, DELAY_ITERATION, MIN_WAIT, POST, write_synthetic  # noqa: E402

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

    def test_slopes_over_steps_give_median_and_interquartile_range(self):
        # step n's front runs at (n + 1) * 1000 ranks/s: slopes 1000 .. 9000 over 9 steps
        p, n = 6, 9
        finish = np.arange(n)[None, :] * 1.0 + np.arange(p)[:, None] / (1e3 * (np.arange(n)[None, :] + 1))
        w = wavefronts(finish, np.arange(p), np.arange(n))
        self.assertAlmostEqual(w["median_slope_ranks_per_s"], 5000.0, delta=1e-6)
        np.testing.assert_allclose(w["iqr_slope_ranks_per_s"], [3000.0, 7000.0], atol=1e-6)

    def test_a_front_running_the_other_way_has_a_negative_slope(self):
        finish = np.arange(10)[None, :] * 1e-3 - np.arange(6)[:, None] * 2e-4
        w = wavefronts(finish, np.arange(6), np.arange(10), steps=[5])
        self.assertAlmostEqual(w["steps"][0]["slope_ranks_per_s"], -5e3, delta=1e-3)
        self.assertEqual(w["slowest_rank"][5], 0)


def graph(p, edges):
    from scipy.sparse import csr_matrix
    src, dst = zip(*edges)
    return csr_matrix((np.ones(len(edges)), (src, dst)), shape=(p, p))


class HopFronts(unittest.TestCase):
    """Topology-true fits (issue 29, item 4): a front that spreads from one rank at V hops/s in a
    periodic ring, a 2D process grid and an SpMV partner list (finish = n T + hops / V): the hop fit
    reads V with r = 1 from the step's earliest rank; the rank-number fit cannot."""
    V, T = 5e3, 1e-3

    def fronts(self, p, edges, hops, origin):
        finish = np.arange(6)[None, :] * self.T + np.asarray(hops, float)[:, None] / self.V
        w = wavefronts(finish, np.arange(p), np.arange(6), steps=[2], graph=graph(p, edges))
        s = w["steps"][0]
        self.assertEqual(s["origin_rank"], origin)
        self.assertAlmostEqual(s["slope_hops_per_s"] / self.V, 1.0, places=9)
        self.assertAlmostEqual(s["r_hops"], 1.0, places=9)
        self.assertAlmostEqual(w["median_slope_hops_per_s"] / self.V, 1.0, places=9)
        return s

    def test_periodic_ring(self):
        # 8 ranks, partners +-1 mod 8, a front from rank 2: hops 2,1,0,1,2,3,4,3
        p = 8
        edges = [(r, (r + d) % p) for r in range(p) for d in (1, -1)]
        hops = [min((r - 2) % p, (2 - r) % p) for r in range(p)]
        s = self.fronts(p, edges, hops, 2)
        self.assertLess(abs(s["r"]), 0.9, "along the rank numbers the ring's front is no line")

    def test_2d_grid(self):
        # a 4 x 3 stencil grid (rank = x + 4 y, open boundaries), a front from rank 0: Manhattan
        nx, ny = 4, 3
        edges = [(x + nx * y, x + dx + nx * (y + dy)) for y in range(ny) for x in range(nx)
                 for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)) if 0 <= x + dx < nx and 0 <= y + dy < ny]
        s = self.fronts(nx * ny, edges, [r % nx + r // nx for r in range(nx * ny)], 0)
        self.assertNotAlmostEqual(s["slope_ranks_per_s"] / self.V, 1.0, places=1)

    def test_spmv_partners(self):
        # a band (+-1) and a far coupling 0 <-> 4: hops from rank 0 are 0,1,2,2,1,2,3,4
        p = 8
        edges = [(r, r + d) for r in range(p) for d in (-1, 1) if 0 <= r + d < p] + [(0, 4), (4, 0)]
        self.fronts(p, edges, [0, 1, 2, 2, 1, 2, 3, 4], 0)

    def test_an_open_chain_from_rank_0_gives_both_fits_alike(self):
        p = 6
        edges = [(r, r + 1) for r in range(p - 1)]  # sends one way only: hops count edges either way
        s = self.fronts(p, edges, list(range(p)), 0)
        self.assertAlmostEqual(s["slope_ranks_per_s"], s["slope_hops_per_s"], places=6)

    def test_per_domain_fits_have_hops_too(self):
        p = 8
        edges = [(r, (r + d) % p) for r in range(p) for d in (1, -1)]
        finish = np.arange(4)[None, :] * self.T + np.arange(p)[:, None] / self.V
        w = wavefronts(finish, np.arange(p), np.arange(4), domains=np.array([0] * 4 + [1] * 4), steps=[1],
                       graph=graph(p, edges))
        dom = w["steps"][0]["per_domain"]
        self.assertEqual((dom["0"]["origin_rank"], dom["1"]["origin_rank"]), (0, 4))
        for f in dom.values():
            self.assertAlmostEqual(f["slope_hops_per_s"] / self.V, 1.0, places=9)

    def test_without_a_graph_no_hop_fit(self):
        finish = np.arange(4)[None, :] * self.T + np.arange(5)[:, None] / self.V
        w = wavefronts(finish, np.arange(5), np.arange(4), steps=[1])
        self.assertNotIn("slope_hops_per_s", w["steps"][0])
        self.assertNotIn("median_slope_hops_per_s", w)


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


class LockStepVersusWave(unittest.TestCase):
    def test_amplitude_and_idle_rules(self):
        # 4 ranks, 10 iterations of 1 ms; finish skew 0.01 ms except iteration 3 (0.5 ms skew)
        # and iteration 6, where rank 2 idles 0.4 ms more than usual (> 0.25 x 1 ms).
        p, n = 4, 10
        finish = np.arange(n)[None, :] * 1e-3 + np.arange(p)[:, None] * 1e-5 / 3
        finish[3, 3] += 0.5e-3
        excess = np.zeros((p, n))
        excess[2, 6] = 0.4e-3
        excess[1, 8] = 0.2e-3  # below the idle cut
        wave, amp, amp_cut, idle_cut = iteration_classes(finish, excess, 1e-3)
        self.assertEqual(list(np.flatnonzero(wave)), [3, 6])
        self.assertAlmostEqual(amp_cut, 0.1e-3)  # the floor: 2 x median 0.01 ms is smaller
        self.assertAlmostEqual(idle_cut, 0.25e-3)
        self.assertAlmostEqual(amp[3], 0.5e-3 + 1e-5, places=12)
        wave, _, _, _ = iteration_classes(finish, None, 1e-3)  # without idle phases
        self.assertEqual(list(np.flatnonzero(wave)), [3])

    def test_class_averages(self):
        # compute 1 ms everywhere; wait 0.1 ms in lock-step, 0.5 ms in wave iterations 1 and 3;
        # a delay (not counted) of 2 ms in iteration 3.
        b = np.zeros((2, 4))
        wait = np.array([[0.1, 0.5, 0.1, 0.5]] * 2) * 1e-3
        delay = np.full((2, 4), np.nan)
        delay[0, 3] = 2e-3
        intervals = {"compute": (b, b + 1e-3), "wait": (b + 1e-3, b + 1e-3 + wait),
                     "delay": (b + 2e-3, b + 2e-3 + delay)}
        out = phase_averages(intervals, np.array([False, True, False, True]))
        self.assertEqual(out["lock_step"]["iterations"], 2)
        self.assertEqual(out["wave_phase"]["iterations"], 2)
        self.assertAlmostEqual(out["lock_step"]["compute_s"], 1e-3)
        self.assertAlmostEqual(out["lock_step"]["communication_s"], 0.1e-3)
        self.assertAlmostEqual(out["wave_phase"]["compute_s"], 1e-3)
        self.assertAlmostEqual(out["wave_phase"]["communication_s"], 0.5e-3)

    def test_synthetic_chain(self):
        # The delay on rank 0 in iteration 8 makes rank 1 wait in 8, rank 2 in 9, rank 3 in 10:
        # those are the wave-phase iterations; every other one is lock-step, with post + the
        # minimum wait as communication and the mean of 1 ms (1 + 0.01 r) as compute.
        with tempfile.TemporaryDirectory() as d:
            path, out = os.path.join(d, "chain.h5"), os.path.join(d, "fronts.json")
            write_synthetic(path, n_ranks=4, n_iter=20)
            run = subprocess.run([sys.executable, os.path.join(TOOLS, "desync_view.py"), "wavefront", path,
                                  "--json", out], capture_output=True, text=True)
            self.assertEqual(run.returncode, 0, run.stderr)
            self.assertIn("lock-step", run.stdout)
            with open(out) as f:
                lw = json.load(f)["lockstep_vs_wave"]
        self.assertEqual(lw["wave_iterations"], [DELAY_ITERATION, DELAY_ITERATION + 1, DELAY_ITERATION + 2])
        self.assertEqual(lw["lock_step"]["iterations"], 15)
        self.assertAlmostEqual(lw["lock_step"]["compute_s"], COMPUTE * 1.015, places=12)
        self.assertAlmostEqual(lw["lock_step"]["communication_s"], POST + MIN_WAIT, places=12)
        self.assertAlmostEqual(lw["wave_phase"]["compute_s"], COMPUTE * 1.015, places=12)
        self.assertGreater(lw["wave_phase"]["communication_s"], 20 * (POST + MIN_WAIT))
        self.assertEqual(lw["communication_phases"], ["post", "wait", "barrier"])


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
