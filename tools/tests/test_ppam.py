"""The PPAM'22 set (desync.ppam) on hand-made idle patterns with known correlations, phase
space and clusters, and the command on synthetic files."""
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
from desync.ppam import analyse, correlation, domain_histograms, phase_space, zscore_rows  # noqa: E402
from desync.window import select_window  # noqa: E402
from synthetic_files import POST, write_synthetic_idle  # noqa: E402

TOOLS = os.path.join(os.path.dirname(__file__), "..")


def two_groups(n_iter=12):
    """8 ranks: ranks 0-3 idle 1 ms in even iterations, ranks 4-7 in odd ones (anti-correlated
    groups), plus a small rank-dependent idle in iteration 5 so that no two ranks are equal."""
    idle = np.zeros((8, n_iter))
    idle[:4, ::2] = 1e-3
    idle[4:, 1::2] = 1e-3
    idle[:, 5] += 0.05e-3 * np.arange(8)
    return idle


class Pieces(unittest.TestCase):
    def test_zscore_per_rank_and_constant_rows(self):
        z = zscore_rows(np.array([[1.0, 2.0, 3.0], [5.0, 5.0, 5.0]]))
        np.testing.assert_allclose(z, [[-np.sqrt(1.5), 0.0, np.sqrt(1.5)], [0.0, 0.0, 0.0]])

    def test_correlation_with_a_constant_row(self):
        x = np.array([[1.0, 0, 1, 0], [0, 1, 0, 1], [2, 0, 2, 0], [3, 3, 3, 3]])
        c, constant = correlation(x)
        self.assertEqual(list(constant), [3])
        self.assertAlmostEqual(c[0, 1], -1.0)
        self.assertAlmostEqual(c[0, 2], 1.0)
        self.assertTrue(np.isnan(c[3, :3]).all() and np.isnan(c[:3, 3]).all())
        np.testing.assert_array_equal(np.diag(c), 1.0)

    def test_histograms_share_edges(self):
        h = domain_histograms(np.array([[0.0, 1.0], [2.0, 3.0], [3.0, 3.0]]), [0, 0, 1], bins=3)
        np.testing.assert_allclose(h["edges_s"], [0.0, 1.0, 2.0, 3.0])
        self.assertEqual(h["domains"], {"0": [1, 1, 2], "1": [0, 0, 2]})

    def test_phase_space_lag1(self):
        m = np.array([[1.0, 2.0, 1.0, 2.0, 1.0], [1.0, 2.0, 3.0, 4.0, 5.0], [4.0, 4.0, 4.0, 4.0, 4.0]])
        ps = phase_space(m)
        self.assertAlmostEqual(ps["lag1_per_rank"][0], -1.0)
        self.assertAlmostEqual(ps["lag1_per_rank"][1], 1.0)
        self.assertTrue(np.isnan(ps["lag1_per_rank"][2]))
        self.assertEqual(ps["points"], 12)
        self.assertNotIn("note", ps)

    def test_phase_space_pairs_only_consecutive_iterations(self):
        # Every 2nd iteration kept ([record] stride = 2): M(n) vs M(n + 2) is not lag 1, no pair.
        m = np.array([[1.0, 2.0, 1.0, 2.0], [1.0, 2.0, 3.0, 4.0]])
        ps = phase_space(m, [0, 2, 4, 6])
        self.assertEqual(ps["points"], 0)
        self.assertTrue(np.isnan(ps["lag1_overall"]))
        self.assertIn("0 of 3", ps["note"])
        # A window with one gap: the pairs on either side only (columns 0-1 and 2-3).
        ps = phase_space(np.array([[1.0, 2.0, 5.0, 1.0], [1.0, 2.0, 0.0, 3.0]]), [0, 1, 5, 6])
        self.assertEqual(ps["points"], 4)
        self.assertAlmostEqual(ps["lag1_overall"], float(np.corrcoef([1.0, 5.0, 1.0, 0.0], [2.0, 1.0, 2.0, 3.0])[0, 1]))


