#!/usr/bin/env python3
"""Tests of desync-campaign (tools/desync/campaign*.py): expansion and run ids, the launch
command, the resume rule on complete / partial / stale / unreadable files, runs through a fake
mpiexec, the Slurm script (text, and run by bash with a fake srun), collect and plot on
synthetic files. (A real two-point campaign runs in ctest as campaign_two_points.)"""

import csv
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
import unittest
from contextlib import redirect_stderr, redirect_stdout

import h5py

HERE = os.path.dirname(os.path.abspath(__file__))
TOOLS = os.path.dirname(HERE)
sys.path.insert(0, TOOLS)
sys.path.insert(0, HERE)

from desync.campaign import id_part, load_campaign, toml_value  # noqa: E402
from desync.campaign_cli import main  # noqa: E402
from desync.campaign_collect import collect  # noqa: E402
from desync.campaign_launch import binding_flags, launch_command, point_env, result_state  # noqa: E402
from desync.campaign_slurm import build  # noqa: E402
from desync.errors import DesyncError  # noqa: E402
from synthetic_files import stamp_run, write_synthetic, write_synthetic_spmv  # noqa: E402

DECK = "[run]\nworkload = \"triad\"\niterations = 10\n"

# A stand-in for `mpiexec -n P ... BINARY run DECK --set ... -o OUT [--force]`: records its argv
# (and OMP_NUM_THREADS) in $FAKE_CALLS, writes a synthetic result that records the point's ranks,
# overrides and deck, and exits 3 (verification failed, file written) when an override holds
# $FAKE_FAIL, or 1 without a file when one holds $FAKE_CRASH.
FAKE_MPIEXEC = textwrap.dedent('''\
    import json, os, sys
    sys.path.insert(0, %r)
    from synthetic_files import stamp_run, write_synthetic
    argv = sys.argv[1:]
    with open(os.environ["FAKE_CALLS"], "a") as fh:
        fh.write(json.dumps({"argv": argv, "omp": os.environ.get("OMP_NUM_THREADS"),
                             "bind": os.environ.get("OMP_PROC_BIND")}) + "\\n")
    ranks = int(argv[argv.index("-n") + 1])
    sets = [argv[i + 1] for i, a in enumerate(argv) if a == "--set"]
    out = argv[argv.index("-o") + 1]
    deck = argv[argv.index("run") + 1]
    if any(os.environ.get("FAKE_CRASH", "@") in s for s in sets):
        sys.exit(1)
    if os.path.exists(out) and "--force" not in argv:
        print("exists, no --force"); sys.exit(2)
    write_synthetic(out)
    failed = any(os.environ.get("FAKE_FAIL", "@") in s for s in sets)
    stamp_run(out, overrides=sets, deck_text=open(deck).read(), complete=1, ranks=ranks,
              verification="failed: planted" if failed else "passed")
    sys.exit(3 if failed else 0)
''') % HERE


class CampaignCase(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="campaign_test.")
        self.addCleanup(shutil.rmtree, self.dir)
        with open(os.path.join(self.dir, "deck.toml"), "w") as fh:
            fh.write(DECK)
        self.saved_env = {k: os.environ.get(k) for k in ("DESYNC_MPIEXEC_PREFLAGS", "DESYNC_BIN")}
        for k in self.saved_env:
            os.environ.pop(k, None)
        self.addCleanup(self._restore_env)

    def _restore_env(self):
        for k, v in self.saved_env.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v

    def campaign(self, body, name="c.toml"):
        path = os.path.join(self.dir, name)
        with open(path, "w") as fh:
            fh.write(textwrap.dedent(body))
        return load_campaign(path)

    def cli(self, *args):
        """(exit status, standard output and error) of desync-campaign ARGS."""
        out = io.StringIO()
        try:
            with redirect_stdout(out), redirect_stderr(out):
                code = main(list(args))
        except SystemExit as exc:
            code = exc.code
        return code, out.getvalue()


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


