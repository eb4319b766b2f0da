#!/usr/bin/env python3
"""The file describes its phases (docs/output.md, /phases; tools/desync/phase_classes.py).

A made-up workload whose phases no Python code knows ("crunch": work, "chat": communication, with
the shared wait, delay and sync) goes through every analysis of desync_view.py, which must take
its classes, colours and labels from the file; the same file without /phases (as written before
2026-11-27) keeps today's grey for the unknown phases; and the fallback table gives the phases
the tools always knew the classes, colours and numbers they had before /phases existed.

Run from the repository root with
    /usr/bin/python3 -m unittest discover -s tools/tests -v
or directly: /usr/bin/python3 tools/tests/test_described_phases.py
"""

import json
import os
import shutil
import tempfile
import unittest

import h5py
import numpy as np

# view_helpers first: it puts tools/ on sys.path for the package desync
from view_helpers import legend_labels, png_colour_counts, run_view, timeline_of, x_events
from desync import phase_classes as pc
from desync.concurrency_plot import analyse as concurrency_analyse
from desync.h5file import open_output
from desync.timeline_plot import UNKNOWN_STYLE, draw_timeline, style
from synthetic_files import COMPUTE, PHASES, SPMV_PHASES, WARMUP, write_synthetic, write_synthetic_spmv  # noqa: E402
from synthetic_made_up import (MADE_UP_DELAY_ITERATION, MADE_UP_DELAY_RANK, MADE_UP_DESCRIPTION,  # noqa: E402
                               write_synthetic_made_up)
from synthetic_phases import describe, fallback_description  # noqa: E402

CRUNCH, GREY = [0x12, 0x34, 0x56], [0xA0, 0xA0, 0xA0]


def legend(path):
    """{label: (facecolor, edgecolor, hatch)} of the timeline picture's phase entries."""
    import matplotlib.pyplot as plt
    from matplotlib.colors import to_hex

    tl, attrs = timeline_of(path)
    with open_output(path) as f:
        described = pc.described(f)
    fig = draw_timeline(tl, attrs, phases=described)
    try:
        leg = fig.axes[0].get_legend()
        handles = getattr(leg, "legend_handles", None) or leg.legendHandles
        return {t.get_text(): (to_hex(h.get_facecolor()), to_hex(h.get_edgecolor()), h.get_hatch())
                for t, h in zip(leg.get_texts(), handles) if hasattr(h, "get_hatch")}
    finally:
        plt.close(fig)


