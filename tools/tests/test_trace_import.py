"""`desync-view import` (issue 29, items 1 and 3) on traces desync did not write (foreign_traces.py:
an OTF2 archive in Score-P's conventions and DisCostiC's Chrome JSON, written through the formats'
own libraries): the known answers (a delay's idle wave travels one rank per iteration; a
lock-step run has none), every subcommand runs on the imported file, the messages arrive as
/messages; the round trip desync file -> `desync-view otf2` -> import keeps each rank's
iterations and waits to the clock's nanosecond and the idle wave's result; bad traces give one
line, exit 2 and no file."""
import json
import os
import tempfile
import unittest

import h5py
import numpy as np

import foreign_traces as ft
from synthetic_files import add_messages, write_synthetic
from view_helpers import run_view

from desync import efficiency, heatmap, idle_waves, wavefronts  # noqa: E402
from desync.timeline import read_timeline  # noqa: E402
from desync.window import select_window  # noqa: E402
from desync.h5file import open_output  # noqa: E402

DELAY = (0, 10, 5e-3)  # rank 0, iteration 10, 5 ms


def waves(path):
    with open_output(path) as f:
        return {w["direction"]: w for w in idle_waves.analyse(f)["waves"]}


class ImportKnownAnswers(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        d = cls.tmp.name
        rows, msgs = ft.chain(6, 30, delay=DELAY)
        cls.json, cls.otf2 = os.path.join(d, "chain.json"), os.path.join(d, "archive")
        ft.write_chrome(cls.json, rows, msgs)
        ft.write_otf2(cls.otf2, rows, msgs)
        rows, msgs = ft.chain(6, 30)
        cls.lockstep = os.path.join(d, "lockstep.json")
        ft.write_chrome(cls.lockstep, rows, msgs)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def imported(self, name, *args):
        out = os.path.join(self.tmp.name, name)
        code, stdout, stderr = run_view("import", *args, "-o", out, "--force")
        self.assertEqual(code, 0, stderr)
        self.assertIn("6 ranks x 30 iterations", stdout)
        return out

    def check_wave(self, path):
        w = waves(path)["up"]
        pts = [(p["distance"], p["iteration"]) for p in w["points"]]
        self.assertGreaterEqual(len(pts), 4, pts)
        # one rank further per iteration; no delay is recorded in the trace, so the source is the
        # first idle rank (the delayed rank's neighbour, at the delay's iteration)
        for d, it in pts:
            self.assertEqual(it - d, DELAY[1], pts)

    def test_otf2_idle_wave_one_rank_per_iteration(self):
        out = self.imported("otf2.h5", os.path.join(self.otf2, "traces.otf2"), "--iteration-region", "timestep")
        self.check_wave(out)
        with h5py.File(out, "r") as f:
            self.assertEqual(int(f.attrs["imported"]), 1)
            names = [n.decode() for n in f["timeline/events"].attrs["event_names"]]
            # rank 0 receives nothing: between its MPI_Isend and MPI_Waitall it works (compute_2,
            # NaN on the other ranks)
            self.assertEqual(names, ["begin", "compute_end", "post_end", "compute_2_end", "wait_end"])
            ev = f["timeline/events"][...]
            self.assertTrue(np.isfinite(ev[0, :, 3]).all())
            self.assertTrue(np.isnan(ev[1:, :, 3]).all())
            # every message of the chain, on both ends: 5 pairs x 30 iterations
            self.assertEqual(int(f["messages/count"][...].sum()), 2 * 5 * 30)
            send = f["messages/send"][...] == 1
            self.assertTrue(np.all(f["messages/bytes"][...][send] == ft.BYTES))

    def test_otf2_by_call(self):
        # the end of every MPI_Waitall ends an iteration: the same 30 iterations and wave
        self.check_wave(self.imported("call.h5", os.path.join(self.otf2, "traces.otf2"), "--iteration-call", "MPI_Waitall"))

    def test_detected_iterations(self):
        # no option: every rank calls MPI_Waitall once per iteration, regularly: detected
        code, stdout, err = run_view("import", os.path.join(self.otf2, "traces.otf2"), "-o",
                                     os.path.join(self.tmp.name, "det.h5"), "--force")
        self.assertEqual(code, 0, err)
        self.assertIn("every call of MPI_Waitall", stdout)
        self.check_wave(os.path.join(self.tmp.name, "det.h5"))

    def test_chrome_idle_wave_one_rank_per_iteration(self):
        out = self.imported("chrome.h5", self.json, "--iteration-region", "COMP")
        self.check_wave(out)

    def test_chrome_gzip(self):
        # desync-view trace writes .json.gz too: the same import from the compressed file
        import gzip
        import shutil
        gz = os.path.join(self.tmp.name, "chain.json.gz")
        with open(self.json, "rb") as src, gzip.open(gz, "wb") as dst:
            shutil.copyfileobj(src, dst)
        self.check_wave(self.imported("gz.h5", gz, "--iteration-region", "COMP"))

    def test_lock_step_has_no_wave(self):
        out = self.imported("lock.h5", self.lockstep, "--iteration-region", "COMP")
        w = waves(out)
        self.assertTrue(all(len(x["points"]) < 3 for x in w.values()), w)
        rows, msgs = ft.chain(6, 30)
        arch = os.path.join(self.tmp.name, "lockstep_arch")
        ft.write_otf2(arch, rows, msgs)
        w = waves(self.imported("lock_otf2.h5", os.path.join(arch, "traces.otf2"), "--iteration-region", "timestep"))
        self.assertTrue(all(len(x["points"]) < 3 for x in w.values()), w)

    def front(self, fmt):
        """The wavefront fit of a standing front imported from `fmt` (chrome or otf2): 8 ranks,
        each 40 us behind its left neighbour and computing as long, in 4 domains of 2 ranks."""
        rows, msgs = ft.chain(8, 20, stagger=40e-6, drift=0.0)
        if fmt == "chrome":
            src = os.path.join(self.tmp.name, "front.json")
            ft.write_chrome(src, rows, msgs)
            region = "COMP"
        else:
            arch = os.path.join(self.tmp.name, "front_arch")
            ft.write_otf2(arch, rows, msgs, hosts_per_node=4)
            src, region = os.path.join(arch, "traces.otf2"), "timestep"
        out = os.path.join(self.tmp.name, "front_%s.h5" % fmt)
        code, stdout, err = run_view("import", src, "-o", out, "--iteration-region", region, "--domains", "2", "--force")
        self.assertEqual(code, 0, err)
        self.assertIn("contention domains: 4, 2 consecutive ranks%s per domain" % (" of a host" if fmt == "otf2" else ""),
                      stdout)
        js = os.path.join(self.tmp.name, "front_%s.json" % fmt)
        code, stdout, err = run_view("wavefront", out, "--json", js)
        self.assertEqual(code, 0, err)
        with open(js) as fh:
            return json.load(fh), stdout

    def test_wavefront_slope_is_the_stagger(self):
        # a standing front of 1 / 40 us = 25000 ranks/s, which the wavefront fit must read from
        # either format's imported trace; along the chain one rank is one hop (25000 hops/s); the
        # concurrency counts per --domains domain (2 ranks each, both computing nearly always)
        for fmt in ("chrome", "otf2"):
            res, stdout = self.front(fmt)
            w = res["wavefront"]
            self.assertAlmostEqual(w["median_slope_ranks_per_s"] / 25000.0, 1.0, delta=0.01, msg=fmt + stdout)
            self.assertAlmostEqual(w["median_slope_hops_per_s"] / 25000.0, 1.0, delta=0.01, msg=fmt + stdout)
            self.assertEqual(sorted(res["concurrency"]), ["0", "1", "2", "3"], fmt)
            self.assertTrue(all(c["ranks"] == 2 for c in res["concurrency"].values()), res["concurrency"])

    def test_cores_give_the_contention_model(self):
        # a trace names no cores, so the idle-wave contention model has none; --cores 2 (each
        # host's 2 ranks on 2 cores: no contention) gives it, and on this core-bound chain it
        # predicts the measured speed (one iteration per rank)
        src = os.path.join(self.otf2, "traces.otf2")
        plain = waves(self.imported("nocores.h5", src, "--iteration-region", "timestep"))["up"]
        self.assertIn("unknown", plain["model"]["note"])
        w = waves(self.imported("cores.h5", src, "--iteration-region", "timestep", "--cores", "2"))["up"]
        self.assertEqual(w["model"]["cores"], 2.0)
        self.assertAlmostEqual(w["model"]["measured_over_model"], 1.0, delta=0.05, msg=w["model"])

    def test_domains(self):
        # OTF2: 2 ranks per host (3 hosts): one domain per host unless --domains says otherwise
        src = os.path.join(self.otf2, "traces.otf2")
        for extra, want in (([], [0, 0, 1, 1, 2, 2]), (["--domains", "1"], [0, 1, 2, 3, 4, 5]),
                            (["--domains", "4"], [0, 0, 1, 1, 2, 2])):
            out = self.imported("dom.h5", src, "--iteration-region", "timestep", *extra)
            with h5py.File(out, "r") as f:
                self.assertEqual(f["topology/contention_domain"][...].tolist(), want, extra)
        listing = os.path.join(self.tmp.name, "domains.txt")
        with open(listing, "w") as fh:
            fh.write("0 0 0\n1 1 1\n")
        out = self.imported("dom.h5", self.json, "--iteration-region", "COMP", "--domains", listing)
        with h5py.File(out, "r") as f:
            self.assertEqual(f["topology/contention_domain"][...].tolist(), [0, 0, 0, 1, 1, 1])
            self.assertIn(b"--domains", f["import/domains"][()])

    def test_every_subcommand_runs_on_an_import(self):
        out = self.imported("all.h5", self.json, "--iteration-region", "COMP")
        suffix = {"heatmap": ".png", "timeline": ".png", "trace": ".json", "otf2": ""}
        for cmd in (("summary",), ("idlewave",), ("wavefront",), ("efficiency",), ("heatmap", "-o"),
                    ("timeline", "-o"), ("trace", "-o"), ("otf2", "-o")):
            target = [os.path.join(self.tmp.name, cmd[0] + suffix[cmd[0]])] if cmd[-1] == "-o" else []
            args = [cmd[0], out] + list(cmd[1:]) + target
            if cmd[0] == "otf2":
                args.append("--force")
            code, stdout, stderr = run_view(*args)
            self.assertEqual(code, 0, "%s: %s" % (cmd[0], stderr))


class ImportRoundTrip(unittest.TestCase):
    def test_desync_file_to_otf2_and_back(self):
        with tempfile.TemporaryDirectory() as d:
            src = os.path.join(d, "run.h5")
            write_synthetic(src)
            add_messages(src)
            arch = os.path.join(d, "arch")
            code, _, err = run_view("otf2", src, "-o", arch)
            self.assertEqual(code, 0, err)
            # the export names its MPI regions by desync's phases: classes for them
            classes = os.path.join(d, "classes.txt")
            with open(classes, "w") as fh:
                fh.write("post post\nwait wait\nbarrier sync\ndelay delay\n")
            back = os.path.join(d, "back.h5")
            code, out, err = run_view("import", os.path.join(arch, "traces.otf2"), "-o", back, "--iteration-region",
                                      "iteration", "--classes", classes)
            self.assertEqual(code, 0, err)
            with h5py.File(src, "r") as f:
                names = [n.decode() for n in f["timeline/events"].attrs["event_names"]]
                ev = f["timeline/events"][...][:, f["timeline/warmup"][...] == 0, :]
            with h5py.File(back, "r") as g:
                bnames = [n.decode() for n in g["timeline/events"].attrs["event_names"]]
                bev = g["timeline/events"][...]
            # the export writes the measured iterations; each rank's iteration begins and its
            # waits' ends come back to the nanosecond (both relative to rank 0's first iteration)
            n = min(ev.shape[1], bev.shape[1])
            self.assertGreaterEqual(n, ev.shape[1] - 1)
            rel = lambda a: a - a[0, 0, 0]  # noqa: E731
            np.testing.assert_allclose(rel(bev)[:, :n, 0], rel(ev)[:, :n, names.index("compute_begin")], atol=2e-9)
            np.testing.assert_allclose(rel(bev)[:, :n, bnames.index("wait_end")],
                                       rel(ev)[:, :n, names.index("wait_end")], atol=2e-9)
            # and the analysis agrees: the same wave, the same arrivals
            a, b = waves(src)["up"], waves(back)["up"]
            self.assertEqual([(p["distance"], p["iteration"]) for p in a["points"]],
                             [(p["distance"], p["iteration"]) for p in b["points"]])
            # and the wavefront fits, along the rank numbers and along the graph (the source's
            # from /comm partners, the import's from /messages: the same chain)
            with open_output(src) as f:
                wa = wavefronts.analyse(f)["wavefront"]
            with open_output(back) as f:
                wb = wavefronts.analyse(f)["wavefront"]
            for key in ("median_slope_ranks_per_s", "median_slope_hops_per_s", "median_amplitude_s"):
                self.assertAlmostEqual(wb[key] / wa[key], 1.0, delta=1e-3, msg=key)
            # the POP efficiencies with serialization and transfer (the import's dependencies
            # from the senders in /messages, the source's from /comm/recv_partner) and the heat
            # map's idle matrix
            got = {}
            for name, path in (("src", src), ("back", back)):
                with open_output(path) as f:
                    tl = read_timeline(f, select_window(f))
                    got[name] = (efficiency.analyse(f), heatmap.idle_minus_mean(tl)[0])
            (ea, ha), (eb, hb) = got["src"], got["back"]
            self.assertIn("/messages", eb["replay"]["dependencies"])
            for key in ("load_balance", "communication_efficiency", "parallel_efficiency", "serialization_efficiency",
                        "transfer_efficiency"):
                self.assertAlmostEqual(eb[key], ea[key], delta=1e-6, msg=key)
            np.testing.assert_allclose(hb[:, :n], ha[:, :n], atol=5e-9)


class ImportBadTraces(unittest.TestCase):
    def expect_refused(self, args, text):
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "x.h5")
            code, stdout, stderr = run_view("import", *args, "-o", out)
            self.assertEqual(code, 2, stdout + stderr)
            self.assertIn(text, stderr)
            self.assertEqual(len([l for l in stderr.splitlines() if l.strip()]), 1, stderr)
            self.assertFalse(os.path.exists(out))
            self.assertEqual([n for n in os.listdir(d)], [])

    def test_refusals(self):
        with tempfile.TemporaryDirectory() as d:
            rows, msgs = ft.chain(3, 5)
            good = os.path.join(d, "ok.json")
            ft.write_chrome(good, rows, msgs)
            self.expect_refused([good, "--iteration-region", "nonexistent"], "never occurs")
            self.expect_refused([good], "cannot be detected")  # SEND and RECV: not on every rank
            trunc = os.path.join(d, "trunc.json")
            with open(good) as fh, open(trunc, "w") as out:
                out.write(fh.read()[:200])
            self.expect_refused([trunc, "--iteration-region", "COMP"], "not a readable Chrome trace")
            empty = os.path.join(d, "empty.json")
            with open(empty, "w") as fh:
                fh.write('{"traceEvents": []}')
            self.expect_refused([empty, "--iteration-region", "COMP"], "nothing to import")
            arch = os.path.join(d, "arch")
            ft.write_otf2(arch, rows, msgs)
            os.remove(os.path.join(arch, "traces.def"))
            self.expect_refused([os.path.join(arch, "traces.otf2"), "--iteration-region", "timestep"],
                                "not a readable OTF2 archive")
            self.expect_refused([os.path.join(d, "missing.otf2"), "--iteration-region", "x"], "no such file")
            # an archive of a GPU stream only: no MPI process
            import otf2
            gpu = os.path.join(d, "gpu_only")
            with otf2.writer.open(gpu, timer_resolution=1_000_000_000) as trace:
                defs = trace.definitions
                g = defs.location_group("GPU 0", location_group_type=otf2.LocationGroupType.ACCELERATOR,
                                        system_tree_parent=defs.system_tree_node("node0", class_name="node"))
                loc = defs.location("stream", type=otf2.LocationType.GPU, group=g)
                kernel = defs.region("kernel", paradigm=otf2.Paradigm.CUDA, region_role=otf2.RegionRole.FUNCTION)
                w = trace.event_writer_from_location(loc)
                w.enter(10, kernel)
                w.leave(20, kernel)
            self.expect_refused([os.path.join(gpu, "traces.otf2"), "--iteration-region", "kernel"], "no MPI locations")
            self.expect_refused([good, "--iteration-region", "COMP", "--domains", "0"], "at least 1")
            self.expect_refused([good, "--iteration-region", "COMP", "--cores", "0"], "at least 1 core")
            self.expect_refused([good, "--iteration-region", "COMP", "--domains", "two"], "neither a count")
            short = os.path.join(d, "short.txt")
            with open(short, "w") as fh:
                fh.write("0 1\n")
            self.expect_refused([good, "--iteration-region", "COMP", "--domains", short], "one domain number")


if __name__ == "__main__":
    unittest.main()
