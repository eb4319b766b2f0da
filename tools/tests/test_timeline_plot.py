#!/usr/bin/env python3
"""Tests of `desync_view.py timeline` (the picture) on synthetic triad and SpMV files.

Run from the repository root with
    /usr/bin/python3 -m unittest discover -s tools/tests -v
or directly: /usr/bin/python3 tools/tests/test_timeline_plot.py
"""

import unittest

# view_helpers first: it puts tools/ on sys.path for the package desync
from view_helpers import (BLUE, GREEN, LIGHT_GREEN, ORANGE, RED, SpmvFileTest, TriadFileTest,
                          legend_labels, png_colour_counts, run_view)
from desync.timeline_plot import UNKNOWN_STYLE, style


class TriadTimelinePlotTest(TriadFileTest):
    def check_png(self, name, *extra, colours=(BLUE, RED)):
        """Draw the timeline; the pixel counts of colours in the plot area."""
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.image as mpimg

        png = self.path(name)
        code, out, err = run_view("timeline", self.h5, "-o", png, *extra)
        self.assertEqual(code, 0, err)
        with open(png, "rb") as f:
            self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")
        img = mpimg.imread(png)
        self.assertEqual(img.ndim, 3)
        self.assertTrue(500 < img.shape[1] < 4000 and 300 < img.shape[0] < 4000, img.shape)
        return png_colour_counts(png, colours)

    def test_timeline_legend_shows_only_present_phases(self):
        self.assertEqual(legend_labels(self.h5),
                         ["compute", "injected delay", "post (Isend/Irecv)", "wait (Waitall)"])
        self.assertEqual(legend_labels(self.h5, iterations=slice(9, None)),
                         ["compute", "post (Isend/Irecv)", "wait (Waitall)"])
        self.assertEqual(style("mystery")["label"], "mystery")  # unknown: grey
        self.assertEqual(style("mystery")["facecolor"],
                         UNKNOWN_STYLE["facecolor"])

    def test_timeline_png(self):
        blue, red = self.check_png("timeline.png", "--title", "synthetic")
        self.assertGreater(blue, 100)
        self.assertGreater(red, 100)

    def test_timeline_window_without_delay(self):
        blue, red = self.check_png("late.png", "--iterations", "9:")
        self.assertEqual(blue, 0)  # the delay (measured iteration 8) is outside the window
        blue, red = self.check_png("early.png", "--iterations", "-2:9")
        self.assertGreater(blue, 100)  # ... and inside this one, which starts in the warm-up


class SpmvTimelinePlotTest(SpmvFileTest):
    """The SpMV workload: its own phases and colours."""

    def test_timeline(self):
        png = self.path("spmv.png")
        code, out, err = run_view("timeline", self.h5, "-o", png)
        self.assertEqual(code, 0, err)
        blue, red, orange, light, green = png_colour_counts(
            png, (BLUE, RED, ORANGE, LIGHT_GREEN, GREEN))
        self.assertEqual(blue, 0)  # no injected delay
        self.assertGreater(red, 100)  # wait
        self.assertGreater(orange, 20)  # barrier (hatched) at iteration 4
        self.assertGreater(light, 1000)  # local part
        self.assertGreater(green, 100)  # remote part, another green
        self.assertEqual(legend_labels(self.h5), [
            "pack (send buffer)", "post (Isend/Irecv)", "local part", "wait (Waitall)",
            "remote part", "barrier"])


if __name__ == "__main__":
    unittest.main()


class EveryPhaseHasAStyle(unittest.TestCase):
    # Every phase of every workload (docs/output.md, "Phases"): none falls back to the unknown grey.
    PHASES = {
        "triad": ["compute", "delay", "post", "wait", "sync"],
        "spmv": ["pack", "post", "wait", "local", "remote", "delay", "sync"],
        "stencil": ["pack", "latency", "post", "wait", "unpack", "sweep", "delay", "sync"],
        "chebfd": ["pack", "post", "wait", "fused", "local", "remote", "delay", "sync"],
        "pingpong": ["post", "wait", "reply", "sync"],
        "toy": ["post", "wait", "compute", "part1", "part2", "delay", "sync"],
        "cg": ["pack", "post", "interior", "wait", "spmv", "pq", "pq_allreduce", "update", "rr_allreduce",
               "direction", "delay", "sync"],
        "collbench": ["post", "wait", "sync"],
        "matvec2d": ["product", "reduce", "bcast", "reduce_bcast", "sync"],
        "symmsquarecube": ["bcast1", "gemm1", "reduce1", "p2p1", "transpose", "bcast2", "gemm2", "reduce2", "p2p2",
                           "p2p", "reduce_bcast", "reduce_p2p", "bcast", "cannon1", "allreduce", "cannon2", "reduce"],
    }

    def test_no_phase_is_unknown(self):
        for workload, phases in self.PHASES.items():
            for p in phases:
                with self.subTest(workload=workload, phase=p):
                    self.assertIsNot(style(p).get("label"), None)
                    self.assertNotEqual(style(p)["facecolor"], UNKNOWN_STYLE["facecolor"],
                                        "phase %s of %s has no colour of its own" % (p, workload))
