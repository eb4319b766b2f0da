#!/usr/bin/env python3
"""Tests of desync-campaign (tools/desync/campaign*.py): expansion and run ids, the launch
command, the resume rule on complete / partial / stale / unreadable files, runs through a fake
mpiexec (the Slurm script, collect and plot: test_campaign_outputs.py; a real two-point
campaign runs in ctest as campaign_two_points)."""

import json
import os
import shutil
import sys
import unittest


HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)

from campaign_fixture import DECK, FAKE_MPIEXEC, CampaignCase  # noqa: E402
from desync.campaign import id_part, toml_value  # noqa: E402
from desync.campaign_launch import binding_flags, launch_command, point_env, result_state  # noqa: E402
from desync.errors import DesyncError  # noqa: E402
from synthetic_files import stamp_run, write_synthetic  # noqa: E402


class ExpansionTest(CampaignCase):
    def test_product_order_ids_and_overrides(self):
        c = self.campaign('''\
            [campaign]
            deck = "deck.toml"
            [set]
            "run.iterations" = 50
            [axes]
            ranks = [2, 4]
            threads.per_rank = [1, 2]
            "chebfd.scheme" = ["nonsplit", "pipeline"]
            ''')
        pts = c.points()
        self.assertEqual(len(pts), 8)
        self.assertEqual([p.id for p in pts[:3]], ["ranks2_per_rank1_scheme-nonsplit",
                                                  "ranks2_per_rank1_scheme-pipeline",
                                                  "ranks2_per_rank2_scheme-nonsplit"])
        self.assertEqual(pts[-1].id, "ranks4_per_rank2_scheme-pipeline")
        p = pts[5]
        self.assertEqual((p.ranks, p.threads), (4, 1))
        self.assertEqual(p.sets, ["run.iterations=50", "threads.per_rank=1", 'chebfd.scheme="pipeline"'])
        self.assertEqual(c.deck, os.path.join(self.dir, "deck.toml"))

    def test_negative_values_are_their_own_points(self):
        c = self.campaign('''\
            [campaign]
            deck = "deck.toml"
            ranks = 2
            [axes]
            "triad.divides" = [-1, 1]
            ''')
        self.assertEqual([p.id for p in c.points()], ["divides-1", "divides1"])

    def test_points_append_and_product(self):
        body = '''\
            [campaign]
            deck = "deck.toml"
            ranks = 2
            combine = "%s"
            [axes]
            "spmv.nb" = [1, 4]
            [[points]]
            threads = 2
            ranks = 8
            [[points]]
            id = "hybrid"
            threads = "domain"
            ranks_per_node = 2
            '''
        c = self.campaign(body % "append")
        self.assertEqual([p.id for p in c.points()], ["nb1", "nb4", "threads2_ranks8", "hybrid"])
        hybrid = c.points()[3]
        self.assertEqual((hybrid.ranks, hybrid.ranks_per_node, hybrid.threads), (2, 2, "domain"))
        self.assertEqual(hybrid.sets, ['threads.per_rank="domain"'])
        c = self.campaign(body % "product")
        self.assertEqual([p.id for p in c.points()], ["nb1_threads2_ranks8", "nb1_hybrid",
                                                     "nb4_threads2_ranks8", "nb4_hybrid"])
        self.assertEqual(c.points()[3].sets, ["spmv.nb=4", 'threads.per_rank="domain"'])
        self.assertEqual(c.keys(), ["spmv.nb", "threads", "ranks", "ranks_per_node"])

    def test_values_and_labels(self):
        self.assertEqual(toml_value(True), "true")
        self.assertEqual(toml_value(0.05), "0.05")
        self.assertEqual(toml_value("a\"b"), '"a\\"b"')
        self.assertEqual(toml_value([1, -1, 2]), "[1,-1,2]")
        self.assertEqual(id_part("nb", 4), "nb4")
        self.assertEqual(id_part("nb", -8), "nb-8")  # not nb8: -8 and 8 are two points
        self.assertEqual(id_part("barrier", True), "barrier-true")
        self.assertEqual(id_part("offsets", [1, -1]), "offsets-1+-1")
        self.assertEqual(id_part("kernel", "a b/c"), "kernel-a-b-c")
        c = self.campaign('''\
            [campaign]
            deck = "deck.toml"
            ranks = 2
            labels = { "env.OMPI_MCA_btl_vader_eager_limit" = "eager" }
            [axes]
            "spmv.nb" = [2]
            "chebfd.nb" = [32]
            "run.barrier" = [false, true]
            env.OMPI_MCA_btl_vader_eager_limit = [4096]
            ''')
        pts = c.points()
        self.assertEqual([p.id for p in pts], ["spmv-nb2_chebfd-nb32_barrier-false_eager4096",
                                              "spmv-nb2_chebfd-nb32_barrier-true_eager4096"])
        self.assertEqual(pts[1].env, {"OMPI_MCA_btl_vader_eager_limit": "4096"})
        self.assertIn("run.barrier=true", pts[1].sets)

    def test_errors(self):
        cases = [
            ('[campaign]\nranks = 2\n', "deck is missing"),
            ('[campaign]\ndeck = "deck.toml"\nrnaks = 2\n', "did you mean 'ranks'"),
            ('[campaign]\ndeck = "deck.toml"\n[axis]\n', "did you mean [axes]"),
            ('[campaign]\ndeck = "deck.toml"\nranks = 2\n[axes]\nrank = [1]\n', "did you mean 'ranks'"),
            ('[campaign]\ndeck = "deck.toml"\nranks = 2\n[axes]\n"triad.size" = 4\n', "non-empty list"),
            ('[campaign]\ndeck = "deck.toml"\n[axes]\n"triad.size" = [4]\n', "no rank count"),
            ('[campaign]\ndeck = "deck.toml"\nranks = 2\n[axes]\n"inject.rank" = [1]\n', "[[inject]]"),
            ('[campaign]\ndeck = "deck.toml"\nranks = 2\n[axes]\nthreads = [0]\n', "threads = 0"),
            ('[campaign]\ndeck = "deck.toml"\nranks = 2\n[set]\n"a.b" = 1\n[axes]\n"a.b" = [1]\n',
             "either fixed or swept"),
            ('[campaign]\ndeck = "deck.toml"\nranks = 2\n[axes]\n"a.b" = ["x y", "x-y"]\n',
             "two points have the run id 'b-x-y'"),
            ('[campaign]\ndeck = "deck.toml"\nranks = 2\n[[points]]\nthreads = 1\n'
             '"threads.per_rank" = 2\n', "both threads and threads.per_rank"),
            ('[campaign]\ndeck = "deck.toml"\nranks = 2\n[set]\n"threads.per_rank" = 2\n[axes]\n'
             'threads = [1]\n', "both threads and threads.per_rank (in [set])"),
            ('[campaign]\ndeck = "deck.toml"\nbinding = "socket"\n', "allowed: 'cores', 'none'"),
        ]
        for body, message in cases:
            with self.subTest(message=message):
                with self.assertRaises(DesyncError) as cm:
                    self.campaign(body).points()
                self.assertIn(message, str(cm.exception))
        code, text = self.cli("list", os.path.join(self.dir, "nope.toml"))
        self.assertEqual(code, 2)
        self.assertIn("nope.toml: no such campaign file", text)


