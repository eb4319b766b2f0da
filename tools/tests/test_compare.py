#!/usr/bin/env python3
"""Tests of `desync_view.py compare`: both definitions of a paired run's improvement, and the
warnings for runs that do not do the same work.

Run from the repository root with /usr/bin/python3 -m unittest discover -s tools/tests -v
"""

import os
import tempfile
import unittest

import h5py
import numpy as np

from view_helpers import run_view  # puts tools/ on sys.path
from desync.compare import improvement
from desync.errors import DesyncError
from synthetic_files import write_synthetic


def set_total_time(path, seconds, gflops=None):
    with h5py.File(path, "a") as f:
        f["metrics/total_time"][()] = np.float64(seconds)
        if gflops is not None:
            f.create_dataset("metrics/gflops", data=np.float64(gflops)).attrs["units"] = "Gflop/s"


class CompareTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.base = os.path.join(self.tmp.name, "base.h5")
        self.other = os.path.join(self.tmp.name, "other.h5")
        write_synthetic(self.base)
        write_synthetic(self.other)

    def tearDown(self):
        self.tmp.cleanup()

    def test_formulas(self):
        self.assertAlmostEqual(improvement(2.0, 1.6)[0], 0.25)
        self.assertAlmostEqual(improvement(2.0, 1.6)[1], 0.20)
        self.assertAlmostEqual(improvement(1.0, 2.0)[0], -0.5)
        with self.assertRaises(DesyncError):
            improvement(0.0, 1.0)

    def test_prints_both_and_gflops(self):
        set_total_time(self.base, 2.0, gflops=10.0)
        set_total_time(self.other, 1.6, gflops=12.5)
        code, out, err = run_view("compare", self.base, self.other)
        self.assertEqual(code, 0, err)
        self.assertRegex(out, r"improvement \(T_base / T_other - 1\)\s+\+25\.00 %")
        self.assertRegex(out, r"reduction\s+\(1 - T_other / T_base\)\s+\+20\.00 %")
        self.assertRegex(out, r"performance \(P_other / P_base - 1\)\s+\+25\.00 %")
        self.assertNotIn("warning", out)

    def test_warns_when_the_work_differs(self):
        with h5py.File(self.other, "a") as f:
            f.attrs["iterations"] = np.int64(int(f.attrs["iterations"]) + 5)
        code, out, err = run_view("compare", self.base, self.other)
        self.assertEqual(code, 0, err)
        self.assertIn("warning: iterations differs", err)

    def test_not_a_desync_file(self):
        bogus = os.path.join(self.tmp.name, "x.h5")
        with h5py.File(bogus, "w") as f:
            f.attrs["format"] = "other"
        code, out, err = run_view("compare", self.base, bogus)
        self.assertEqual(code, 2)
        self.assertIn("not a desync output file", err)


if __name__ == "__main__":
    unittest.main()
