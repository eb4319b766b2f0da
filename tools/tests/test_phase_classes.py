"""phase_classes: a file's /phases decides the analyses' phase sets; a file without it gets the
lists the tools used before /phases existed."""

import os
import sys
import tempfile
import unittest

import h5py
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from desync import phase_classes as pc  # noqa: E402
from desync.timeline_plot import STYLE, style  # noqa: E402


def write(path, phases=None):
    with h5py.File(path, "w") as f:
        f.attrs["workload"] = "made_up"
        if phases:
            g = f.create_group("phases")
            for key in ("name", "class", "colour", "label"):
                g.create_dataset(key, data=np.array([p[key].encode() for p in phases], dtype="S32"))


class PhaseClasses(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)

    def test_old_file_gets_the_old_lists(self):
        path = os.path.join(self.tmp.name, "old.h5")
        write(path)
        with h5py.File(path, "r") as f:
            self.assertIsNone(pc.described(f))
            self.assertEqual(pc.work_phases(f), pc.FALLBACK_WORK)
            self.assertIn("sweep", pc.work_phases(f))
            self.assertEqual(pc.idle_phases(f), ("wait", "sync", "barrier", "pq_allreduce", "rr_allreduce"))
            self.assertEqual(pc.not_communication(f), ("delay",))

    def test_new_workload_is_described_by_its_file(self):
        path = os.path.join(self.tmp.name, "new.h5")
        write(path, [{"name": "crunch", "class": "work", "colour": "#123456", "label": "crunching"},
                     {"name": "chat", "class": "communication", "colour": "#abcdef", "label": "chatting"},
                     {"name": "wait", "class": "wait", "colour": "#e0201b", "label": "wait (Waitall)"},
                     {"name": "hold", "class": "sync", "colour": "#f5a623", "label": "hold"},
                     {"name": "delay", "class": "delay", "colour": "#1f5fd6", "label": "injected delay"},
                     {"name": "iteration", "class": "total", "colour": "#ffffff", "label": "iteration"}])
        with h5py.File(path, "r") as f:
            d = pc.described(f)
            self.assertEqual(pc.work_phases(f), ("crunch",))
            self.assertEqual(pc.idle_phases(f), ("wait", "hold"))
            self.assertEqual(pc.sync_phases(f), ("hold",))
            self.assertEqual(pc.not_communication(f), ("delay", "iteration"))
        st = style("crunch", d)
        self.assertEqual((st["facecolor"], st["label"]), ("#123456", "crunching"))
        self.assertEqual(style("hold", d)["hatch"], "////")
        # a phase the tools have always drawn keeps its look; an unknown one without /phases is grey
        self.assertEqual(style("wait", d), STYLE["wait"])
        self.assertEqual(style("crunch")["label"], "crunch")


if __name__ == "__main__":
    unittest.main()