class LaunchTest(CampaignCase):
    def test_simulated_points(self):
        """engine = "simulate": desync simulate on the platform, no mpiexec, no binding."""
        c = self.campaign('''\
            [campaign]
            deck = "deck.toml"
            engine = "simulate"
            platform = "machines/cluster.toml"
            platform_sets = ["network.sync_latency=2e-6"]
            [axes]
            ranks = [96]
            ranks_per_node = [48]
            ''')
        p, = c.points()
        argv = launch_command(c, p, "/bin/desync", "mpirun", "out/x.h5")
        self.assertEqual(argv, ["/bin/desync", "simulate", c.deck, "--platform",
                                os.path.join(self.dir, "machines", "cluster.toml"), "--ranks", "96",
                                "--pset", "placement.ranks_per_node=48", "--pset", "network.sync_latency=2e-6",
                                "-o", "out/x.h5"])
        self.assertEqual(point_env(c, p), {})

    def test_engine_errors(self):
        for body, words in (('engine = "simulate"', "needs platform = FILE"),
                            ('platform = "p.toml"', 'only read with engine = "simulate"'),
                            ('engine = "emulate"', "allowed: 'run', 'simulate'"),
                            ('engine = "simulate"\nplatform = "p.toml"\nplatform_sets = ["x"]', "platform_sets")):
            with self.assertRaises(DesyncError) as cm:
                self.campaign('[campaign]\ndeck = "deck.toml"\nranks = 2\n' + body + "\n")
            self.assertIn(words, str(cm.exception))

    def test_command_binding_and_env(self):
        os.environ["DESYNC_MPIEXEC_PREFLAGS"] = "--oversubscribe;--allow-run-as-root"
        c = self.campaign('''\
            [campaign]
            deck = "deck.toml"
            mpiexec_flags = ["--mca", "btl", "self,vader"]
            [axes]
            ranks = [4]
            ranks_per_node = [2]
            threads = [1, 5, "domain"]
            ''')
        one, five, dom = c.points()
        argv = launch_command(c, five, "/bin/desync", "mpirun", "out/x.h5", force=True)
        self.assertEqual(argv, ["mpirun", "-n", "4", "--mca", "btl", "self,vader", "--oversubscribe",
                                "--allow-run-as-root", "--map-by", "ppr:2:node:PE=5", "--bind-to",
                                "core", "/bin/desync", "run", c.deck, "--set", "threads.per_rank=5",
                                "-o", "out/x.h5", "--force"])
        self.assertEqual(binding_flags(c, one), ["--map-by", "ppr:2:node", "--bind-to", "core"])
        self.assertEqual(binding_flags(c, dom), ["--map-by", "ppr:2:node", "--bind-to", "numa"])
        self.assertEqual(point_env(c, five), {"OMP_NUM_THREADS": "5", "OMP_PLACES": "cores",
                                              "OMP_PROC_BIND": "close"})
        self.assertNotIn("OMP_NUM_THREADS", point_env(c, dom))
        c.launcher = "mpich"
        self.assertEqual(binding_flags(c, five), ["-ppn", "2", "-bind-to", "core:5"])
        c.binding = "none"
        self.assertEqual(binding_flags(c, five), [])
        self.assertEqual(point_env(c, one), {"OMP_NUM_THREADS": "1", "OMP_PROC_BIND": "false"})


