#!/usr/bin/env python3
"""Tests of `desync_view.py trace` (Chrome Trace Event JSON) on synthetic triad and SpMV files.

Run from the repository root with
    /usr/bin/python3 -m unittest discover -s tools/tests -v
or directly: /usr/bin/python3 tools/tests/test_chrome_trace.py
"""

import json
import shutil
import unittest

from synthetic_files import (DELAY, DELAY_ITERATION, DELAY_RANK, MESSAGE_BYTES, SPMV_EVENTS, SPMV_WARMUP, WARMUP,
                             add_messages, set_domains)
from view_helpers import SpmvFileTest, TriadFileTest, assert_tracks_do_not_overlap, run_view, x_events


class TriadTraceTest(TriadFileTest):
    def test_trace_default_window(self):
        trace = self.trace()
        self.assertEqual(trace["displayTimeUnit"], "ms")
        self.assertEqual(trace["otherData"]["workload"], "triad")
        self.assertEqual(trace["otherData"]["verification"], "passed")
        xs = x_events(trace)
        self.assertTrue(all(e["dur"] > 0 for e in xs))
        self.assertEqual({e["pid"] for e in xs}, {0, 1, 2, 3})
        self.assertEqual({e["args"]["iteration"] for e in xs}, set(range(18)))  # measured only
        self.assertFalse(any(e["args"]["warmup"] for e in xs))
        self.assertEqual(trace["otherData"]["window_iterations"], "0..17")
        self.assertEqual({e["name"] for e in xs}, {"compute", "delay", "post", "wait"})
        self.assertTrue(all(e["cat"] == e["name"] for e in xs))
        names = {e["pid"]: e["args"]["name"] for e in trace["traceEvents"]
                 if e["ph"] == "M" and e["name"] == "process_name"}
        self.assertEqual(names, {0: "rank 0 (node-a)", 1: "rank 1 (node-a)",
                                 2: "rank 2 (node-b)", 3: "rank 3 (node-b)",
                                 1000000: "domain 0: node 0, NUMA 0 (4 ranks in the window)"})
        delays = [(e["pid"], e["args"]["iteration"], e["dur"]) for e in xs if e["name"] == "delay"]
        self.assertEqual(len(delays), 1)
        self.assertEqual(delays[0][:2], (DELAY_RANK, DELAY_ITERATION))
        self.assertAlmostEqual(delays[0][2], DELAY * 1e6, delta=0.01)

    def test_trace_counter_tracks_count_ranks_computing(self):
        # Two domains of two ranks; the count at the middle of every step must be the number of
        # the domain's ranks inside a compute interval (the triad's one work phase) there.
        path = self.path("domains.h5")
        shutil.copy(self.h5, path)
        set_domains(path, [0, 0, 1024, 1024])
        code, _, err = run_view("trace", path, "-o", self.path("domains.json"))
        self.assertEqual(code, 0, err)
        with open(self.path("domains.json")) as f:
            trace = json.load(f)
        names = {e["pid"]: e["args"]["name"] for e in trace["traceEvents"]
                 if e["ph"] == "M" and e["name"] == "process_name" and e["pid"] >= 1000000}
        self.assertEqual(names, {1000000: "domain 0: node 0, NUMA 0 (2 ranks in the window)",
                                 1000001: "domain 1024: node 1, NUMA 0 (2 ranks in the window)"})
        origin = trace["otherData"]["time_origin_s"]
        measured = self.events[:, WARMUP:, :]
        for pid, ranks in ((1000000, [0, 1]), (1000001, [2, 3])):
            steps = sorted((e["ts"], e["args"]["ranks"]) for e in trace["traceEvents"]
                           if e["ph"] == "C" and e["pid"] == pid)
            # 18 iterations x 2 ranks: a begin and an end each, some merged where ranks coincide
            self.assertGreater(len(steps), 18)
            self.assertEqual(steps[-1][1], 0)
            self.assertTrue(all(a[1] != b[1] for a, b in zip(steps, steps[1:])))  # only changes
            for (ts, n), (ts_next, _) in zip(steps, steps[1:]):
                t = (ts + ts_next) / 2 / 1e6 + origin
                b, e = measured[ranks, :, 0], measured[ranks, :, 1]
                self.assertEqual(n, int(((b <= t) & (t < e)).sum()), "pid %d at %.6f s" % (pid, t))
        # none with a stride (the iterations in between would read as idle), none when asked
        for extra in (("--stride", "2"), ("--no-counters",)):
            code, out, err = run_view("trace", path, "-o", self.path("none.json"), *extra)
            self.assertEqual(code, 0, err)
            with open(self.path("none.json")) as f:
                self.assertFalse([e for e in json.load(f)["traceEvents"] if e["ph"] == "C"])
        self.assertIn("counter tracks left out", out if extra[0] == "--stride" else
                      run_view("trace", path, "-o", self.path("none.json"), "--stride", "2")[1])

    def test_trace_waits_follow_the_delay(self):
        xs = x_events(self.trace())
        wait = {(e["pid"], e["args"]["iteration"]): e["dur"] for e in xs if e["name"] == "wait"}
        long_waits = {key for key, dur in wait.items() if dur > 1000}  # > 1 ms
        self.assertEqual(long_waits, {(1, 8), (2, 9), (3, 10)})  # deck numbering
        for key in long_waits:
            self.assertGreater(wait[key], 0.8 * DELAY * 1e6)

    def test_trace_events_nest_on_each_track(self):
        trace = self.trace("--include-warmup")
        xs = x_events(trace)
        self.assertEqual({e["args"]["iteration"] for e in xs}, set(range(-WARMUP, 18)))
        self.assertTrue(all(e["args"]["warmup"] == (e["args"]["iteration"] < 0) for e in xs))
        self.assertTrue(all(e["ts"] >= 0 for e in xs))  # warm-up is at negative times: shifted
        assert_tracks_do_not_overlap(self, xs)
        # shifted by the warm-up's start; the timestamps still match the file
        origin = trace["otherData"]["time_origin_s"]
        self.assertLess(origin, 0)
        for k in (-2, -1, 0, 5):  # deck iteration k is recorded at index WARMUP + k
            c = [e for e in xs if e["pid"] == 2 and e["name"] == "compute"
                 and e["args"]["iteration"] == k]
            self.assertAlmostEqual(c[0]["ts"] / 1e6 + origin, self.events[2, WARMUP + k, 0],
                                   delta=1e-8)

    def test_trace_window_and_stride(self):
        xs = x_events(self.trace("--ranks", "1:3", "--iterations", "9:11"))
        self.assertEqual({e["pid"] for e in xs}, {1, 2})
        self.assertEqual({e["args"]["iteration"] for e in xs}, {9, 10})
        xs = x_events(self.trace("--ranks", "-1", "--stride", "5", name="t.json.gz"))
        self.assertEqual({e["pid"] for e in xs}, {3})
        self.assertEqual({e["args"]["iteration"] for e in xs}, {0, 5, 10, 15})
        xs = x_events(self.trace("--iterations", "5:15", "--include-warmup"))
        self.assertEqual({e["args"]["iteration"] for e in xs}, set(range(5, 15)))

    def test_trace_window_with_negative_start(self):
        # -2:3 is warm-up -2..-1 plus measured 0..2, NOT Python's "from the end"
        trace = self.trace("--iterations", "-2:3")
        xs = x_events(trace)
        self.assertEqual({e["args"]["iteration"] for e in xs}, {-2, -1, 0, 1, 2})
        self.assertEqual({e["args"]["iteration"] for e in xs if e["args"]["warmup"]}, {-2, -1})
        self.assertEqual(trace["otherData"]["window_iterations"], "-2..2")
        c = [e for e in xs if e["pid"] == 1 and e["name"] == "compute"
             and e["args"]["iteration"] == -1]
        origin = trace["otherData"]["time_origin_s"]
        self.assertAlmostEqual(c[0]["ts"] / 1e6 + origin, self.events[1, WARMUP - 1, 0], delta=1e-8)
        # bounds before the first warm-up iteration are clipped: -3:4 is -2..3 here
        xs = x_events(self.trace("--iterations", "-3:4"))
        self.assertEqual({e["args"]["iteration"] for e in xs}, set(range(-2, 4)))
        # a single negative number is that warm-up iteration, not the last one
        xs = x_events(self.trace("--iterations", "-1"))
        self.assertEqual({e["args"]["iteration"] for e in xs}, {-1})
        # --include-warmup does not change an explicit window; it moves an open start to -W
        xs = x_events(self.trace("--iterations", ":1", "--include-warmup"))
        self.assertEqual({e["args"]["iteration"] for e in xs}, {-2, -1, 0})
        xs = x_events(self.trace("--iterations", ":1"))
        self.assertEqual({e["args"]["iteration"] for e in xs}, {0})


