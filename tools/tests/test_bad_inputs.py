#!/usr/bin/env python3
"""Every tool input checked (issue 26): each desync-view subcommand, check_output_layout.py,
desync-campaign collect and calibrate's readers, given a truncated file, an empty file, a
directory, a text file, another program's HDF5 file, a killed run's .tmp or a desync file
without a dataset it needs, prints ONE line naming the file and what is wrong, exits with 2,
prints no traceback and leaves no output behind (desync/guard.py, desync/h5file.py).

The commands run in-process (cli.main with argv), as tests/cli/output_fuzz.py runs them.

    /usr/bin/python3 -m unittest discover -s tools/tests -p test_bad_inputs.py -v
"""

import contextlib
import importlib.util
import io
import json
import os
import shutil
import tempfile
import unittest
from unittest import mock

import h5py
import numpy as np

from synthetic_files import stamp_run, write_synthetic
from view_helpers import TOOLS

from desync.calibrate_measure import read_divide, read_pingpong, read_saturation  # noqa: E402
from desync.campaign_cli import main as campaign_main  # noqa: E402
from desync.cli import main as view_main  # noqa: E402
from desync.errors import DesyncError  # noqa: E402

DOC = os.path.join(os.path.dirname(TOOLS), "docs", "output.md")
IGNORED = ("note:", "warning:")


