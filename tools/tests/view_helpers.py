"""Shared helpers of the tests of tools/desync_view.py: running the tool, reading its
outputs back, and the synthetic triad / SpMV files each test class works on.

Importing this module puts tools/ on sys.path, so that the package tools/desync imports.
"""

import gzip
import json
import os
import subprocess
import sys
import tempfile
import unittest

import numpy as np

TOOLS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VIEW = os.path.join(TOOLS, "desync_view.py")
sys.path.insert(0, TOOLS)

from desync.h5file import open_output, root_attributes  # noqa: E402
from desync.timeline import read_timeline  # noqa: E402
from desync.timeline_plot import draw_timeline  # noqa: E402
from desync.window import select_window  # noqa: E402
from synthetic_files import write_synthetic, write_synthetic_spmv  # noqa: E402


def run_view(*args):
    """Run the tool as a separate process: (exit code, stdout, stderr)."""
    proc = subprocess.run([sys.executable, VIEW] + [str(a) for a in args],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
    return proc.returncode, proc.stdout, proc.stderr


def x_events(trace):
    return [e for e in trace["traceEvents"] if e["ph"] == "X"]


def assert_tracks_do_not_overlap(test, xs):
    """X events of each pid: positive durations, each ends before the next begins."""
    test.assertTrue(all(e["dur"] > 0 for e in xs))
    for pid in {e["pid"] for e in xs}:
        track = sorted((e["ts"], e["ts"] + e["dur"]) for e in xs if e["pid"] == pid)
        for (b0, e0), (b1, e1) in zip(track, track[1:]):
            test.assertLessEqual(e0, b1 + 1e-6)


def timeline_of(path, **window):
    with open_output(path) as f:
        w = select_window(f, **window)
        return read_timeline(f, w), root_attributes(f)


def legend_labels(path, **window):
    tl, attrs = timeline_of(path, **window)
    fig = draw_timeline(tl, attrs)
    try:
        return [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    finally:
        import matplotlib.pyplot as plt
        plt.close(fig)


def png_colour_counts(path, colours, tolerance=12):
    """Pixels of each RGB colour in the plot area (the legend is right of it)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.image as mpimg

    img = mpimg.imread(path)
    rgb = (img[:, : int(0.75 * img.shape[1]), :3] * 255).astype(int)
    return [int(np.all(np.abs(rgb - c) < tolerance, axis=-1).sum()) for c in colours]


BLUE, RED, ORANGE = [0x1F, 0x5F, 0xD6], [0xE0, 0x20, 0x1B], [0xF5, 0xA6, 0x23]
LIGHT_GREEN, GREEN = [0xB9, 0xE3, 0xB0], [0x8F, 0xD1, 0x8A]


class TriadFileTest(unittest.TestCase):
    """Base class: a synthetic triad file (synthetic_files.write_synthetic) in a temporary
    directory, its events in cls.events."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.h5 = os.path.join(cls.tmp.name, "triad.h5")
        cls.events = write_synthetic(cls.h5)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def path(self, name):
        return os.path.join(self.tmp.name, name)

    def trace(self, *extra, name="trace.json"):
        code, out, err = run_view("trace", self.h5, "-o", self.path(name), *extra)
        self.assertEqual(code, 0, err)
        opener = gzip.open if name.endswith(".gz") else open
        with opener(self.path(name), "rt") as f:
            return json.load(f)


class SpmvFileTest(unittest.TestCase):
    """Base class: a synthetic SpMV file, SPLIT-WAIT order (synthetic_files.write_synthetic_spmv),
    its events in cls.events."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.h5 = os.path.join(cls.tmp.name, "spmv.h5")
        cls.events = write_synthetic_spmv(cls.h5, "split")

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def path(self, name):
        return os.path.join(self.tmp.name, name)

    def trace(self, *extra):
        code, out, err = run_view("trace", self.h5, "-o", self.path("spmv.json"), *extra)
        self.assertEqual(code, 0, err)
        with open(self.path("spmv.json")) as f:
            return json.load(f)