class Analysis(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.path = os.path.join(self.dir.name, "groups.h5")

    def tearDown(self):
        self.dir.cleanup()

    def run_analysis(self, k=None, **kw):
        write_synthetic_idle(self.path, two_groups(), **kw)
        with h5py.File(self.path, "r") as f:
            return analyse(f, select_window(f), k)

    def test_two_sockets_give_two_clusters_matching_the_domains(self):
        r = self.run_analysis(domains=[0] * 4 + [1] * 4, packages=[0] * 4 + [1] * 4)
        c = np.asarray(r["correlation"])
        self.assertGreater(c[:4, :4].min(), 0.95)
        self.assertGreater(c[4:, 4:].min(), 0.95)
        self.assertLess(c[:4, 4:].max(), -0.9)
        self.assertEqual(r["k_source"], "sockets (/topology/thread_package)")
        cl = r["clustering"]
        self.assertEqual(cl["k"], 2)
        labels = cl["labels"]
        self.assertEqual(len(set(labels[:4])), 1)
        self.assertEqual(len(set(labels[4:])), 1)
        self.assertNotEqual(labels[0], labels[4])
        self.assertAlmostEqual(cl["ari_domains"], 1.0)
        self.assertAlmostEqual(cl["ari_sockets"], 1.0)
        self.assertEqual(cl["negative_silhouette_ranks"], 0)
        scan = cl["silhouette_by_k"]
        self.assertEqual(sorted(scan), [str(k) for k in range(2, 8)])
        self.assertEqual(max(scan, key=scan.get), "2")
        self.assertAlmostEqual(cl["silhouette"], scan["2"])
        self.assertGreater(cl["explained_variance_ratio"][0], 0.9)
        # MPI time = post + wait; alternating idle: the phase space is anti-correlated
        np.testing.assert_allclose(np.asarray(r["mpi_s"]), two_groups() + POST, atol=1e-12)
        self.assertLess(r["phase_space"]["lag1_overall"], -0.9)
        self.assertEqual(sum(r["histograms"]["mpi"]["domains"]["0"]), 4 * 12)

    def test_without_packages_k_is_the_number_of_domains_and_k_overrides(self):
        r = self.run_analysis(domains=[0] * 4 + [1] * 4, packages=[-1] * 8)
        self.assertEqual(r["k_source"], "contention domains (/topology/contention_domain)")
        self.assertEqual(r["clustering"]["k"], 2)
        self.assertIsNone(r["clustering"].get("ari_sockets"), "no socket is known")
        r = self.run_analysis(k=3, domains=[0] * 4 + [1] * 4, packages=[0] * 4 + [1] * 4)
        self.assertEqual(r["clustering"]["k"], 3)
        self.assertEqual(len(set(r["clustering"]["labels"])), 3)

    def test_constant_idle_times_do_not_break_it(self):
        write_synthetic_idle(self.path, np.zeros((4, 6)))
        with h5py.File(self.path, "r") as f:
            r = analyse(f, select_window(f))
        self.assertEqual(r["constant_idle_ranks"], [0, 1, 2, 3])
        self.assertIsNone(r["correlation_mean_offdiagonal"])
        self.assertEqual(r["clustering"]["k"], 1)
        self.assertIsNone(r["clustering"]["silhouette"])

    def test_silhouette_panel_says_a_chosen_k_without_a_bar(self):
        from desync.ppam import draw_panels
        import matplotlib.pyplot as plt
        for k, said in ((1, "chosen k = 1: one cluster has no silhouette"), (2, "red: chosen k = 2"),
                        (8, "chosen k = 8: beyond the scan")):
            r = self.run_analysis(k=k, domains=[0] * 4 + [1] * 4, packages=[0] * 4 + [1] * 4)
            fig = draw_panels(r, "t")
            self.assertIn(said, [a.get_title() for a in fig.axes
                                if a.get_xlabel() == "k"][0])
            plt.close(fig)

    def test_command_writes_panels_and_json(self):
        write_synthetic_idle(self.path, two_groups(), domains=[0] * 4 + [1] * 4, packages=[0] * 4 + [1] * 4)
        png, out = os.path.join(self.dir.name, "p.png"), os.path.join(self.dir.name, "p.json")
        run = subprocess.run([sys.executable, os.path.join(TOOLS, "desync_view.py"), "ppam", self.path,
                              "-o", png, "--json", out, "--ranks", "0:6"], capture_output=True, text=True)
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertIn("adjusted Rand index", run.stdout)
        self.assertGreater(os.path.getsize(png), 20000)
        with open(out) as f:
            data = json.load(f)  # strict JSON: NaN would not parse back as None
        self.assertEqual(data["ranks"], [0, 1, 2, 3, 4, 5])
        self.assertEqual(len(data["correlation"]), 6)
        self.assertEqual(data["clustering"]["k"], 2)


if __name__ == "__main__":
    unittest.main()
