"""The saturation curves (desync.saturation_plot): N_s by the tolerance rule on known curves, the
model min(N b1, b_S), the reading of a synthetic saturation file (with its STREAM table), the
command's text, JSON and picture, and the error for a file of another workload."""
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
from desync.errors import DesyncError  # noqa: E402
from desync.saturation_plot import analyse, model, saturation_point  # noqa: E402
from synthetic_files import fixed, write_synthetic  # noqa: E402

TOOLS = os.path.join(os.path.dirname(__file__), "..")
B1, B_S = 10e9, 35e9  # triad: saturates at N = 4 (35 >= 0.9 x 35, 30 < 31.5)
W = 8


def write_saturation(path, with_stream=True):
    """A triad file (synthetic_files) turned into a saturation run: kernels triad (the model
    curve exactly) and schoenauer (a slower single core, a later knee, a 2% dip at the end)."""
    write_synthetic(path, n_ranks=1, n_iter=12)
    n = np.arange(1, W + 1)
    triad = np.minimum(n * B1, B_S)
    schoenauer = np.minimum(n * 6e9, 39e9)
    schoenauer[-1] *= 0.98
    bw = np.stack([triad, schoenauer])
    with h5py.File(path, "a") as f:
        f.attrs["workload"] = fixed("saturation", 16)

        def ds(name, data, units):
            f.create_dataset(name, data=data).attrs["units"] = fixed(units)

        ds("saturation/kernel", np.array([3, 5], np.int64), "1")
        ds("saturation/n", n.astype(np.int64), "1")
        ds("saturation/bandwidth", bw, "B/s")
        ds("saturation/time", 2.4e8 / bw, "s")
        ds("saturation/tolerance", np.float64(0.1), "1")
        ds("saturation/saturation_point", np.array([4, 6], np.int64), "1")
        ds("saturation/elements", np.int64(10**7), "1")
        ds("saturation/mode", np.int64(0), "1")
        if with_stream:
            ds("provenance/stream/kernel", np.arange(4, dtype=np.int64), "1")
            ds("provenance/stream/single_thread_bandwidth", np.array([9e9, 9.5e9, 11e9, 11e9]), "B/s")
            ds("provenance/stream/node_bandwidth", np.array([30e9, 31e9, 34e9, 35e9]), "B/s")


class SaturationPoint(unittest.TestCase):
    def test_smallest_n_within_tolerance_of_the_maximum(self):
        b = [10, 19, 27, 30, 31, 31.5]
        self.assertEqual(saturation_point(b, 0.1), 4)  # threshold 28.35
        self.assertEqual(saturation_point(b, 0.0), 6)
        self.assertEqual(saturation_point(b, 0.5), 2)
        self.assertEqual(saturation_point([10, 20, 18, 17], 0.05), 2)
        self.assertEqual(saturation_point([np.nan, 20, 10], 0.1), 2)  # a cell never reached
        self.assertEqual(saturation_point([np.nan, np.nan], 0.1), 0)

    def test_model_is_linear_then_flat(self):
        np.testing.assert_allclose(model([1, 2, 3, 4, 5], B1, B_S), [10e9, 20e9, 30e9, 35e9, 35e9])


class SaturationFile(unittest.TestCase):
    def test_reads_curves_points_and_stream_table(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "sat.h5")
            write_saturation(path)
            with h5py.File(path, "r") as f:
                r = analyse(f)
        self.assertEqual(r["n"], list(range(1, W + 1)))
        self.assertEqual(r["mode"], "threads")
        triad, schoenauer = r["kernels"]
        self.assertEqual((triad["kernel"], schoenauer["kernel"]), ("triad", "schoenauer"))
        self.assertEqual(triad["n_s"], 4)
        self.assertEqual(triad["n_s"], triad["n_s_stored"])
        self.assertAlmostEqual(triad["b1"], B1)
        self.assertAlmostEqual(triad["b_max"], B_S)
        self.assertAlmostEqual(triad["n_knee"], 3.5)
        np.testing.assert_allclose(triad["model"], triad["bandwidth"])  # the curve is the model
        # 6 N reach 36 >= 0.9 x 39 = 35.1; 5 N reach only 30
        self.assertEqual(schoenauer["n_s"], 6)
        self.assertAlmostEqual(schoenauer["b_max"], 39e9)
        self.assertEqual(r["stream_table"]["kernels"], ["copy", "scale", "add", "triad"])
        self.assertAlmostEqual(r["stream_table"]["node"][3], 35e9)

    def test_command_prints_writes_json_and_picture(self):
        with tempfile.TemporaryDirectory() as d:
            path, png, js = (os.path.join(d, n) for n in ("sat.h5", "sat.png", "sat.json"))
            write_saturation(path)
            run = subprocess.run([sys.executable, os.path.join(TOOLS, "desync_view.py"), "saturation", path,
                                  "-o", png, "--json", js], capture_output=True, text=True)
            self.assertEqual(run.returncode, 0, run.stderr)
            self.assertIn("triad      N_s = 4, b1 = 10.000 GB/s, b_S = max b = 35.000 GB/s", run.stdout)
            self.assertIn("STREAM table (provenance, MB/s)", run.stdout)
            self.assertNotIn("cannot show saturation", run.stdout)
            self.assertGreater(os.path.getsize(png), 5000)
            with open(js, encoding="utf-8") as fh:
                out = json.load(fh)
            self.assertEqual([k["n_s"] for k in out["kernels"]], [4, 6])

    def test_two_workers_say_they_cannot_show_saturation(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "sat2.h5")
            write_synthetic(path, n_ranks=1, n_iter=12)
            with h5py.File(path, "a") as f:
                f.create_dataset("saturation/kernel", data=np.array([3], np.int64))
                f.create_dataset("saturation/n", data=np.array([1, 2], np.int64))
                f.create_dataset("saturation/bandwidth", data=np.array([[12e9, np.nan]]))
                f.create_dataset("saturation/tolerance", data=np.float64(0.1))
            run = subprocess.run([sys.executable, os.path.join(TOOLS, "desync_view.py"), "saturation", path,
                                  "-o", os.path.join(d, "p.png"), "--json", os.path.join(d, "p.json")],
                                 capture_output=True, text=True)
            self.assertEqual(run.returncode, 0, run.stderr)
            self.assertIn("2 worker(s) cannot show saturation", run.stdout)
            with open(os.path.join(d, "p.json"), encoding="utf-8") as fh:
                out = json.load(fh)  # strict JSON: the NaN cell is null
            self.assertIsNone(out["kernels"][0]["bandwidth"][1])
            self.assertEqual(out["kernels"][0]["n_s"], 1)

    def test_a_file_of_another_workload_is_a_clear_error(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "triad.h5")
            write_synthetic(path)
            with h5py.File(path, "r") as f, self.assertRaisesRegex(DesyncError, "no /saturation group .*'triad'"):
                analyse(f)
            run = subprocess.run([sys.executable, os.path.join(TOOLS, "desync_view.py"), "saturation", path,
                                  "-o", os.path.join(d, "x.png")], capture_output=True, text=True)
            self.assertEqual(run.returncode, 2)
            self.assertIn("workload = \"saturation\"", run.stderr)


if __name__ == "__main__":
    unittest.main()
