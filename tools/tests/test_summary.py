#!/usr/bin/env python3
"""Tests of `desync_view.py summary` on synthetic triad and SpMV files.

Run from the repository root with
    /usr/bin/python3 -m unittest discover -s tools/tests -v
or directly: /usr/bin/python3 tools/tests/test_summary.py
"""

import csv
import json
import os
import unittest

import numpy as np

# view_helpers first: it puts tools/ on sys.path for the package desync
from view_helpers import SpmvFileTest, TriadFileTest, run_view
from desync.h5file import lines, open_output
from desync.summary import SHOWN_METRICS
from synthetic_files import SPMV_PHASES, write_synthetic


class TriadSummaryTest(TriadFileTest):
    def test_summary(self):
        code, out, err = run_view("summary", self.h5)
        self.assertEqual(code, 0, err)
        self.assertRegex(out, r"workload\s+triad\n")
        self.assertRegex(out, r"verification\s+passed\n")
        self.assertRegex(out, r"iterations\s+18 measured \+ 2 warm-up \(numbered 0\.\.17 and "
                              r"-2\.\.-1, as in the deck\)")
        self.assertIn("node-a (ranks 0-1), node-b (ranks 2-3)", out)
        self.assertIn("rank 3: threads not bound", out)
        self.assertIn("node-b: oversubscribed", out)
        self.assertNotIn("\x00", out)
        # the compute row: rank 0 is fastest, rank 3 slowest (compute grows 1 % per rank)
        compute = [line for line in out.splitlines() if line.split()[:1] == ["compute"]]
        self.assertEqual(len(compute), 1, out)
        self.assertEqual(compute[0].split()[-2:], ["0", "3"])
        self.assertRegex(out, r"total time\s+\d")
        # /comm: rank 0 receives from nobody (open boundary), the others from one rank each
        self.assertRegex(out, r"partners per rank\s+min 0, mean 0\.75, max 1 \(receive\)\n")
        self.assertRegex(out, r"received bytes\s+min 0 B, mean 6\.144 kB, max 8\.192 kB\n")
        self.assertRegex(out, r"offsets\s+1\n")
        self.assertRegex(out, r"bytes per iteration\s+25\.17 MB \(every rank\)\n")
        self.assertNotIn("message size", out)
        self.assertNotIn("other metrics", out)  # triad has no extra metrics
        self.assertNotIn("matrix", out)

    def test_summary_reads_old_bytes_per_sweep(self):
        old = self.path("old.h5")
        write_synthetic(old, old_names=True)
        code, out, err = run_view("summary", old)
        self.assertEqual(code, 0, err)
        self.assertRegex(out, r"bytes per iteration\s+25\.17 MB \(every rank\)\n")

    def test_summary_warnings_as_list(self):
        listed = self.path("listed.h5")
        write_synthetic(listed, warnings_as_list=True)
        code, out, err = run_view("summary", listed)
        self.assertEqual(code, 0, err)
        self.assertRegex(out, r"placement warnings\s+rank 3: threads not bound\n\s+node-b: oversubscribed\n")
        self.assertEqual(lines(["a\nb", "", "c"]), ["a", "b", "c"])
        self.assertEqual(lines("a\n\nb\n"), ["a", "b"])


class SpmvSummaryTest(SpmvFileTest):
    """The SpMV workload: /matrix, /comm with two partners, extra metrics."""

    def test_summary(self):
        code, out, err = run_view("summary", self.h5)
        self.assertEqual(code, 0, err)
        self.assertRegex(out, r"workload\s+spmv\n")
        self.assertRegex(out, r"rows\s+3000 total")
        self.assertRegex(out, r"nonzeros\s+36000 total")
        self.assertRegex(out, r"partners per rank\s+min 1, mean 1\.333, max 2 \(receive\)\n")
        self.assertNotIn("(send)", out)  # same partner counts as for receiving
        self.assertRegex(out, r"received bytes\s+min 4\.096 kB, mean 5\.461 kB, max 8\.192 kB\n")
        self.assertNotRegex(out, r"\n  offsets\s")
        for name in SPMV_PHASES:
            self.assertRegex(out, r"\n  %s\s" % name)
        self.assertRegex(out, r"bytes per iteration\s+min ")
        # every other scalar in /metrics, by its units
        other = out[out.index("other metrics"):]
        self.assertRegex(other, r"barrier_cost\s+2\.5 us\n")
        self.assertRegex(other, r"gflops\s+1\.235 Gflop/s\n")
        self.assertRegex(other, r"gflops_barrier_corrected\s+1\.3 Gflop/s\n")
        self.assertRegex(other, r"cer_median\s+0\.125\n")
        self.assertRegex(other, r"partners_mean\s+1\.333\n")
        self.assertRegex(other, r"msg_bytes_mean\s+4\.096 kB\n")
        self.assertRegex(other, r"nnz_total\s+36000\n")
        self.assertRegex(other, r"desync_speedup\s+-0\.0125\n")
        for shown in SHOWN_METRICS:
            self.assertNotIn(shown, other)