class SpmvTraceTest(SpmvFileTest):
    """The SpMV workload: its own event names, SPLIT-WAIT order."""

    def test_trace(self):
        trace = self.trace("--include-warmup")
        self.assertEqual(trace["otherData"]["workload"], "spmv")
        self.assertEqual(trace["otherData"]["clipped_events"], 0)
        xs = x_events(trace)
        self.assertEqual({e["name"] for e in xs},
                         {"pack", "post", "local", "wait", "remote", "barrier"})
        assert_tracks_do_not_overlap(self, xs)
        # one event per phase per iteration (the barrier of the last rank is 1 us or more)
        for pid in range(3):
            mine = [e for e in xs if e["pid"] == pid]
            self.assertEqual(len(mine), 6 * 12)
        # wait lies between local_end and wait_end
        origin = trace["otherData"]["time_origin_s"]
        ix = SPMV_EVENTS["split"].index
        for e in xs:
            if e["name"] == "wait":
                r, k = e["pid"], e["args"]["iteration"] + SPMV_WARMUP
                self.assertAlmostEqual(e["ts"] / 1e6 + origin, self.events[r, k, ix("local_end")],
                                       delta=1e-8)
                self.assertAlmostEqual((e["ts"] + e["dur"]) / 1e6 + origin,
                                       self.events[r, k, ix("wait_end")], delta=1e-8)
        # rank 1's slow local part in iteration 4 makes ranks 0 and 2 wait at the barrier
        barrier = {(e["pid"], e["args"]["iteration"]): e["dur"] for e in xs
                   if e["name"] == "barrier"}
        self.assertEqual({key for key, dur in barrier.items() if dur > 500}, {(0, 4), (2, 4)})