class ResumeTest(CampaignCase):
    def setUp(self):
        super().setUp()
        self.c = self.campaign('''\
            [campaign]
            deck = "deck.toml"
            ranks = 4
            [axes]
            "triad.size_per_rank" = [1000]
            ''')
        self.p = self.c.points()[0]
        self.path = os.path.join(self.dir, "r.h5")

    def make(self, **kw):
        write_synthetic(self.path)
        args = dict(overrides=self.p.sets, deck_text=DECK, complete=1)
        args.update(kw)
        stamp_run(self.path, **args)

    def test_states(self):
        self.assertEqual(result_state(self.path, self.p, DECK)[0], "missing")
        self.make()
        self.assertEqual(result_state(self.path, self.p, DECK), ("complete", "", "passed"))
        self.make(complete=0)
        self.assertEqual(result_state(self.path, self.p, DECK)[0], "partial")
        self.make(overrides=["triad.size_per_rank=2000"])
        state, detail, _ = result_state(self.path, self.p, DECK)
        self.assertEqual(state, "stale")
        self.assertIn("triad.size_per_rank=2000", detail)
        self.make(ranks=8)
        self.assertEqual(result_state(self.path, self.p, DECK)[0], "stale")
        self.make(deck_text=DECK + "# edited\n")
        self.assertEqual(result_state(self.path, self.p, DECK)[0], "stale")
        with open(self.path, "wb") as fh:
            fh.write(b"\x89HDF\r\n\x1a\n truncated")
        self.assertEqual(result_state(self.path, self.p, DECK)[0], "unreadable")