class SummaryRecordTest(TriadFileTest):
    """--json and --csv: the same run as one record and one row per rank, against the file."""

    def test_json_record(self):
        out = self.path("run.json")
        code, text, err = run_view("summary", self.h5, "--json", out)
        self.assertEqual(code, 0, err)
        self.assertIn("wrote " + out, text)
        self.assertRegex(text, r"workload\s+triad\n")  # the text summary still printed
        with open(out) as fh:
            rec = json.load(fh)  # strict JSON: no NaN tokens
        self.assertEqual(rec["state"], "complete")
        self.assertEqual(rec["run"]["workload"], "triad")
        self.assertEqual(rec["run"]["verification"], "passed")
        self.assertEqual(rec["topology"]["hostname"], ["node-a", "node-a", "node-b", "node-b"])
        self.assertEqual(rec["topology"]["nodes"], 2)
        self.assertIn("node-b: oversubscribed", rec["topology"]["warnings"])
        with open_output(self.h5) as f:
            names = [n.decode() if isinstance(n, bytes) else str(n) for n in f["summary/phase_stats"].attrs["phase_names"]]
            medians = np.asarray(f["summary/phase_stats"][...], dtype=float)[:, :, 1]
            over = np.asarray(f["metrics/phase_over_ranks"][...], dtype=float)
            total = float(f["metrics/total_time"][()])
        compute = rec["phases"]["compute"]
        i = names.index("compute")
        self.assertEqual((compute["min_rank"], compute["max_rank"]), (0, 3))  # compute grows 1 % per rank
        self.assertEqual([compute["min"], compute["median"], compute["max"]], over[i, :3].tolist())
        self.assertAlmostEqual(compute["mean"], medians[:, i].mean(), places=15)
        self.assertAlmostEqual(compute["std"], medians[:, i].std(), places=15)
        self.assertAlmostEqual(compute["imbalance"], medians[:, i].max() / medians[:, i].mean() - 1, places=12)
        self.assertGreater(compute["imbalance"], 0)
        self.assertEqual(rec["metrics"]["total_time"], {"value": total, "units": "s"})
        self.assertIsNone(rec["matrix"])

    def test_csv_per_rank(self):
        out = self.path("ranks.csv")
        code, text, err = run_view("summary", self.h5, "--csv", out)
        self.assertEqual(code, 0, err)
        with open(out, newline="") as fh:
            rows = list(csv.reader(fh))
        header, body = rows[0], rows[1:]
        self.assertEqual(header[:3], ["rank", "host", "threads"])
        self.assertEqual([r[0] for r in body], ["0", "1", "2", "3"])
        self.assertEqual([r[1] for r in body], ["node-a", "node-a", "node-b", "node-b"])
        with open_output(self.h5) as f:
            names = [n.decode() if isinstance(n, bytes) else str(n) for n in f["summary/phase_stats"].attrs["phase_names"]]
            medians = np.asarray(f["summary/phase_stats"][...], dtype=float)[:, :, 1]
        col = header.index("compute_median_s")
        self.assertEqual([float(r[col]) for r in body], medians[:, names.index("compute")].tolist())
        recv = header.index("received_bytes_per_iteration")
        self.assertEqual([float(r[recv]) for r in body], [0.0, 8192.0, 8192.0, 8192.0])

    def test_bad_output_leaves_nothing(self):
        missing = os.path.join(self.path("no_such_dir"), "run.json")
        code, _, err = run_view("summary", self.h5, "--json", missing, "--csv", self.path("left.csv"))
        self.assertNotEqual(code, 0)
        self.assertFalse(os.path.exists(self.path("left.csv")), err)


class SpmvSummaryRecordTest(SpmvFileTest):
    def test_matrix_and_metrics(self):
        out = self.path("spmv.json")
        code, _, err = run_view("summary", self.h5, "--json", out)
        self.assertEqual(code, 0, err)
        with open(out) as fh:
            rec = json.load(fh)
        self.assertEqual(rec["matrix"], {"rows": 3000, "nnz": 36000})
        self.assertEqual(rec["metrics"]["gflops"]["units"], "Gflop/s")
        with open_output(self.h5) as f:
            self.assertEqual(rec["metrics"]["gflops"]["value"], float(f["metrics/gflops"][()]))
        self.assertLessEqual(set(SPMV_PHASES), set(rec["phases"]))


if __name__ == "__main__":
    unittest.main()
