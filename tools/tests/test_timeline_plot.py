#!/usr/bin/env python3
"""Tests of `desync_view.py timeline` (the picture) on synthetic triad and SpMV files.

Run from the repository root with
    /usr/bin/python3 -m unittest discover -s tools/tests -v
or directly: /usr/bin/python3 tools/tests/test_timeline_plot.py
"""

import os
import tempfile
import unittest

import h5py
import numpy as np
from scipy import stats

# view_helpers first: it puts tools/ on sys.path for the package desync
from view_helpers import (BLUE, GREEN, LIGHT_GREEN, ORANGE, RED, SpmvFileTest, TriadFileTest,
                          legend_labels, png_colour_counts, run_view, timeline_of)
from desync.timeline_plot import UNKNOWN_STYLE, draw_timeline, parse_time_window, style, zoom_time
from desync.wavefront_overlay import DOMAIN_FRONT_COLOUR, window_fronts
from synthetic_files import WARMUP, set_domains, write_synthetic


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


class ZoomAndOverlayTest(TriadFileTest):
    """--time, --wavefronts (labels = the fitted numbers) and the heat map of long windows."""

    def timeline(self, **window):
        return timeline_of(self.h5, **window)

    def overlapping(self, t0, t1):
        """By hand: measured iteration n spans [earliest first event, latest start of the next
        iteration] over the ranks; those overlapping [first + t0, first + t1]."""
        ev = self.events[:, WARMUP:, :]
        first = np.nanmin(ev)
        start = np.nanmin(ev[:, :, 0], axis=0)
        nxt = np.append(ev[:, 1:, 0], np.nanmax(ev[:, -1:, :], axis=2), axis=1)
        end = np.nanmax(np.fmax(nxt, np.nanmax(ev, axis=2)), axis=0)
        return np.flatnonzero((start <= first + t1) & (end >= first + t0))

    def test_time_zoom_keeps_the_iterations_overlapping_the_span(self):
        tl, attrs = self.timeline()
        first = float(np.nanmin(tl.events))
        sub, span = zoom_time(tl, (0.005, 0.012))
        self.assertEqual(span, (first + 0.005, first + 0.012))
        expect = self.overlapping(0.005, 0.012)
        np.testing.assert_array_equal(sub.iterations, expect)
        self.assertLess(len(expect), 18)
        fig = draw_timeline(sub, attrs, time_range=span)
        try:
            self.assertEqual(fig.axes[0].get_xlim(), span)
            self.assertIn("time ", fig.axes[0].get_title())
        finally:
            import matplotlib.pyplot as plt
            plt.close(fig)
        self.assertEqual(parse_time_window("0.5:"), (0.5, None))
        self.assertEqual(parse_time_window(":2e-3"), (None, 2e-3))
        with self.assertRaises(ValueError):
            parse_time_window("3:1")

    def test_time_option(self):
        png = self.path("zoom.png")
        code, out, err = run_view("timeline", self.h5, "-o", png, "--time", "0.005:0.012")
        self.assertEqual(code, 0, err)
        self.assertIn("x %d iterations" % len(self.overlapping(0.005, 0.012)), out)
        code, out, err = run_view("timeline", self.h5, "-o", png, "--time", "5:6")
        self.assertEqual(code, 2)
        self.assertIn("--time 5:6 selects none", err)

    def test_wavefront_labels_are_the_fitted_numbers(self):
        tl, attrs = self.timeline()
        fronts = window_fronts(tl, None, [3, 10])
        fig = draw_timeline(tl, attrs, fronts=fronts)
        try:
            texts = [t.get_text() for t in fig.axes[0].texts]
        finally:
            import matplotlib.pyplot as plt
            plt.close(fig)
        self.assertEqual(len(texts), 2)
        for k, text in zip((3, 10), texts):
            finish = np.nanmax(self.events[:, WARMUP + k, :], axis=1)  # each rank's latest event
            fit = stats.linregress(finish, np.arange(4))
            self.assertEqual(text, "step %d: %.4g ranks/s, r %.3f" % (k, fit.slope, fit.rvalue))
        self.assertEqual(texts, fronts["labels"])

    def test_wavefronts_option_prints_the_labels(self):
        code, out, err = run_view("timeline", self.h5, "-o", self.path("fronts.png"), "--wavefronts", "--steps", "3,10")
        self.assertEqual(code, 0, err)
        self.assertEqual([line.split(":")[0] for line in out.splitlines() if "wavefront" in line],
                         ["  wavefront step 3", "  wavefront step 10"])
        self.assertNotIn("note:", out)  # 18 iterations: bars are readable, no heat map
        self.assertFalse(os.path.exists(self.path("fronts_heatmap.png")))


class DomainsAndLongRunsTest(unittest.TestCase):
    """8 ranks in two contention domains, 90 iterations."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.h5 = os.path.join(cls.tmp.name, "long.h5")
        cls.events = write_synthetic(cls.h5, n_ranks=8, n_iter=90)
        set_domains(cls.h5, [0] * 4 + [1] * 4)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_per_domain_fits_are_drawn_and_labelled(self):
        tl, attrs = timeline_of(self.h5, iterations=slice(20, 30))
        with h5py.File(self.h5, "r") as f:
            domains = f["topology/contention_domain"][()]
        fronts = window_fronts(tl, domains, [25])
        fig = draw_timeline(tl, attrs, fronts=fronts)
        try:
            texts = [t.get_text() for t in fig.axes[0].texts]
            purple = [ln for ln in fig.axes[0].lines if ln.get_color() == DOMAIN_FRONT_COLOUR]
        finally:
            import matplotlib.pyplot as plt
            plt.close(fig)
        finish = np.nanmax(self.events[:, WARMUP + 25, :], axis=1)
        expect = ["step 25: %.4g ranks/s, r %.3f" % (lambda f: (f.slope, f.rvalue))(stats.linregress(finish, np.arange(8)))]
        for d, sel in ((0, slice(0, 4)), (1, slice(4, 8))):
            fit = stats.linregress(finish[sel], np.arange(8)[sel])
            expect.append("step 25, domain %d: %.4g ranks/s, r %.3f" % (d, fit.slope, fit.rvalue))
        self.assertEqual(texts, expect)
        self.assertEqual(len(purple), 2)
        # each domain's line: from its first to its last rank, the fitted slope in ranks per second
        for ln, sel in zip(purple, (slice(0, 4), slice(4, 8))):
            x, y = ln.get_data()
            fit = stats.linregress(finish[sel], np.arange(8)[sel])
            self.assertAlmostEqual((y[1] - y[0]) / (x[1] - x[0]), fit.slope, delta=1e-6 * abs(fit.slope))

    def test_a_long_window_gets_the_heat_map_beside_it(self):
        png = os.path.join(self.tmp.name, "run.png")
        code, out, err = run_view("timeline", self.h5, "-o", png)
        self.assertEqual(code, 0, err)
        self.assertIn("note: 88 iterations", out)
        heat = os.path.join(self.tmp.name, "run_heatmap.png")
        self.assertTrue(os.path.getsize(heat) > 5000, out)
        os.remove(heat)
        code, out, err = run_view("timeline", self.h5, "-o", png, "--no-heatmap")
        self.assertEqual(code, 0, err)
        self.assertIn("note: 88 iterations", out)
        self.assertFalse(os.path.exists(heat))
        code, out, err = run_view("timeline", self.h5, "-o", png, "--iterations", "10:40")
        self.assertNotIn("note:", out)  # 30 iterations fit
        self.assertFalse(os.path.exists(heat))


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
