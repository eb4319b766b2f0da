"""Overlap in the OSU and IMB-NBC definitions (desync.overlap) on synthetic toy files with known
phase times, and the errors for files that cannot give it."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.dirname(__file__))
from desync.errors import DesyncError  # noqa: E402
from desync.overlap import analyse, overlap, overlap_imb, overlap_osu  # noqa: E402
from desync.timeline import Timeline  # noqa: E402
from desync.window import Window  # noqa: E402
from synthetic_files import (TOY_PART1, TOY_POST, TOY_PURE_WAIT, toy_wait, write_synthetic,  # noqa: E402
                             write_synthetic_spmv, write_synthetic_toy)

TOOLS = os.path.join(os.path.dirname(__file__), "..")

# The synthetic overlap toy: post 1 ms, part 1 (compute) 6 ms, wait 0.5 r ms; the no-overlap toy:
# post 1 ms, wait 4 ms. So t_overall = 7 + 0.5 r ms, t_compute = 6 ms, t_pure = 5 ms and
#   OSU     = 1 - (t_overall - t_compute) / t_pure      = 1 - (1 + 0.5 r) / 5  = 80, 70, 60, 50 %
#   IMB-NBC = (t_pure + t_compute - t_overall) / max(t_pure, t_compute) = (4 - 0.5 r) / 6
#           = 66.7, 58.3, 50, 41.7 %
OSU = [100 * (1 - (TOY_POST + toy_wait(r)) / (TOY_POST + TOY_PURE_WAIT)) for r in range(4)]
IMB = [100 * (TOY_POST + TOY_PURE_WAIT - TOY_POST - toy_wait(r)) / TOY_PART1 for r in range(4)]


class Formulas(unittest.TestCase):
    def test_osu_and_imb_on_numbers(self):
        self.assertAlmostEqual(float(overlap_osu(7.0, 6.0, 5.0)), 0.8)
        self.assertAlmostEqual(float(overlap_imb(7.0, 6.0, 5.0)), 4.0 / 6.0)
        # nothing hidden: the section is compute + pure communication
        self.assertAlmostEqual(float(overlap_osu(11.0, 6.0, 5.0)), 0.0)
        self.assertAlmostEqual(float(overlap_imb(11.0, 6.0, 5.0)), 0.0)
        # everything hidden behind a longer compute: OSU 100 %; IMB's max(t_pure, t_CPU) in the
        # denominator caps it at t_pure / t_CPU (5/6); with t_pure >= t_CPU both reach 100 %
        self.assertAlmostEqual(float(overlap_osu(6.0, 6.0, 5.0)), 1.0)
        self.assertAlmostEqual(float(overlap_imb(6.0, 6.0, 5.0)), 5.0 / 6.0)
        self.assertAlmostEqual(float(overlap_imb(5.0, 5.0, 5.0)), 1.0)
        self.assertAlmostEqual(float(overlap_osu(5.0, 5.0, 5.0)), 1.0)
        # slower than compute + pure: clipped at 0
        self.assertAlmostEqual(float(overlap_osu(13.0, 6.0, 5.0)), 0.0)


class Files(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.over = os.path.join(self.dir.name, "overlap.h5")
        self.pure = os.path.join(self.dir.name, "nooverlap.h5")
        write_synthetic_toy(self.over, overlap=True)
        write_synthetic_toy(self.pure, overlap=False)

    def tearDown(self):
        self.dir.cleanup()

    def check_known(self, r):
        np.testing.assert_allclose([x["osu_percent"] for x in r["per_rank"]], OSU, atol=1e-9)
        np.testing.assert_allclose([x["imb_nbc_percent"] for x in r["per_rank"]], IMB, atol=1e-9)
        self.assertAlmostEqual(r["osu_percent"]["min"], 50.0, places=9)
        self.assertAlmostEqual(r["osu_percent"]["mean"], 65.0, places=9)
        self.assertAlmostEqual(r["osu_percent"]["max"], 80.0, places=9)
        self.assertEqual((r["osu_percent"]["argmin_rank"], r["osu_percent"]["argmax_rank"]), (3, 0))
        self.assertAlmostEqual(r["imb_nbc_percent"]["mean"], float(np.mean(IMB)), places=9)
        self.assertAlmostEqual(r["t_compute_s"]["mean"], TOY_PART1, places=12)
        self.assertAlmostEqual(r["t_pure_s"]["mean"], TOY_POST + TOY_PURE_WAIT, places=12)
        self.assertAlmostEqual(r["t_overall_s"]["max"], TOY_POST + TOY_PART1 + toy_wait(3), places=12)
        self.assertEqual(r["compute_phases"], ["part1"])

    def test_paired_run_gives_t_pure(self):
        r = analyse(self.over, self.pure)
        self.check_known(r)
        self.assertIn("paired run", r["t_pure_source"])
        self.assertEqual(r["overlapped_sections"], 4 * 8)

    def test_the_same_files_sections_without_compute_give_t_pure(self):
        path = os.path.join(self.dir.name, "mixed.h5")
        write_synthetic_toy(path, overlap=True, plain=(2, 5))
        r = analyse(path)
        self.check_known(r)
        self.assertIn("this file", r["t_pure_source"])
        self.assertEqual(r["overlapped_sections"], 4 * 6)

    def test_a_paired_run_with_other_ranks_gives_its_mean(self):
        pure2 = os.path.join(self.dir.name, "nooverlap2.h5")
        write_synthetic_toy(pure2, overlap=False, n_ranks=2)
        r = analyse(self.over, pure2)
        self.check_known(r)
        self.assertEqual(len(r["notes"]), 1)

    def test_a_paired_run_of_another_workload_is_noted(self):
        spmv = os.path.join(self.dir.name, "nonsplit.h5")
        write_synthetic_spmv(spmv, scheme="nonsplit")  # post, wait, then the local part
        r = analyse(self.over, spmv)
        self.assertTrue(any("spmv run, this one toy" in n for n in r["notes"]), r["notes"])

    def test_no_t_pure_is_an_error(self):
        with self.assertRaisesRegex(DesyncError, "--pure"):
            analyse(self.over)
        with self.assertRaisesRegex(DesyncError, "without compute"):
            analyse(self.over, self.over)

    def test_nothing_between_post_and_wait_is_an_error(self):
        with self.assertRaisesRegex(DesyncError, "no work phase between post and wait"):
            analyse(self.pure, self.pure)
        triad = os.path.join(self.dir.name, "triad.h5")
        write_synthetic(triad)
        with self.assertRaisesRegex(DesyncError, "no work phase between post and wait"):
            analyse(triad)

    def test_no_post_wait_sequence_is_an_error(self):
        ev = np.array([[[0.0, 1.0, 1.5]]])
        tl = Timeline(ev, ["begin", "product_end", "reduce_bcast_end"], Window([0], [0]), [False], ["h"])
        with self.assertRaisesRegex(DesyncError, "no post .. wait sequence"):
            overlap(tl)

    def test_command(self):
        out = os.path.join(self.dir.name, "o.json")
        view = os.path.join(TOOLS, "desync_view.py")
        run = subprocess.run([sys.executable, view, "overlap", self.over, "--pure", self.pure, "--json", out],
                             capture_output=True, text=True)
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertIn("overlap (OSU)", run.stdout)
        self.assertIn("overlap (IMB-NBC)", run.stdout)
        with open(out) as f:
            self.check_known(json.load(f))
        run = subprocess.run([sys.executable, view, "overlap", self.over], capture_output=True, text=True)
        self.assertEqual(run.returncode, 2)
        self.assertIn("--pure", run.stderr)


if __name__ == "__main__":
    unittest.main()
