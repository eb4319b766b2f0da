#!/usr/bin/env python3
"""Tests of desync-campaign's outputs: the Slurm script (text, and run by bash with a fake srun),
collect and plot on synthetic files (fixture: campaign_fixture.py)."""
import csv
import json
import os
import subprocess
import sys
import unittest

import h5py

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)

from campaign_fixture import DECK, CampaignCase  # noqa: E402
from desync.campaign_collect import collect  # noqa: E402
from desync.campaign_slurm import build, table_path, write_script  # noqa: E402
from desync.errors import DesyncError  # noqa: E402
from synthetic_files import stamp_run, write_synthetic, write_synthetic_spmv  # noqa: E402


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
        with open(table_path(c, out, table), "w") as fh:
            fh.write(table)
        # Another point set (a script written again while this array waits) gets its own table.
        other = build(c, c.points()[:1], out, "/opt/desync")[1]
        self.assertNotEqual(table_path(c, out, other), table_path(c, out, table))
        self.assertIn(table_path(c, out, table), script)
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
        # A script path that cannot be written leaves neither a points table nor the folder.
        c = self.campaign(self.BODY)
        outdir = os.path.join(self.dir, "never")
        with self.assertRaises(OSError):
            write_script(c, c.points(), outdir, "d", script_path=os.path.join(self.dir, "no", "such", "x.sbatch"))
        self.assertFalse(os.path.exists(outdir))


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
        # No output option replaces a point's result: it is an input of collect.
        result = os.path.join(self.out, "scheme-nonsplit_barrier-false_ranks3.h5")
        code, text = self.cli("collect", self.cfile, "--output-dir", self.out, "--csv", result)
        self.assertEqual(code, 2, text)
        self.assertIn("would replace the input file", text)
        self.assertTrue(h5py.is_hdf5(result))
        # A file as the result folder: said, not every point "missing"
        for command in ("list", "collect"):
            code, text = self.cli(command, self.cfile, "--output-dir", result)
            self.assertEqual(code, 2, text)
            self.assertIn("--output-dir %s: a file, not a folder" % result, text)
            self.assertNotIn("point(s)", text)
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

    def test_plot_against_a_metric(self):
        # --x a /metrics name (P_D against the communication-to-execution ratio): numeric x, the
        # points of each line in x order; a file without the metric is listed, not drawn
        drop = "scheme-nonsplit_barrier-false_ranks6"
        for p in self.c.points():
            if p.id in self.gflops:
                with h5py.File(self.c.output_path(self.out, p), "r+") as f:
                    if p.id == drop:
                        del f["metrics/cer_median"]
                    else:
                        f["metrics/cer_median"][()] = 0.1 * p.ranks
        js = os.path.join(self.dir, "m.json")
        code, text = self.cli("plot", self.cfile, "--output-dir", self.out, "--x", "cer_median", "--y", "gflops",
                              "--by", "spmv.scheme", "--where", "run.barrier=false", "--json", js)
        self.assertEqual(code, 0, text)
        with open(js) as fh:
            res = json.load(fh)
        got = {s["label"]: [(p["x"], p["y"]) for p in s["points"]] for s in res["series"]}
        g = self.gflops
        self.assertEqual(got, {
            "scheme=nonsplit": [(0.1 * 3, g["scheme-nonsplit_barrier-false_ranks3"])],
            "scheme=splitwait": [(0.1 * 3, g["scheme-splitwait_barrier-false_ranks3"]),
                                 (0.1 * 6, g["scheme-splitwait_barrier-false_ranks6"])]})
        self.assertIn("not drawn: %s (no value of cer_median)" % drop, text)

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
