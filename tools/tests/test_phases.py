#!/usr/bin/env python3
"""Tests of the generic phase rule (tools/desync/phases.py) on synthetic triad and SpMV files.

Run from the repository root with
    /usr/bin/python3 -m unittest discover -s tools/tests -v
or directly: /usr/bin/python3 tools/tests/test_phases.py
"""

import unittest

import numpy as np

# view_helpers first: it puts tools/ on sys.path for the package desync
from view_helpers import SpmvFileTest, TriadFileTest, timeline_of
from desync.phases import phase_intervals, phase_tracks
from desync.timeline import Timeline
from desync.window import Window
from synthetic_files import (EVENTS, PHASES, SPMV_EVENTS, SPMV_PHASES, WARMUP, durations,
                             spmv_durations, write_synthetic_spmv)


class TriadPhasesTest(TriadFileTest):
    def test_phase_tracks_never_overlap(self):
        # one rank, two iterations; the delay starts 1 us before compute ends (clock glitch)
        ev = np.full((1, 2, len(EVENTS)), np.nan)
        ev[0, 0, :6] = [0.0, 1e-3, 0.999e-3, 2e-3, 2.01e-3, 2.05e-3]
        ev[0, 1, [0, 1, 4, 5]] = [2.05e-3, 3.05e-3, 3.05e-3, 3.06e-3]  # post of zero length
        window = Window([0], [0, 1])  # no warm-up: numbers = indices
        tl = Timeline(ev, EVENTS, window, np.zeros(2, bool), ["h"])
        order, tracks, clipped = phase_tracks(tl)
        self.assertEqual(clipped, 1)
        code, b, e, it = tracks[0]
        self.assertTrue(np.all(e > b))
        self.assertTrue(np.all(e[:-1] <= b[1:]))
        self.assertEqual([order[c] for c in code],
                         ["compute", "delay", "post", "wait", "compute", "wait"])
        self.assertEqual(e[0], 999000)  # compute clipped at the delay's begin (ns)

    def test_phase_intervals_match_phase_stats(self):
        # the generic rule reproduces the triad durations (post begins after the delay if any)
        tl, _ = timeline_of(self.h5, include_warmup=True)
        phases = phase_intervals(tl, iteration=True)
        self.assertEqual(list(phases), PHASES)
        expected = durations(self.events)
        for i, name in enumerate(PHASES):
            begin, end = phases[name]
            np.testing.assert_allclose(end - begin, expected[..., i], rtol=0, atol=1e-12,
                                       err_msg=name)
        # the last iteration of a window ends where the next recorded one begins
        tl, _ = timeline_of(self.h5, iterations=slice(0, 3))
        begin, end = phase_intervals(tl, iteration=True)["iteration"]
        np.testing.assert_array_equal(end[:, -1], self.events[:, WARMUP + 3, 0])


class SpmvPhasesTest(SpmvFileTest):
    """The SpMV workload: its own event names, SPLIT-WAIT and NONSPLIT order."""

    def test_phases_follow_the_generic_rule(self):
        tl, _ = timeline_of(self.h5, include_warmup=True)
        phases = phase_intervals(tl, iteration=True)
        self.assertEqual(list(phases), ["pack", "post", "local", "wait", "remote", "barrier",
                                        "iteration"])
        ix = SPMV_EVENTS["split"].index
        ev = self.events
        # SPLIT-WAIT: local runs from post_end, wait from local_end to wait_end, remote after
        np.testing.assert_array_equal(phases["local"][0], ev[..., ix("post_end")])
        np.testing.assert_array_equal(phases["wait"][0], ev[..., ix("local_end")])
        np.testing.assert_array_equal(phases["wait"][1], ev[..., ix("wait_end")])
        np.testing.assert_array_equal(phases["remote"][0], ev[..., ix("wait_end")])
        np.testing.assert_array_equal(phases["barrier"][0], ev[..., ix("remote_end")])
        expected = spmv_durations(ev, "split")
        for name, (begin, end) in phases.items():
            i = SPMV_PHASES.index(name)
            np.testing.assert_allclose(end - begin, expected[..., i], rtol=0, atol=1e-12,
                                       err_msg=name)

    def test_nonsplit_order(self):
        path = self.path("nonsplit.h5")
        ev = write_synthetic_spmv(path, "nonsplit")
        tl, _ = timeline_of(path, include_warmup=True)
        phases = phase_intervals(tl)
        self.assertEqual(list(phases), ["pack", "post", "wait", "local", "remote", "barrier"])
        ix = SPMV_EVENTS["nonsplit"].index
        np.testing.assert_array_equal(phases["wait"][0], ev[..., ix("post_end")])
        np.testing.assert_array_equal(phases["local"][0], ev[..., ix("wait_end")])
        np.testing.assert_array_equal(phases["remote"][0], ev[..., ix("local_end")])

    def test_a_missing_event_is_skipped(self):
        # no barrier in iteration 1: the next iteration's phases are unaffected, barrier NaN;
        # a missing local_end: wait begins at post_end (the latest earlier event that happened)
        names = SPMV_EVENTS["split"]
        ev = np.array([[[0.0, 1.0, 2.0, 5.0, 6.0, 7.0, 8.0],
                        [8.0, 9.0, 10.0, np.nan, 12.0, 13.0, np.nan]]]) * 1e-3
        tl = Timeline(ev, names, Window([0], [0, 1]), np.zeros(2, bool), ["h"])
        phases = phase_intervals(tl, iteration=True)
        self.assertTrue(np.isnan(phases["local"][1][0, 1]))
        self.assertEqual(phases["wait"][0][0, 1], 10e-3)
        self.assertTrue(np.isnan(phases["barrier"][1][0, 1]))
        np.testing.assert_allclose(phases["iteration"][1][0] - phases["iteration"][0][0],
                                   [8e-3, 5e-3])  # the last one: to its latest event


if __name__ == "__main__":
    unittest.main()