class MadeUpWorkload(unittest.TestCase):
    """A file WITH /phases of a workload no Python code knows."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.h5 = os.path.join(cls.tmp.name, "madeup.h5")
        cls.events = write_synthetic_made_up(cls.h5)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def path(self, name):
        return os.path.join(self.tmp.name, name)

    def view_json(self, command, *extra):
        out = self.path(command + ".json")
        code, text, err = run_view(command, self.h5, "--json", out, *extra)
        self.assertEqual(code, 0, err)
        with open(out) as f:
            return json.load(f), text

    def test_the_file_gives_the_classes(self):
        with h5py.File(self.h5, "r") as f:
            table = pc.phase_table(f)
            self.assertEqual(list(table), [row[0] for row in MADE_UP_DESCRIPTION])
            self.assertEqual((table["crunch"]["class"], table["crunch"]["colour"], table["crunch"]["label"]),
                             ("work", "#123456", "crunch (made up)"))
            self.assertEqual(pc.work_phases(f), ("crunch",))
            self.assertEqual(pc.idle_phases(f), ("wait", "sync"))
            self.assertEqual(pc.sync_phases(f), ("sync",))
            self.assertEqual(pc.delay_phases(f), ("delay",))
            self.assertEqual(pc.mpi_phases(["crunch", "delay", "chat", "wait", "sync"], pc.described(f)),
                             ["chat", "wait", "sync"])
            self.assertEqual(f["phases/class"].attrs["units"], b"text")

    def test_idle_waves_use_the_work_and_wait_classes(self):
        r, text = self.view_json("idlewave")
        self.assertEqual(r["idle_phases"], ["wait", "sync"])
        self.assertEqual(r["source"], {"rank": MADE_UP_DELAY_RANK, "iteration": MADE_UP_DELAY_ITERATION,
                                       "given": True})
        up = r["waves"][0]
        self.assertEqual((up["direction"], up["reached"]), ("up", 5))
        self.assertAlmostEqual(up["speed_ranks_per_iteration"], 1.0, places=6)
        # the contention model's uncontended compute time t1 is the crunch phase (class work)
        self.assertIn("t1_s", up["model"], up["model"])
        self.assertAlmostEqual(up["model"]["t1_s"], COMPUTE * 1.025, delta=0.03 * COMPUTE)

    def test_wavefront_and_concurrency_count_ranks_inside_crunch(self):
        r, text = self.view_json("wavefront")
        self.assertIn("concurrency (ranks in crunch at 200 instants)", text)
        self.assertEqual(r["work_phases"], ["crunch"])
        lw = r["lockstep_vs_wave"]
        self.assertEqual(lw["communication_phases"], ["chat", "wait", "sync"])
        self.assertAlmostEqual(lw["lock_step"]["compute_s"], COMPUTE * 1.025, delta=1e-9)
        # the concurrency series counts exactly the ranks inside a crunch interval at each instant
        with open_output(self.h5) as f:
            c = concurrency_analyse(f, samples=500)
        self.assertEqual(c["work_phases"], ["crunch"])
        ev = self.events[:, WARMUP:, :]
        b, e = ev[..., 0], ev[..., 1]  # begin, crunch_end
        expected = [int(((b <= t) & (t < e)).any(axis=1).sum()) for t in c["times"]]
        self.assertEqual(c["series"][0].tolist(), expected)
        self.assertEqual((min(expected), max(expected)), (0, 6))
        code, out, err = run_view("concurrency", self.h5, "-o", self.path("conc.png"))
        self.assertEqual(code, 0, err)
        self.assertIn("ranks in crunch at", out)

    def test_efficiency_takes_crunch_as_useful_time(self):
        r, text = self.view_json("efficiency")
        self.assertIn("useful = crunch;", text)
        self.assertEqual(r["work_phases"], ["crunch"])
        self.assertEqual(r["replay"]["replayed_phases"], ["crunch", "delay"])
        self.assertEqual(r["replay"]["global_iterations"], 18)  # a sync phase (class sync) every iteration
        useful = (self.events[:, WARMUP:, 1] - self.events[:, WARMUP:, 0]).sum(axis=1)
        np.testing.assert_allclose(r["useful_s"], useful, rtol=1e-12)

    def test_summary_trace_heatmap_and_ppam(self):
        code, out, err = run_view("summary", self.h5)
        self.assertEqual(code, 0, err)
        self.assertIn("crunch", out)
        code, out, err = run_view("trace", self.h5, "-o", self.path("t.json"))
        self.assertEqual(code, 0, err)
        with open(self.path("t.json")) as f:
            names = {e["name"] for e in x_events(json.load(f))}
        self.assertEqual(names, {"crunch", "delay", "chat", "wait", "sync"})
        code, out, err = run_view("heatmap", self.h5, "-o", self.path("h.png"))
        self.assertEqual(code, 0, err)
        r, text = self.view_json("ppam")
        self.assertEqual(r["idle_phases"], ["wait", "sync"])
        self.assertEqual(r["mpi_phases"], ["chat", "wait", "sync"])

    def test_timeline_draws_the_files_colours_and_labels(self):
        entries = legend(self.h5)
        self.assertEqual(list(entries), ["crunch (made up)", "injected delay", "chat (made up)", "wait (Waitall)",
                                         "sync (barrier/allreduce)"])
        self.assertEqual(entries["crunch (made up)"], ("#123456", pc.darker("#123456"), None))
        self.assertEqual(entries["chat (made up)"][:2], ("#abcdef", pc.darker("#abcdef")))
        # phases the tools always knew keep their look: wait, delay and the hatched sync
        self.assertEqual(entries["wait (Waitall)"], ("#e0201b", "#e0201b", None))
        self.assertEqual(entries["sync (barrier/allreduce)"], ("#f5a623", "#8b2500", "////"))
        png = self.path("timeline.png")
        code, out, err = run_view("timeline", self.h5, "-o", png)
        self.assertEqual(code, 0, err)
        crunch, grey = png_colour_counts(png, [CRUNCH, GREY], tolerance=4)
        self.assertGreater(crunch, 1000)
        # the same run without /phases: crunch is in the unknown grey (a few grey pixels of
        # anti-aliased text are in both pictures)
        old, old_png = self.path("old.h5"), self.path("old.png")
        write_synthetic_made_up(old, described=False)
        code, out, err = run_view("timeline", old, "-o", old_png)
        self.assertEqual(code, 0, err)
        old_crunch, old_grey = png_colour_counts(old_png, [CRUNCH, GREY], tolerance=4)
        self.assertEqual(old_crunch, 0)
        self.assertGreater(old_grey, 0.9 * crunch)
        self.assertLess(grey, 0.05 * old_grey)


class MadeUpWorkloadWithoutPhases(unittest.TestCase):
    """The same run in a file without /phases: its own phases are unknown, grey, as before."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.h5 = os.path.join(cls.tmp.name, "madeup_old.h5")
        write_synthetic_made_up(cls.h5, described=False)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_unknown_phases_stay_grey(self):
        with h5py.File(self.h5, "r") as f:
            self.assertIsNone(pc.described(f))
            self.assertEqual(pc.work_phases(f), pc.FALLBACK_WORK)
        self.assertEqual(style("crunch")["facecolor"], UNKNOWN_STYLE["facecolor"])
        entries = legend(self.h5)
        self.assertEqual(entries["crunch"][0], UNKNOWN_STYLE["facecolor"])
        self.assertEqual(entries["chat"][0], UNKNOWN_STYLE["facecolor"])
        self.assertEqual(entries["wait (Waitall)"][0], "#e0201b")
        self.assertEqual(legend_labels(self.h5), ["crunch", "injected delay", "chat", "wait (Waitall)",
                                                  "sync (barrier/allreduce)"])

    def test_no_work_phase_without_phases(self):
        code, out, err = run_view("efficiency", self.h5)
        self.assertEqual(code, 2)
        self.assertIn("no work phase in this file (looked for compute, local,", err)
        code, out, err = run_view("idlewave", self.h5)  # wait and sync are known without /phases
        self.assertEqual(code, 0, err)
        self.assertIn("idle phases wait+sync", out)