class SlurmTest(CampaignCase):
    BODY = '''\
        [campaign]
        deck = "deck.toml"
        ranks = 2
        [set]
        "run.iterations" = 100
        [env]
        UCX_RNDV_THRESH = 8192
        [axes]
        "chebfd.scheme" = ["pipeline"]
        [[points]]
        threads = 5
        ranks_per_node = 4
        ranks = 16
        [[points]]
        threads = "domain"
        ranks_per_node = 2
        ranks = 8
        [slurm]
        time = "01:00:00"
        partition = "work"
        cores_per_node = 20
        array_limit = 1
        extra = ["--constraint=hwperf", "#SBATCH --mail-type=END"]
        '''

    def test_script_text(self):
        c = self.campaign(self.BODY)
        out = os.path.join(self.dir, "out")
        script, table, chosen = build(c, c.points(), out, "/opt/desync")
        self.assertEqual([p.id for p in chosen], ["scheme-pipeline", "threads5_ppn4_ranks16",
                                                  "threads-domain_ppn2_ranks8"])
        lines = script.splitlines()
        for expected in ("#SBATCH --array=0-2%1", "#SBATCH --nodes=4", "#SBATCH --time=01:00:00",
                         "#SBATCH --partition=work", "#SBATCH --exclusive", "#SBATCH --signal=USR1@120",
                         "#SBATCH --constraint=hwperf", "#SBATCH --mail-type=END"):
            self.assertIn(expected, lines)
        self.assertIn("/opt/desync run %s" % c.deck, script)
        rows = [r.split("\t") for r in table.splitlines()]
        self.assertEqual(rows[0][:4], ["index", "id", "nodes", "ntasks"])
        self.assertEqual(rows[1][:9], ["0", "scheme-pipeline", "1", "2", "-", "1", "-", "cores", "-"])
        self.assertEqual(rows[2][:9], ["1", "threads5_ppn4_ranks16", "4", "16", "4", "5", "5", "cores", "-"])
        self.assertEqual(rows[3][:9], ["2", "threads-domain_ppn2_ranks8", "4", "8", "2", "10", "-", "ldoms", "-"])
        self.assertEqual(rows[3][9], "UCX_RNDV_THRESH=8192")
        self.assertEqual(rows[3][10], """run.iterations=100 'threads.per_rank="domain"'""")

    def test_script_runs_with_fake_srun(self):
        c = self.campaign(self.BODY)
        out = os.path.join(self.dir, "out")
        os.makedirs(out)
        first = c.points()[0]
        write_synthetic(c.output_path(out, first))  # a stale file: redone with --force
        script, table, chosen = build(c, c.points(), out, "/opt/desync")
        with open(os.path.join(out, c.name + ".points.tsv"), "w") as fh:
            fh.write(table)
        path = os.path.join(out, "job.sbatch")
        with open(path, "w") as fh:
            fh.write(script)
        fakebin = os.path.join(self.dir, "bin")
        os.makedirs(fakebin)
        with open(os.path.join(fakebin, "srun"), "w") as fh:
            fh.write('#!/bin/bash\nfor a in "$@"; do echo "ARG $a"; done\n'
                     'echo "ENV $OMP_NUM_THREADS $OMP_PLACES $UCX_RNDV_THRESH"\n')
        os.chmod(os.path.join(fakebin, "srun"), 0o755)
        env = dict(os.environ, PATH=fakebin + os.pathsep + os.environ["PATH"], OMP_NUM_THREADS="77")
        for task, pid in ((0, first.id), (1, "threads5_ppn4_ranks16")):
            proc = subprocess.run(["bash", path], env=dict(env, SLURM_ARRAY_TASK_ID=str(task)),
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
            self.assertEqual(proc.returncode, 0, proc.stderr)
            with open(os.path.join(out, pid + ".log")) as fh:
                args = [line[4:] for line in fh.read().splitlines() if line.startswith("ARG ")]
            with open(os.path.join(out, pid + ".log")) as fh:
                envline = [line for line in fh.read().splitlines() if line.startswith("ENV ")][0]
            if task == 0:
                self.assertEqual(args[:5], ["--nodes=1", "--ntasks=2", "--cpus-per-task=1",
                                            "--cpu-bind=cores", "/opt/desync"])
                self.assertEqual(args[-2:], ["-o", os.path.join(out, first.id + ".h5")])
                self.assertIn("--force", args)
                self.assertEqual(envline, "ENV 77 cores 8192")  # no integer threads: inherited
            else:
                self.assertEqual(args, ["--nodes=4", "--ntasks=16", "--ntasks-per-node=4",
                                        "--cpus-per-task=5", "--cpu-bind=cores", "/opt/desync", "run",
                                        c.deck, "--set", "run.iterations=100", "--set", "threads.per_rank=5",
                                        "-o", os.path.join(out, pid + ".h5")])
                self.assertEqual(envline, "ENV 5 cores 8192")

    def test_slurm_errors(self):
        c = self.campaign(self.BODY.replace("cores_per_node = 20\n", ""))
        with self.assertRaises(DesyncError) as cm:
            build(c, c.points(), self.dir, "d")
        self.assertIn("needs [slurm] cores_per_node", str(cm.exception))
        c = self.campaign(self.BODY.replace('time = "01:00:00"', "nodes = 2"))
        with self.assertRaises(DesyncError) as cm:
            build(c, c.points(), self.dir, "d")
        self.assertIn("[slurm] nodes = 2, but point threads5_ppn4_ranks16 needs 4 nodes", str(cm.exception))


class CollectPlotTest(CampaignCase):
    def setUp(self):
        super().setUp()
        self.cfile = os.path.join(self.dir, "c.toml")
        self.c = self.campaign('''\
            [campaign]
            name = "study"
            deck = "deck.toml"
            combine = "product"
            [axes]
            "spmv.scheme" = ["nonsplit", "splitwait"]
            "run.barrier" = [false, true]
            [[points]]
            ranks = 3
            [[points]]
            ranks = 6
            ''')
        self.out = os.path.join(self.dir, "out")
        os.makedirs(self.out)
        self.gflops = {}
        for i, p in enumerate(self.c.points()):
            if p.id == "scheme-splitwait_barrier-true_ranks6":
                continue  # missing
            path = self.c.output_path(self.out, p)
            write_synthetic_spmv(path)
            g = 1.0 + i * 0.25
            self.gflops[p.id] = g
            stamp_run(path, overrides=p.sets, deck_text=DECK, complete=1, ranks=p.ranks,
                      metrics={"gflops": (g, "Gflop/s"), "desync_speedup": (0.01 * i, "1")})

    def test_collect_table(self):
        columns, rows, units = collect(self.c, self.out)
        self.assertEqual(columns[:5], ["run_id", "spmv.scheme", "run.barrier", "status", "verdict"])
        self.assertIn("gflops", columns)
        self.assertEqual(units["gflops"], "Gflop/s")
        self.assertEqual(len(rows), 8)
        r = rows[0]
        self.assertEqual((r["run_id"], r["status"], r["verdict"], r["workload"]),
                         ("scheme-nonsplit_barrier-false_ranks3", "complete", "passed", "spmv"))
        # 3 synthetic ranks on node-a, node-b, node-b
        self.assertEqual((r["ranks"], r["nodes"], r["ranks_per_node"], r["threads_per_rank"], r["hosts"]),
                         (3, 2, 2, 2, "node-a node-b"))
        self.assertEqual(r["gflops"], self.gflops[r["run_id"]])
        self.assertEqual(r["cer_median"], 0.125)
        missing = [x for x in rows if x["status"] == "missing"]
        self.assertEqual([(x["run_id"], x["ranks"], x["gflops"]) for x in missing],
                         [("scheme-splitwait_barrier-true_ranks6", 6, None)])
        code, text = self.cli("collect", self.cfile, "--output-dir", self.out,
                              "--h5", os.path.join(self.dir, "t.h5"), "--json", os.path.join(self.dir, "t.json"))
        self.assertEqual(code, 0, text)
        self.assertIn("7 of 8 point(s) complete", text)
        with open(os.path.join(self.out, "study.csv")) as fh:
            table = list(csv.DictReader(fh))
        self.assertEqual(len(table), 8)
        self.assertEqual((table[2]["run_id"], table[2]["run.barrier"]),
                         ("scheme-nonsplit_barrier-true_ranks3", "true"))
        self.assertEqual(float(table[2]["gflops"]), self.gflops[table[2]["run_id"]])
        self.assertEqual(table[7]["gflops"], "")
        with h5py.File(os.path.join(self.dir, "t.h5"), "r") as f:
            self.assertEqual(f["gflops"].attrs["units"], b"Gflop/s")
            self.assertEqual(f["gflops"][2], self.gflops["scheme-nonsplit_barrier-true_ranks3"])
            self.assertEqual(f["status"][7], b"missing")

    def test_plot_lines(self):
        js = os.path.join(self.dir, "p.json")
        png = os.path.join(self.dir, "p.png")
        code, text = self.cli("plot", self.cfile, "--output-dir", self.out, "--x", "ranks",
                              "--by", "spmv.scheme", "--where", "run.barrier=false", "-o", png, "--json", js)
        self.assertEqual(code, 0, text)
        self.assertGreater(os.path.getsize(png), 5000)
        with open(js) as fh:
            res = json.load(fh)
        self.assertEqual((res["x"], res["y"], res["units"]), ("ranks", "gflops", "Gflop/s"))
        got = {s["label"]: [(p["x"], p["y"]) for p in s["points"]] for s in res["series"]}
        g = self.gflops
        self.assertEqual(got, {
            "scheme=nonsplit": [(3, g["scheme-nonsplit_barrier-false_ranks3"]), (6, g["scheme-nonsplit_barrier-false_ranks6"])],
            "scheme=splitwait": [(3, g["scheme-splitwait_barrier-false_ranks3"]), (6, g["scheme-splitwait_barrier-false_ranks6"])]})
        self.assertIn("not drawn: scheme-splitwait_barrier-true_ranks6 (missing)", text)
        code, text = self.cli("plot", self.cfile, "--output-dir", self.out, "--y", "nonesuch")
        self.assertEqual(code, 2)
        self.assertIn("--y 'nonesuch': no such column", text)

    def test_plot_scaling(self):
        js = os.path.join(self.dir, "s.json")
        code, text = self.cli("plot", self.cfile, "--output-dir", self.out, "--kind", "scaling",
                              "--json", js)
        self.assertEqual(code, 0, text)
        with open(js) as fh:
            res = json.load(fh)
        self.assertEqual(res["barrier_key"], "run.barrier")
        g = self.gflops
        groups = {grp["label"]: grp["entries"] for grp in res["groups"]}
        e = groups["scheme=nonsplit"][1]
        free, bar = g["scheme-nonsplit_barrier-false_ranks6"], g["scheme-nonsplit_barrier-true_ranks6"]
        self.assertEqual((e["x"], e["barrier_free"], e["with_barrier"]), (6, free, bar))
        self.assertAlmostEqual(e["gain"], free / bar - 1)
        self.assertAlmostEqual(e["desync_speedup"], 0.01)  # the barrier-free point's P_D (index 1)
        lone = groups["scheme=splitwait"][1]  # its barrier point is missing: bar without line
        self.assertEqual((lone["with_barrier"], lone["gain"]), (None, None))
        self.assertTrue(os.path.exists(os.path.join(self.out, "study_scaling_gflops.png")))


class HybridPlotTest(CampaignCase):
    def test_keys_that_follow_from_x_do_not_split_lines(self):
        # threads x ranks at fixed cores, combined with every scheme: ranks and ranks_per_node
        # follow from threads, so Gflop/s against threads has one line per scheme
        c = self.campaign('''\
            [campaign]
            name = "hybrid"
            deck = "deck.toml"
            combine = "product"
            [axes]
            "chebfd.scheme" = ["nonsplit", "pipeline"]
            [[points]]
            threads = 1
            ranks_per_node = 20
            ranks = 40
            [[points]]
            threads = 10
            ranks_per_node = 2
            ranks = 4
            [[points]]
            threads = "domain"
            ranks_per_node = 2
            ranks = 4
            ''')
        out = os.path.join(self.dir, "out")
        os.makedirs(out)
        expected = {}
        for i, p in enumerate(c.points()):
            write_synthetic_spmv(c.output_path(out, p))
            stamp_run(c.output_path(out, p), overrides=p.sets, deck_text=DECK, complete=1,
                      ranks=p.ranks, metrics={"gflops": (10.0 + i, "Gflop/s")})
            expected.setdefault("scheme=" + p.values["chebfd.scheme"], []).append([p.threads, 10.0 + i])
        js = os.path.join(self.dir, "h.json")
        code, text = self.cli("plot", os.path.join(self.dir, "c.toml"), "--output-dir", out,
                              "--x", "threads", "--json", js)
        self.assertEqual(code, 0, text)
        with open(js) as fh:
            res = json.load(fh)
        self.assertEqual(res["by"], ["chebfd.scheme"])
        self.assertEqual({s["label"]: [[p["x"], p["y"]] for p in s["points"]] for s in res["series"]},
                         expected)
        self.assertEqual(expected["scheme=pipeline"][2], ["domain", 15.0])


if __name__ == "__main__":
    unittest.main()
