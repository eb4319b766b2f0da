"""`desync-view otf2` (issue 29, item 2): the archive read back with the OTF2 library's own
reader (python3-otf2) and with Debian's otf2-print: a location per rank under its node, regions
properly nested (iteration around its phases) with the timeline's phase times to the nanosecond,
MPI regions for the MPI phases, every message of /messages as Score-P records it (MpiIsend /
MpiIsendComplete, MpiIrecvRequest / MpiIrecv, matching on both ends), the run's description as
properties; windows; an existing target refused without --force; a failed export leaves nothing."""
import os
import subprocess
import tempfile
import unittest

import h5py
import numpy as np

from synthetic_files import MESSAGE_BYTES, MESSAGE_TAG, add_messages, write_synthetic
from view_helpers import run_view, timeline_of

import otf2  # noqa: E402  (Debian's python3-otf2, installed by ci/install-deps.sh)
from desync.phases import phase_tracks  # noqa: E402


def read_archive(folder):
    """{rank: [(type name, time, region name or event)]} and the definitions' facts."""
    out = {}
    with otf2.reader.open(os.path.join(folder, "traces.otf2")) as t:
        defs = t.definitions
        facts = {
            "locations": sorted((l.group.name, l.group.system_tree_parent.name) for l in defs.locations),
            "regions": {r.name: (r.paradigm, r.region_role) for r in defs.regions},
            "properties": {p.name: p.value for p in defs.system_tree_node_properties},
            "comms": [c.name for c in defs.comms],
        }
        for loc, ev in t.events:
            rank = int(loc.group.name.split()[-1])
            out.setdefault(rank, []).append(ev)
    return out, facts