def call(main, argv):
    """(exit status, stdout, stderr) of main(argv), in-process."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main([str(a) for a in argv])
        except SystemExit as exc:
            code = exc.code
    import matplotlib.pyplot as plt
    plt.close("all")
    return code, out.getvalue(), err.getvalue()


def layout_main():
    spec = importlib.util.spec_from_file_location("check_output_layout", os.path.join(TOOLS, "check_output_layout.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.run


def view_commands(path, out):
    """Every desync-view subcommand on path, its outputs under the prefix out."""
    png, js = out + ".png", out + ".json"
    return [["summary", path], ["timeline", path, "-o", png], ["compare", path, path],
            ["idlewave", path, "--json", js], ["wavefront", path, "--json", js], ["heatmap", path, "-o", png],
            ["efficiency", path, "--json", js], ["ppam", path, "--json", js, "-o", png],
            ["overlap", path, "--json", js], ["concurrency", path, "-o", png, "--json", js],
            ["synchrony", path, "-o", png, "--json", js], ["noise", path, "-o", out + ".noise.txt"],
            ["saturation", path, "-o", png, "--json", js], ["trace", path, "-o", js], ["otf2", path, "-o", out + ".otf2"],
            ["plan-plot", path, "-o", png, "--json", js]]


class BadInputTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        d = cls.tmp.name
        cls.good = os.path.join(d, "good.h5")
        write_synthetic(cls.good)
        size = os.path.getsize(cls.good)
        cls.bad = {}
        cls.bad["empty"] = os.path.join(d, "empty.h5")
        open(cls.bad["empty"], "w").close()
        cls.bad["directory"] = os.path.join(d, "dir.h5")
        os.mkdir(cls.bad["directory"])
        cls.bad["text"] = os.path.join(d, "text.h5")
        with open(cls.bad["text"], "w") as fh:
            fh.write("hello\n")
        for name, target in (("truncated", "cut.h5"), ("tmp", "run.h5.tmp")):
            cls.bad[name] = os.path.join(d, target)
            with open(cls.good, "rb") as src, open(cls.bad[name], "wb") as dst:
                dst.write(src.read(size // 2))
        cls.bad["other program"] = os.path.join(d, "other.h5")
        with h5py.File(cls.bad["other program"], "w") as f:
            f.create_dataset("timeline/events", data=np.zeros((2, 3, 4)))
        cls.no_events = os.path.join(d, "no_events.h5")
        shutil.copyfile(cls.good, cls.no_events)
        with h5py.File(cls.no_events, "r+") as f:
            del f["timeline/events"]
        cls.out = os.path.join(d, "out")
        os.mkdir(cls.out)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def setUp(self):
        shutil.rmtree(self.out)
        os.mkdir(self.out)

    def assertOneLine(self, code, out, err, path, what=None):
        lines = [l for l in err.splitlines() if l.strip() and not l.startswith(IGNORED)]
        self.assertEqual(code, 2, err)
        self.assertEqual(len(lines), 1, err)
        self.assertIn(path, lines[0])
        self.assertNotIn("Traceback", out + err)
        if what:
            self.assertIn(what, lines[0])
        self.assertEqual(os.listdir(self.out), [], "a failed command left outputs")

    def test_every_view_command_refuses_every_bad_file(self):
        for kind, path in self.bad.items():
            for argv in view_commands(path, os.path.join(self.out, "x")):
                with self.subTest(kind=kind, command=argv[0]):
                    self.assertOneLine(*call(view_main, argv), path)

    def test_messages_say_what_is_wrong(self):
        cases = {"empty": "an empty file", "directory": "is a directory", "text": "not an HDF5 file",
                 "truncated": "truncated:", "tmp": "this run did not finish writing it",
                 "other program": "not a desync output file"}
        for kind, what in cases.items():
            with self.subTest(kind=kind):
                self.assertOneLine(*call(view_main, ["summary", self.bad[kind]]), self.bad[kind], what)

    def test_missing_dataset_names_it_and_the_command(self):
        for argv in view_commands(self.no_events, os.path.join(self.out, "x")):
            if argv[0] in ("summary", "compare", "plan-plot", "saturation"):
                continue  # these do not read the timeline (saturation and plan-plot refuse the file otherwise)
            with self.subTest(command=argv[0]):
                self.assertOneLine(*call(view_main, argv), self.no_events,
                                   "missing dataset /timeline/events (needed by %s)" % argv[0])

    def test_wrong_type_and_shape(self):
        path = os.path.join(self.tmp.name, "strings.h5")
        shutil.copyfile(self.good, path)
        with h5py.File(path, "r+") as f:
            del f["topology/contention_domain"]
            f["topology/contention_domain"] = np.array([b"a", b"b", b"c", b"d"])
        self.assertOneLine(*call(view_main, ["wavefront", path]), path, "/topology/contention_domain holds")
        with h5py.File(path, "r+") as f:
            del f["topology/contention_domain"]
            f["topology/contention_domain"] = np.zeros((1, 4), int)
        self.assertOneLine(*call(view_main, ["concurrency", path, "-o", os.path.join(self.out, "c.png")]), path,
                           "expected numbers, 1 dimension(s), 4 row(s) (one per rank)")
        with h5py.File(path, "r+") as f:
            f.attrs["warmup_iterations"] = np.bytes_("two")
        self.assertOneLine(*call(view_main, ["timeline", path, "-o", os.path.join(self.out, "t.png")]), path,
                           "root attribute warmup_iterations = 'two' is not an integer")

    def test_an_unexpected_error_is_one_line_naming_the_file(self):
        with mock.patch("desync.view_commands.summary.summary_lines", side_effect=ZeroDivisionError("boom")):
            code, out, err = call(view_main, ["summary", self.good])
            self.assertOneLine(code, out, err, self.good, "ZeroDivisionError: boom")
            with mock.patch.dict(os.environ, {"DESYNC_TRACEBACK": "1"}):
                code, out, err = call(view_main, ["summary", self.good])
            self.assertEqual(code, 2)
            self.assertIn("Traceback", err)  # asked for: the traceback, then the one line

    def test_failed_command_leaves_no_output(self):
        # saturation writes --json before the picture: the picture's directory does not exist, so
        # the command fails after writing the JSON (exit 1, an output that cannot be written), and
        # the JSON it wrote is removed; an output that existed before and was not touched stays.
        sat = os.path.join(self.tmp.name, "sat.h5")
        shutil.copyfile(self.good, sat)
        with h5py.File(sat, "r+") as f:
            f["saturation/kernel"] = np.array([3])
            f["saturation/n"] = np.array([1, 2, 3])
            f["saturation/bandwidth"] = np.array([[1e9, 1.8e9, 2e9]])
            f["saturation/tolerance"] = 0.1
        js = os.path.join(self.out, "sat.json")
        code, out, err = call(view_main, ["saturation", sat, "-o", os.path.join(self.out, "no", "such", "x.png"),
                                          "--json", js])
        self.assertEqual(code, 1, err)
        self.assertFalse(os.path.exists(js))
        kept = os.path.join(self.out, "kept.png")
        with open(kept, "w") as fh:
            fh.write("mine")
        code, out, err = call(view_main, ["timeline", self.no_events, "-o", kept])
        self.assertEqual(code, 2)
        with open(kept) as fh:
            self.assertEqual(fh.read(), "mine")
        os.remove(kept)

    def test_partial_file_is_read_with_a_note(self):
        path = os.path.join(self.tmp.name, "run.h5.partial.0")
        shutil.copyfile(self.good, path)
        with h5py.File(path, "r+") as f:
            f.attrs["complete"] = np.int32(0)
            f.attrs["flushed"] = np.int32(1)
        code, out, err = call(view_main, ["summary", path])
        self.assertEqual(code, 0, err)
        self.assertTrue(err.startswith("note: %s is incomplete: written while the run ran" % path), err)
        self.assertEqual(len(err.splitlines()), 1)

    def test_plan_plot_refuses_bad_plans(self):
        plans = {"list.json": "[1, 2]", "number.json": "5", "cut.json": '{"nr": 4, "nnz"',
                 "types.json": json.dumps({"nr": 4, "nnz": 4, "bandwidth": 0, "ranks_total": 2, "ranks_per_node": 0,
                                           "ranks": [{"rank": 0, "partners": [{"rank": 1, "bytes": "many"}]}]})}
        for name, text in plans.items():
            path = os.path.join(self.tmp.name, name)
            with open(path, "w") as fh:
                fh.write(text)
            with self.subTest(plan=name):
                self.assertOneLine(*call(view_main, ["plan-plot", path, "-o", os.path.join(self.out, "p.png")]), path)

    def test_check_output_layout(self):
        run = layout_main()
        for kind, path in self.bad.items():
            with self.subTest(kind=kind):
                self.assertOneLine(*call(run, [DOC, path]), path)
        code, out, err = call(run, [DOC, self.no_events])  # a layout problem: listed, exit 1
        self.assertEqual(code, 1, err)
        self.assertIn("/timeline/events missing", out)
        self.assertNotIn("Traceback", out + err)
        imported = os.path.join(self.tmp.name, "imported.h5")  # desync-view import's mark
        with h5py.File(imported, "w") as f:
            f.attrs["format"] = np.bytes_("desync-output")
            f.attrs["imported"] = np.int32(1)
        code, out, err = call(run, [DOC, imported])
        self.assertEqual(code, 2, out + err)
        self.assertIn("an imported trace", err)

    def test_calibrate_readers(self):
        for kind, path in list(self.bad.items()) + [("no events", self.no_events)]:
            for reader in (read_saturation, read_pingpong, read_divide):
                with self.subTest(kind=kind, reader=reader.__name__):
                    with self.assertRaises(DesyncError) as cm:
                        reader(path)
                    self.assertIn(path, str(cm.exception))
                    self.assertEqual(len(str(cm.exception).splitlines()), 1)

    def test_campaign_collect(self):
        d = os.path.join(self.tmp.name, "campaign")
        os.makedirs(os.path.join(d, "results"))
        deck = os.path.join(d, "deck.toml")
        with open(deck, "w") as fh:
            fh.write("[run]\nworkload = \"triad\"\n")
        camp = os.path.join(d, "c.toml")
        with open(camp, "w") as fh:
            fh.write('[campaign]\nname = "c"\ndeck = "deck.toml"\n\n[axes]\nranks = [4, 8]\n')
        point = os.path.join(d, "results", "ranks4.h5")
        shutil.copyfile(self.good, point)
        stamp_run(point, deck_text="[run]\nworkload = \"triad\"\n", complete=1, ranks=4)
        with h5py.File(point, "r+") as f:  # readable as a point, but its topology is not numbers
            del f["topology/threads"]
            f["topology/threads"] = np.array([b"x"] * 4)
        shutil.copyfile(self.bad["truncated"], os.path.join(d, "results", "ranks8.h5"))
        csv = os.path.join(self.out, "c.csv")
        code, out, err = call(campaign_main, ["collect", camp, "--csv", csv,
                                              "--output-dir", os.path.join(d, "results")])
        self.assertEqual(code, 0, err)
        self.assertNotIn("Traceback", out + err)
        warnings = err.splitlines()
        self.assertEqual(len(warnings), 2, err)
        self.assertTrue(warnings[0].startswith("warning: point ranks4: %s: /topology/threads holds" % point), err)
        self.assertIn("ranks8.h5: truncated", warnings[1])
        self.assertEqual(out.count("unreadable"), 4, out)  # two rows, and both in the summary line
        os.remove(csv)
        for bad in (self.bad["directory"], self.bad["empty"], self.good):
            with self.subTest(campaign=bad):
                self.assertOneLine(*call(campaign_main, ["collect", bad, "--csv", csv]), bad)


if __name__ == "__main__":
    unittest.main()
