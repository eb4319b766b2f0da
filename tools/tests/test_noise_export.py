"""A run's noise as a noise file (desync.noise_export, `desync-view noise`): the excess work time
of made-up iterations is read back exactly, the file has the layout `[noise] kind = "file"` reads
(comments, one line per iteration, one column per rank), and the window options select lines and
columns."""
import os
import subprocess
import sys
import tempfile
import unittest

import h5py
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.dirname(__file__))
from synthetic_files import write_synthetic_idle  # noqa: E402

TOOLS = os.path.join(os.path.dirname(__file__), "..")
EXTRA = {(0, 3): 2e-4, (2, 7): 5e-4, (3, 0): 1e-4}  # (rank, measured iteration): extra compute


class NoiseExport(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.h5 = os.path.join(cls.tmp.name, "run.h5")
        write_synthetic_idle(cls.h5, np.full((4, 12), 1e-5), warmup=2)
        with h5py.File(cls.h5, "r+") as f:
            ev = f["timeline/events"][()]
            for (r, k), x in EXTRA.items():
                ev[r, 2 + k, 1:] += x  # compute_end and everything after it in the iteration
                ev[r, 2 + k + 1:, :] += x  # and the later iterations
            f["timeline/events"][...] = ev

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def export(self, *extra):
        out = os.path.join(self.tmp.name, "noise%d.txt" % len(os.listdir(self.tmp.name)))
        p = subprocess.run([sys.executable, os.path.join(TOOLS, "desync_view.py"), "noise", self.h5, "-o", out] + list(extra),
                           capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(out) as fh:
            text = fh.read()
        return np.loadtxt(out, comments="#", ndmin=2), text, p.stdout

    def test_excess_work_per_rank_and_iteration(self):
        x, text, stdout = self.export()
        self.assertEqual(x.shape, (10, 4))  # measured iterations x ranks
        want = np.zeros((10, 4))
        for (r, k), v in EXTRA.items():
            want[k, r] = v
        np.testing.assert_allclose(x, want, atol=1e-12)
        self.assertTrue(text.startswith("# desync noise file"))
        self.assertIn("time in compute per iteration", text)
        self.assertIn("wrote", stdout)

    def test_values_above_ten_seconds_are_capped_and_counted(self):
        from desync.h5file import open_output
        from desync.noise_export import noise_table
        path = os.path.join(self.tmp.name, "stall.h5")
        write_synthetic_idle(path, np.full((2, 6), 1e-5))
        with h5py.File(path, "r+") as f:
            ev = f["timeline/events"][()]
            ev[1, 3, 1:] += 12.0  # a 12 s stall in rank 1's compute, iteration 3
            ev[1, 4:, :] += 12.0
            f["timeline/events"][...] = ev
        with open_output(path) as f:
            t = noise_table(f)
        self.assertEqual(t["capped"], 1)
        self.assertEqual(t["seconds"][3, 1], 10.0)

    def test_window(self):
        x, text, _ = self.export("--ranks", "2:4", "--iterations", "5:9")
        self.assertEqual(x.shape, (4, 2))
        self.assertAlmostEqual(x[2, 0], 5e-4, places=12)  # rank 2, iteration 7
        self.assertIn("ranks 2-3, iterations 5..8", text)
        x, _, _ = self.export("--include-warmup")
        self.assertEqual(x.shape, (12, 4))


if __name__ == "__main__":
    unittest.main()