class Otf2Export(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.TemporaryDirectory()
        cls.h5 = os.path.join(cls.dir.name, "chain.h5")
        write_synthetic(cls.h5)
        cls.sent = add_messages(cls.h5)
        cls.out = os.path.join(cls.dir.name, "archive")
        code, cls.stdout, err = run_view("otf2", cls.h5, "-o", cls.out)
        assert code == 0, err
        cls.events, cls.facts = read_archive(cls.out)

    @classmethod
    def tearDownClass(cls):
        cls.dir.cleanup()

    def test_a_location_per_rank_under_its_node(self):
        self.assertEqual(self.facts["locations"], [("MPI Rank 0", "node-a"), ("MPI Rank 1", "node-a"),
                                                   ("MPI Rank 2", "node-b"), ("MPI Rank 3", "node-b")])
        self.assertIn("wrote %s/traces.otf2 (4 ranks x 18 iterations" % self.out, self.stdout)

    def test_mpi_phases_are_mpi_regions(self):
        r = self.facts["regions"]
        self.assertEqual(r["iteration"], (otf2.Paradigm.USER, otf2.RegionRole.LOOP))
        self.assertEqual(r["compute"], (otf2.Paradigm.USER, otf2.RegionRole.FUNCTION))
        self.assertEqual(r["wait"], (otf2.Paradigm.MPI, otf2.RegionRole.POINT2POINT))
        self.assertEqual(r["post"], (otf2.Paradigm.MPI, otf2.RegionRole.POINT2POINT))

    def test_regions_nest_and_times_do_not_go_back(self):
        for rank, evs in self.events.items():
            stack, last = [], -1
            for ev in evs:
                self.assertGreaterEqual(ev.time, last)
                last = ev.time
                if isinstance(ev, otf2.events.Enter):
                    stack.append(ev.region.name)
                elif isinstance(ev, otf2.events.Leave):
                    self.assertEqual(stack.pop(), ev.region.name, "rank %d" % rank)
                    if stack:
                        self.assertEqual(stack, ["iteration"])
            self.assertEqual(stack, [])

    def test_phase_times_are_the_timelines(self):
        tl, _ = timeline_of(self.h5)
        order, tracks, _ = phase_tracks(tl)
        origin = float(self.facts["properties"]["desync::time_origin_s"])
        with otf2.reader.open(os.path.join(self.out, "traces.otf2")) as t:
            offset = t.definitions.clock_properties.global_offset
        for i, rank in enumerate(tl.ranks.tolist()):
            code, b, e, _ = tracks[i]
            got = [(ev.region.name, ev.time) for ev in self.events[rank]
                   if isinstance(ev, otf2.events.Enter) and ev.region.name != "iteration"]
            want = [(order[c], int(x)) for c, x in zip(code.tolist(), b.tolist())]
            self.assertEqual([n for n, _ in got], [n for n, _ in want])
            shift = int(round(origin * 1e9)) - offset  # the archive's ticks against the file's time base
            np.testing.assert_array_equal([t + shift for _, t in got], [t for _, t in want])

    def in_window(self):
        """The messages whose send and receive were both posted inside the exported span (from
        the window's earliest event: the measured iterations; a warm-up message posted after
        another rank began measuring counts). add_messages posts a receive in the middle of the
        receiver's post phase."""
        origin = round(float(self.facts["properties"]["desync::time_origin_s"]) * 1e9)
        with h5py.File(self.h5, "r") as f:
            ev = f["timeline/events"][()]
        post_mid = lambda r, k: (max(ev[r, k, 1], ev[r, k, 3] if np.isfinite(ev[r, k, 3]) else -np.inf)
                                 + ev[r, k, 4]) / 2
        return [m for m in self.sent if round(m[2] * 1e9) >= origin and round(post_mid(m[0] + 1, m[1]) * 1e9) >= origin]

    def test_every_message_on_both_ends(self):
        sends = {r: [ev for ev in evs if isinstance(ev, otf2.events.MpiIsend)] for r, evs in self.events.items()}
        recvs = {r: [ev for ev in evs if isinstance(ev, otf2.events.MpiIrecv)] for r, evs in self.events.items()}
        n = len(self.in_window())
        self.assertGreaterEqual(n, 3 * 18)  # 3 senders, 18 measured iterations
        self.assertEqual(sum(len(v) for v in sends.values()), n)
        self.assertEqual(sum(len(v) for v in recvs.values()), n)
        for r, evs in sends.items():
            self.assertTrue(all(ev.receiver == r + 1 and ev.msg_tag == MESSAGE_TAG and ev.msg_length == MESSAGE_BYTES
                                and ev.communicator.name == "MPI_COMM_WORLD" for ev in evs))
        for r, evs in recvs.items():
            self.assertTrue(all(ev.sender == r - 1 for ev in evs))
        # each request completes: an IsendComplete / IrecvRequest per request id
        for r, evs in self.events.items():
            ids = [ev.request_id for ev in evs if isinstance(ev, otf2.events.MpiIsend)]
            done = [ev.request_id for ev in evs if isinstance(ev, otf2.events.MpiIsendComplete)]
            self.assertEqual(sorted(ids), sorted(done))

    def test_the_runs_description(self):
        p = self.facts["properties"]
        self.assertEqual(p["desync::workload"], "triad")
        self.assertEqual(p["desync::verification"], "passed")

    def test_otf2_print_reads_it(self):
        run = subprocess.run(["otf2-print", os.path.join(self.out, "traces.otf2")], capture_output=True, text=True)
        self.assertEqual(run.returncode, 0, run.stderr)
        lines = run.stdout.splitlines()
        self.assertEqual(sum(1 for x in lines if x.startswith("MPI_ISEND ")), len(self.in_window()))
        self.assertEqual(sum(1 for x in lines if x.startswith("MPI_IRECV ")), len(self.in_window()))
        self.assertGreater(sum(1 for x in lines if x.startswith("ENTER ")), 4 * 18)

    def test_a_window(self):
        out = os.path.join(self.dir.name, "window")
        code, _, err = run_view("otf2", self.h5, "-o", out, "--ranks", "0:2", "--iterations", "3:6")
        self.assertEqual(code, 0, err)
        events, facts = read_archive(out)
        self.assertEqual([n for n, _ in facts["locations"]], ["MPI Rank 0", "MPI Rank 1"])
        its = sum(1 for ev in events[0] if isinstance(ev, otf2.events.Enter) and ev.region.name == "iteration")
        self.assertEqual(its, 3)
        # only messages between ranks 0 and 1: rank 0's sends to 1, none of rank 1's to 2
        self.assertTrue(all(ev.receiver == 1 for ev in events[0] if isinstance(ev, otf2.events.MpiIsend)))
        self.assertFalse([ev for ev in events[1] if isinstance(ev, otf2.events.MpiIsend)])

    def test_an_existing_target_needs_force(self):
        out = os.path.join(self.dir.name, "again")
        self.assertEqual(run_view("otf2", self.h5, "-o", out)[0], 0)
        code, _, err = run_view("otf2", self.h5, "-o", out)
        self.assertEqual(code, 2)
        self.assertEqual(len(err.strip().splitlines()), 1)
        self.assertIn("exists; give another -o or --force", err)
        self.assertEqual(run_view("otf2", self.h5, "-o", out, "--force")[0], 0)
        self.assertTrue(os.path.isfile(os.path.join(out, "traces.otf2")))
        # --force replaces an archive, never another folder (-o . would be the working folder),
        # nor the folder that holds the run.
        other = os.path.join(self.dir.name, "other")
        os.makedirs(other)
        with open(os.path.join(other, "notes.txt"), "w") as fh:
            fh.write("a user's file")
        code, _, err = run_view("otf2", self.h5, "-o", other, "--force")
        self.assertEqual(code, 2, err)
        self.assertIn("is not an OTF2 archive", err)
        self.assertTrue(os.path.isfile(os.path.join(other, "notes.txt")))
        code, _, err = run_view("otf2", self.h5, "-o", os.path.dirname(self.h5), "--force")
        self.assertEqual(code, 2, err)
        self.assertIn("holds the input", err)
        self.assertTrue(os.path.isfile(self.h5))

    def test_a_failed_export_leaves_nothing(self):
        bad = os.path.join(self.dir.name, "bad.h5")
        with open(bad, "wb") as fh:
            fh.write(b"not an HDF5 file")
        out = os.path.join(self.dir.name, "nothing")
        code, _, err = run_view("otf2", bad, "-o", out)
        self.assertEqual(code, 2)
        self.assertFalse(os.path.exists(out))
        self.assertFalse([n for n in os.listdir(self.dir.name) if n.startswith(".otf2-")])


if __name__ == "__main__":
    unittest.main()