class RunTest(CampaignCase):
    def setUp(self):
        super().setUp()
        self.fake = os.path.join(self.dir, "fake_mpiexec")
        with open(self.fake, "w") as fh:
            fh.write("#!%s\n%s" % (sys.executable, FAKE_MPIEXEC))
        os.chmod(self.fake, 0o755)
        self.binary = os.path.join(self.dir, "desync")  # never started: the fake mpiexec stands in
        with open(self.binary, "w") as fh:
            fh.write("#!/bin/sh\nexit 1\n")
        os.chmod(self.binary, 0o755)
        self.calls = os.path.join(self.dir, "calls.jsonl")
        os.environ["FAKE_CALLS"] = self.calls
        self.addCleanup(os.environ.pop, "FAKE_CALLS", None)
        self.cfile = os.path.join(self.dir, "c.toml")
        self.campaign('''\
            [campaign]
            deck = "deck.toml"
            ranks = 4
            binding = "none"
            [axes]
            threads = [1, 2]
            "triad.kernel" = ["stream", "divide"]
            ''')
        self.out = os.path.join(self.dir, "out")

    def run_campaign(self, *extra):
        if os.path.exists(self.calls):
            os.remove(self.calls)
        code, text = self.cli("run", self.cfile, "--mpiexec", self.fake, "--binary", self.binary,
                              "--output-dir", self.out, *extra)
        calls = []
        if os.path.exists(self.calls):
            with open(self.calls) as fh:
                calls = [json.loads(line) for line in fh]
        return code, text, calls

    def test_run_resume_redo_and_failures(self):
        code, text, calls = self.run_campaign()
        self.assertEqual(code, 0, text)
        self.assertEqual(len(calls), 4)
        self.assertIn("[3/4] threads2_kernel-stream ... ok", text)
        self.assertEqual([c["omp"] for c in calls], ["1", "1", "2", "2"])
        self.assertEqual(calls[0]["bind"], "false")
        self.assertNotIn("--force", calls[0]["argv"])
        with open(os.path.join(self.out, "threads1_kernel-divide.log")) as fh:
            self.assertTrue(fh.readline().startswith("# %s -n 4" % self.fake))
        # everything complete: nothing runs again
        code, text, calls = self.run_campaign()
        self.assertEqual((code, calls), (0, []), text)
        self.assertIn("4 point(s): 0 run, 4 skipped, 0 failed", text)
        # a partial file (stopped by a signal) is redone with --force, the others are kept
        stamp_run(os.path.join(self.out, "threads2_kernel-divide.h5"), complete=0)
        code, text, calls = self.run_campaign()
        self.assertEqual(code, 0, text)
        self.assertEqual(len(calls), 1)
        self.assertIn("--force", calls[0]["argv"])
        self.assertEqual(calls[0]["argv"][calls[0]["argv"].index("-o") + 1],
                         os.path.join(self.out, "threads2_kernel-divide.h5"))
        self.assertIn("redo (partial: stopped by", text)
        # one point crashes, one fails verification: both listed, the rest still runs, exit 1
        shutil.rmtree(self.out)
        os.environ["FAKE_CRASH"], os.environ["FAKE_FAIL"] = "threads.per_rank=2", '"divide"'
        self.addCleanup(os.environ.pop, "FAKE_CRASH", None)
        self.addCleanup(os.environ.pop, "FAKE_FAIL", None)
        code, text, calls = self.run_campaign("--json", os.path.join(self.dir, "run.json"))
        self.assertEqual((code, len(calls)), (1, 4), text)
        self.assertIn("[1/4] threads1_kernel-stream ... ok", text)
        self.assertIn("failed: threads1_kernel-divide: exit 3: verification failed", text)
        self.assertIn("failed: threads2_kernel-stream: exit 1: runtime error", text)
        self.assertIn("4 point(s): 4 run, 0 skipped, 3 failed", text)
        with open(os.path.join(self.dir, "run.json")) as fh:
            self.assertEqual(json.load(fh)["counts"], {"run": 4, "skipped": 0, "failed": 3})
        # a skipped point whose file says "failed" still counts as failed
        os.environ.pop("FAKE_CRASH")
        code, text, calls = self.run_campaign("--only", "threads1_kernel-divide")
        self.assertEqual((code, calls), (1, []))
        self.assertIn("skipped (complete, verification failed: planted)", text)

    def test_dry_run(self):
        os.environ["DESYNC_MPIEXEC_PREFLAGS"] = "--oversubscribe"
        code, text, calls = self.run_campaign("--dry-run", "--only", "threads2_kernel-stream")
        self.assertEqual((code, calls), (0, []))
        self.assertIn("OMP_NUM_THREADS=2 OMP_PROC_BIND=false %s -n 4 --oversubscribe %s run %s "
                      "--set 'triad.kernel=\"stream\"' --set threads.per_rank=2 -o %s/threads2_kernel-stream.h5 "
                      "> %s/threads2_kernel-stream.log 2>&1"
                      % (self.fake, self.binary, os.path.join(self.dir, "deck.toml"), self.out, self.out), text)
        self.assertFalse(os.path.exists(self.out))
        code, text, _ = self.run_campaign("--only", "threads9")
        self.assertEqual(code, 2)
        self.assertIn("--only threads9: no such point", text)
        code, text = self.cli("run", self.cfile, "--binary", os.path.join(self.dir, "nonesuch"))
        self.assertEqual(code, 2)
        self.assertIn("desync binary '%s' not found" % os.path.join(self.dir, "nonesuch"), text)


if __name__ == "__main__":
    unittest.main()
