"""The ranks as coupled oscillators (desync.synchrony, `desync-view synchrony`): lock-step gives
order parameter 1, entropy 0, no spread or gradient; phases spread evenly over an iteration give
order 0 and entropy 1 with the known spread and gradient; whole iterations apart are invisible to
r but not to the spread; the command prints, draws and writes JSON."""
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
from desync.h5file import open_output  # noqa: E402
from desync.synchrony import analyse, metrics, phase_samples  # noqa: E402
from synthetic_files import COMPUTE, POST, write_synthetic_idle  # noqa: E402

TOOLS = os.path.join(os.path.dirname(__file__), "..")
STEP = COMPUTE + POST  # every iteration of write_synthetic_idle with no idle time


def shifted_file(path, shifts, n_iter=30):
    """A lock-step chain of len(shifts) ranks, rank i's events later by shifts[i] iterations."""
    write_synthetic_idle(path, np.zeros((len(shifts), n_iter)))
    with h5py.File(path, "r+") as f:
        ev = f["timeline/events"][()]
        ev += (np.asarray(shifts, float) * STEP)[:, None, None]
        f["timeline/events"][...] = ev


class Metrics(unittest.TestCase):
    def test_phases_by_hand(self):
        # rank 0: iterations 0, 1 over [0, 1), [1, 3); rank 1: [0.5, 1.5), [1.5, 2.5)
        starts = np.array([[0.0, 1.0], [0.5, 1.5]])
        ends = np.array([[1.0, 3.0], [1.5, 2.5]])
        phi = phase_samples(starts, ends, np.array([0, 1]), np.array([0.25, 1.0, 2.0, 2.75]))
        np.testing.assert_allclose(phi[0], [0.25, 1.0, 1.5, 1.875])
        np.testing.assert_allclose(phi[1][1:3], [0.5, 1.5])
        self.assertTrue(np.isnan(phi[1][0]) and np.isnan(phi[1][3]))  # before and after its iterations

    def test_even_spread_and_whole_iterations(self):
        even = np.array([[0.0], [0.25], [0.5], [0.75]]) + 3.0
        m = metrics(even)
        self.assertAlmostEqual(m["order"][0], 0.0, places=12)
        self.assertAlmostEqual(m["entropy"][0], 1.0, places=12)
        self.assertAlmostEqual(m["gradient"][0], 0.25)
        self.assertAlmostEqual(m["spread"][0], np.std([0, 0.25, 0.5, 0.75]))
        whole = np.array([[3.1], [4.1], [5.1], [6.1]])  # one iteration apart each: r cannot tell
        m = metrics(whole)
        self.assertAlmostEqual(m["order"][0], 1.0, places=12)
        self.assertEqual(m["entropy"][0], 0.0)
        self.assertAlmostEqual(m["gradient"][0], 1.0)
        self.assertGreater(m["spread"][0], 1.0)


class OnFiles(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def result(self, shifts):
        path = os.path.join(self.tmp.name, "s%d.h5" % len(os.listdir(self.tmp.name)))
        shifted_file(path, shifts)
        with open_output(path) as f:
            return analyse(f)

    def test_lockstep(self):
        s = self.result([0, 0, 0, 0])["summary"]
        self.assertAlmostEqual(s["order"]["min"], 1.0, places=9)
        self.assertEqual(s["entropy"]["max"], 0.0)
        self.assertAlmostEqual(s["spread"]["max"], 0.0, places=9)
        self.assertAlmostEqual(s["gradient"]["max"], 0.0, places=9)

    def test_wavefront_of_a_quarter_iteration_per_rank(self):
        r = self.result([0, 0.25, 0.5, 0.75])
        s = r["summary"]
        self.assertLess(s["order"]["max"], 1e-9)
        # rank i started i/4 of an iteration later: it is behind, phi falls along the ranks
        self.assertAlmostEqual(s["gradient"]["mean"], -0.25, places=9)
        self.assertAlmostEqual(s["spread"]["mean"], np.std([0, 0.25, 0.5, 0.75]), places=9)
        # every instant has every rank inside an iteration: the span starts at the last rank's start
        self.assertGreaterEqual(r["times"][0], 0.75 * STEP - 1e-12)
        # entropy 1 except at the instants a rank sits on a bin edge
        self.assertGreater(s["entropy"]["mean"], 0.9)

    def test_parked_ranks_are_left_out_and_named(self):
        path = os.path.join(self.tmp.name, "parked.h5")
        shifted_file(path, [0, 0.5, 0])
        with h5py.File(path, "r+") as f:
            ev = f["timeline/events"][()]
            ev[2] = np.nan  # rank 2 ran nothing (parked)
            f["timeline/events"][...] = ev
        with open_output(path) as f:
            r = analyse(f)
        self.assertEqual(r["ranks"].tolist(), [0, 1])
        self.assertEqual(r["idle_ranks"], [2])
        self.assertLess(r["summary"]["order"]["max"], 1e-9)  # the two left, half an iteration apart

    def test_command(self):
        path = os.path.join(self.tmp.name, "cmd.h5")
        shifted_file(path, [0, 0.5, 0, 0.5])
        png, js = os.path.join(self.tmp.name, "s.png"), os.path.join(self.tmp.name, "s.json")
        p = subprocess.run([sys.executable, os.path.join(TOOLS, "desync_view.py"), "synchrony", path, "-o", png,
                            "--json", js, "--samples", "500"], capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("order parameter r", p.stdout)
        self.assertTrue(os.path.getsize(png) > 0)
        with open(js) as fh:
            out = json.load(fh)
        self.assertEqual(len(out["times_s"]), 500)
        self.assertLess(out["summary"]["order"]["max"], 1e-9)  # two groups half an iteration apart
        self.assertAlmostEqual(out["summary"]["spread"]["mean"], 0.25, places=9)
        p = subprocess.run([sys.executable, os.path.join(TOOLS, "desync_view.py"), "synchrony", path, "--ranks", "0:1"],
                           capture_output=True, text=True)
        self.assertEqual(p.returncode, 2)
        self.assertIn("at least 2 ranks", p.stderr)


if __name__ == "__main__":
    unittest.main()