class Fallback(unittest.TestCase):
    """Files without /phases: the classes, colours and numbers of before."""

    #: the class of every phase of every workload known when /phases came (docs/output.md, Phases)
    CLASSES = {
        "work": ["compute", "local", "remote", "sweep", "fused", "part1", "part2", "interior", "spmv", "pq",
                 "update", "direction", "product", "gemm1", "gemm2", "cannon1", "cannon2"],
        "wait": ["wait"],
        "sync": ["sync", "barrier", "pq_allreduce", "rr_allreduce"],
        "delay": ["delay"],
        "communication": ["latency", "pack", "post", "unpack", "reply", "allreduce", "bcast", "bcast1", "bcast2",
                          "reduce", "reduce1", "reduce2", "reduce_bcast", "reduce_p2p", "p2p", "p2p1", "p2p2",
                          "transpose"],
        "total": ["exec", "comm", "broadcasts", "reductions", "transfers", "multiplies", "communication",
                  "collectives", "cannon", "iteration"],
    }

    def test_every_known_phase_has_its_class(self):
        for cls, names in self.CLASSES.items():
            for name in names:
                self.assertEqual(pc.phase_class(name), cls, name)
        self.assertEqual(sorted(pc.FALLBACK), sorted(sum(self.CLASSES.values(), [])))
        self.assertEqual(pc.phase_class("crunch"), "communication")  # unknown: counted as before

    def test_the_old_lists(self):
        # wavefronts.WORK_PHASES, idle_waves.IDLE_PHASES and efficiency.GLOBAL_PHASES before /phases
        self.assertEqual(pc.FALLBACK_WORK, tuple(self.CLASSES["work"]))
        self.assertEqual(pc.FALLBACK_IDLE, ("wait", "sync", "barrier", "pq_allreduce", "rr_allreduce"))
        self.assertEqual(pc.FALLBACK_DELAY, ("delay",))
        # allreduce (symmsquarecube 2.5d, over the layers) was global too; that workload is
        # collective, so every iteration ends globally in the replay all the same
        self.assertEqual(set(pc.FALLBACK_SYNC) | {"allreduce"},
                         {"sync", "barrier", "pq_allreduce", "rr_allreduce", "allreduce"})
        self.assertEqual(pc.mpi_phases(["pack", "latency", "post", "wait", "unpack", "sweep", "delay", "sync"]),
                         ["post", "wait", "sync"])  # ppam's LOCAL_PHASES: delay, pack, unpack, latency
        self.assertEqual(style("latency")["hatch"], "\\\\")
        self.assertEqual(style("barrier")["hatch"], "////")
        self.assertEqual(style("pq_allreduce")["hatch"], None)

    def test_described_known_workloads_give_the_same_numbers(self):
        # a file written today describes the triad's and SpMV's phases as the fallback does: the
        # analyses give the same numbers and the picture the same legend with or without /phases
        with tempfile.TemporaryDirectory() as tmp:
            for name, write, phases in (("triad", write_synthetic, PHASES),
                                        ("spmv", write_synthetic_spmv, SPMV_PHASES)):
                old, new = os.path.join(tmp, name + "_old.h5"), os.path.join(tmp, name + "_new.h5")
                write(old)
                shutil.copy(old, new)
                describe(new, fallback_description(phases))
                with self.subTest(workload=name):
                    self.assertEqual(legend(old), legend(new))
                    for command in ("idlewave", "wavefront", "efficiency", "ppam"):
                        results = []
                        for path in (old, new):
                            out = path + "." + command + ".json"
                            code, text, err = run_view(command, path, "--json", out)
                            self.assertEqual(code, 0, err)
                            with open(out) as f:
                                results.append(json.load(f))
                        self.assertEqual(results[0], results[1], command)

    def test_a_new_colour_gets_a_darker_edge(self):
        table = {"compute": {"class": "work", "colour": "#FF8000", "label": "compute"},
                 "hold": {"class": "sync", "colour": "#808080", "label": "hold"},
                 "latency": {"class": "communication", "colour": "#000080", "label": "lat"},
                 "bad": {"class": "work", "colour": "green", "label": "bad colour"}}
        self.assertEqual(style("compute", table), dict(facecolor="#ff8000", edgecolor="#994c00", hatch=None,
                                                       label="compute"))
        self.assertEqual(style("hold", table)["hatch"], "////")
        self.assertEqual(style("latency", table)["hatch"], "\\\\")
        self.assertEqual(style("bad", table), dict(UNKNOWN_STYLE, label="bad colour"))


if __name__ == "__main__":
    unittest.main()