class MessageTraceTest(TriadFileTest):
    """The triad file with /messages (rank r sends to r+1 in every iteration): iteration markers
    and one flow arrow per message, bound to the slices the two ends lie in."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.sent = add_messages(cls.h5)  # (sender, recorded iteration index, post, completion)

    def flows(self, trace):
        ev = trace["traceEvents"]
        return [e for e in ev if e["ph"] == "s"], [e for e in ev if e["ph"] == "f"]

    def test_one_flow_per_message_of_the_window(self):
        trace = self.trace()
        starts, ends = self.flows(trace)
        in_window = [m for m in self.sent if m[1] >= WARMUP]  # measured iterations 0..17
        self.assertEqual(len(in_window), 3 * 18)
        self.assertEqual(len(starts), len(in_window))
        self.assertEqual(len(ends), len(in_window))
        self.assertEqual(trace["otherData"]["message_flows"], len(in_window))
        self.assertEqual(sorted(e["id"] for e in starts), list(range(len(in_window))))
        origin = trace["otherData"]["time_origin_s"]
        end_of = {e["id"]: e for e in ends}
        xs = x_events(trace)
        got = set()
        for s in starts:
            f = end_of[s["id"]]
            self.assertEqual((s["cat"], s["name"]), (f["cat"], f["name"]))
            self.assertEqual(f["bp"], "e")
            self.assertNotIn("bp", s)
            self.assertEqual(f["pid"], s["pid"] + 1)
            self.assertEqual(s["args"]["bytes"], MESSAGE_BYTES)
            # the send's post lies in the sender's post slice, the completion in the receiver's wait
            self.assertEqual(enclosing(xs, s), "post")
            self.assertEqual(enclosing(xs, f), "wait")
            got.add((s["pid"], round(s["ts"] / 1e6 + origin, 8), round(f["ts"] / 1e6 + origin, 8)))
        self.assertEqual(got, {(r, round(post, 8), round(done, 8)) for r, _, post, done in in_window})

    def test_flows_follow_the_window_and_the_stride(self):
        starts, _ = self.flows(self.trace("--ranks", "1:3"))
        self.assertEqual({s["pid"] for s in starts}, {1})  # 1 -> 2 only; 0 -> 1 and 2 -> 3 leave the window
        self.assertEqual(len(starts), 18)
        trace = self.trace("--stride", "5")
        starts, ends = self.flows(trace)
        self.assertEqual(len(starts), 3 * 4)  # iterations 0, 5, 10, 15 are exported
        self.assertEqual(len(ends), 3 * 4)
        starts, _ = self.flows(self.trace("--include-warmup"))
        self.assertEqual(len(starts), 3 * 20)

    def test_iteration_markers(self):
        trace = self.trace("--iterations", "4:9")
        marks = [e for e in trace["traceEvents"] if e["ph"] == "i"]
        self.assertEqual(len(marks), 4 * 5)
        origin = trace["otherData"]["time_origin_s"]
        for m in marks:
            k = m["args"]["iteration"]
            self.assertIn(k, range(4, 9))
            self.assertEqual((m["name"], m["cat"], m["s"], m["tid"]), ("iteration %d" % k, "iteration", "t", 0))
            self.assertAlmostEqual(m["ts"] / 1e6 + origin, self.events[m["pid"], WARMUP + k, 0], delta=1e-8)
        self.assertEqual({(m["pid"], m["args"]["iteration"]) for m in marks},
                         {(r, k) for r in range(4) for k in range(4, 9)})


def enclosing(xs, e):
    """The name of the X slice on e's track whose span holds e's ts (ends included)."""
    hits = [x["name"] for x in xs if x["pid"] == e["pid"] and x["tid"] == e["tid"]
            and x["ts"] - 1e-6 <= e["ts"] <= x["ts"] + x["dur"] + 1e-6]
    return hits[0] if len(hits) == 1 else hits


if __name__ == "__main__":
    unittest.main()
