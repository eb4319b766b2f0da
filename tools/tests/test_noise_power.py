"""The noise power the idlewave report gives beside a wave's decay (desync.idle_waves.noise_power):
per rank the variance over iterations of the work + delay time, the [[inject]] cells left out, then
the mean over ranks; on made-up extra compute times it is the variance of the extras."""
import os
import sys
import tempfile
import unittest

import h5py
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.dirname(__file__))
from desync.h5file import open_output  # noqa: E402
from desync.idle_waves import analyse, noise_power  # noqa: E402
from desync.phases import phase_intervals  # noqa: E402
from desync.timeline import read_timeline  # noqa: E402
from desync.window import select_window  # noqa: E402
from synthetic_files import write_synthetic_idle  # noqa: E402


class NoisePower(unittest.TestCase):
    def test_variance_of_the_extra_work_per_rank_then_the_mean(self):
        rng = np.random.default_rng(3)
        extra = rng.uniform(0, 2e-4, size=(3, 10))
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "n.h5")
            write_synthetic_idle(path, np.full((3, 10), 1e-5))
            with h5py.File(path, "r+") as f:
                ev = f["timeline/events"][()]
                for r in range(3):
                    shift = np.concatenate([[0.0], np.cumsum(extra[r])[:-1]])
                    ev[r, :, 0] += shift
                    ev[r, :, 1:] += (shift + extra[r])[:, None]
                f["timeline/events"][...] = ev
            with open_output(path) as f:
                tl = read_timeline(f, select_window(f))
                got = noise_power(tl, phase_intervals(tl), ["compute"])
                # an [[inject]] cell left out: rank 1, iteration 4
                without = noise_power(tl, phase_intervals(tl), ["compute"], [(1, 4)])
                result = analyse(f)
        self.assertAlmostEqual(got, float(np.mean(extra.var(axis=1))), delta=1e-15)
        keep = np.delete(extra[1], 4)
        self.assertAlmostEqual(without, float(np.mean([extra[0].var(), keep.var(), extra[2].var()])), delta=1e-15)
        self.assertAlmostEqual(result["noise_std_s"] ** 2, result["noise_power_s2"], delta=1e-18)


if __name__ == "__main__":
    unittest.main()
