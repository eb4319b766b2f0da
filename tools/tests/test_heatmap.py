"""The idle heat map (desync.heatmap): the matrix is idle minus its mean with the wave on the
diagonal of the synthetic chain, and the command writes a picture."""
import os
import subprocess
import sys
import tempfile
import unittest

import h5py
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.dirname(__file__))
from desync.heatmap import draw_heatmap, idle_minus_mean  # noqa: E402
from desync.timeline import read_timeline  # noqa: E402
from desync.window import select_window  # noqa: E402
from synthetic_files import DELAY_ITERATION, write_synthetic  # noqa: E402

TOOLS = os.path.join(os.path.dirname(__file__), "..")


class Heatmap(unittest.TestCase):
    def test_the_wave_is_the_diagonal_and_the_mean_is_zero(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "chain.h5")
            write_synthetic(path, n_ranks=8, n_iter=24)
            with h5py.File(path, "r") as f:
                tl = read_timeline(f, select_window(f))
            m, phases = idle_minus_mean(tl)
            self.assertEqual(m.shape, (8, len(tl.iterations)))
            self.assertAlmostEqual(float(np.mean(m)), 0.0, places=12)
            self.assertIn("wait", phases)
            for r in range(1, 8):  # rank r's largest idle is at the delay's iteration + r - 1
                self.assertEqual(int(tl.iterations[int(np.argmax(m[r]))]), DELAY_ITERATION + r - 1)
            out = os.path.join(d, "hm.png")
            run = subprocess.run([sys.executable, os.path.join(TOOLS, "desync_view.py"), "heatmap", path, "-o", out],
                                 capture_output=True, text=True)
            self.assertEqual(run.returncode, 0, run.stderr)
            self.assertGreater(os.path.getsize(out), 5000)

    def test_rank_ticks_are_whole_numbers(self):
        import matplotlib.pyplot as plt
        fig = draw_heatmap(np.zeros((3, 4)), np.arange(3), np.arange(4), "t")
        fig.canvas.draw()
        ax = fig.axes[0]
        for ticks in (ax.get_yticks(), ax.get_xticks()):
            self.assertTrue(len(ticks) > 0)
            np.testing.assert_array_equal(ticks, np.round(ticks))
        plt.close(fig)


if __name__ == "__main__":
    unittest.main()
