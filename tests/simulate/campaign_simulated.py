#!/usr/bin/env python3
"""A simulated campaign end to end (issue 27, item 2; docs/method.md "Campaigns"):
[campaign] engine = "simulate" on tests/simulate/cluster.toml, SpMV with compare_barrier over
ranks x scheme (4 points). run: every point simulated; run again: nothing redone, files
unchanged; collect: 4 rows, complete, passed, simulated = yes, with the paired run's P_D; plot
--kind scaling: bars with and without barrier and the P_D panel; slurm: refused in one line (a simulated point is no MPI job).

    campaign_simulated.py --desync BIN --work DIR
"""
import argparse
import csv
import hashlib
import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
TOOL = os.path.join(ROOT, "tools", "desync_campaign.py")

sys.path.insert(0, HERE)
from validate_simulation_workloads import SPMV  # noqa: E402  (the spmv_pair scenario's deck)

DECK = SPMV.format(iterations=40, sync="none", compare="true")
CAMPAIGN = """[campaign]
name = "sim_pair"
deck = "spmv.toml"
engine = "simulate"
platform = "{platform}"
[axes]
ranks = [4, 8]
"spmv.scheme" = ["nonsplit", "splitwait"]
"""


def fail(msg):
    print("FAILED:", msg)
    sys.exit(1)


def tool(*args, expect=0):
    p = subprocess.run([sys.executable, TOOL, *args], capture_output=True, text=True)
    print("$ desync-campaign", " ".join(args), "->", p.returncode)
    print(p.stdout[-1500:], p.stderr[-1500:], sep="")
    if p.returncode != expect:
        fail("exit %d, expected %d" % (p.returncode, expect))
    return p


def digests(folder):
    return {f: hashlib.sha256(open(os.path.join(folder, f), "rb").read()).hexdigest()
            for f in sorted(os.listdir(folder)) if f.endswith(".h5")}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--desync", required=True)
    ap.add_argument("--work", required=True)
    a = ap.parse_args()
    shutil.rmtree(a.work, ignore_errors=True)
    os.makedirs(a.work)
    with open(os.path.join(a.work, "spmv.toml"), "w") as fh:
        fh.write(DECK)
    campaign = os.path.join(a.work, "sim_pair.toml")
    with open(campaign, "w") as fh:
        fh.write(CAMPAIGN.format(platform=os.path.join(HERE, "cluster.toml")))
    results = os.path.join(a.work, "results")

    out = ["--output-dir", results]
    p = tool("run", campaign, "--binary", a.desync, *out)
    if "4 point(s): 4 run, 0 skipped, 0 failed" not in p.stdout:
        fail("the first run did not simulate all 4 points")
    before = digests(results)
    if len(before) != 4:
        fail("expected 4 result files, found %s" % list(before))
    p = tool("run", campaign, "--binary", a.desync, *out)
    if "4 point(s): 0 run, 4 skipped, 0 failed" not in p.stdout or digests(results) != before:
        fail("the second run redid points or changed files")

    table = os.path.join(a.work, "table.csv")
    tool("collect", campaign, "--csv", table, *out)
    with open(table) as fh:
        rows = list(csv.DictReader(fh))
    if len(rows) != 4:
        fail("%d rows, expected 4" % len(rows))
    for r in rows:
        if (r["status"], r["verdict"], r["workload"], r["simulated"]) != ("complete", "passed", "spmv", "yes"):
            fail("row %s: %s" % (r["run_id"], {k: r[k] for k in ("status", "verdict", "workload", "simulated")}))
        try:
            float(r["desync_speedup"])
            float(r["gflops_barrier_free"])
        except (KeyError, ValueError):
            fail("row %s has no P_D: %s" % (r["run_id"], r))
    print("rows:", [(r["run_id"], r["ranks"], r["desync_speedup"]) for r in rows])

    # The papers' Fig. 3(e) picture: Gflop/s with and without barrier per rank count, P_D beside.
    png, js = os.path.join(a.work, "plot.png"), os.path.join(a.work, "plot.json")
    tool("plot", campaign, "--kind", "scaling", "-o", png, "--json", js, *out)
    if os.path.getsize(png) < 2000:
        fail("plot.png is suspiciously small")
    with open(js) as fh:
        entries = [e for g in json.load(fh)["groups"] for e in g["entries"]]
    if len(entries) != 4 or not all(e["with_barrier"] is not None and e["desync_speedup"] is not None for e in entries):
        fail("the scaling plot lacks the barrier line or P_D: %s" % entries)

    p = tool("slurm", campaign, *out, expect=2)
    lines = [l for l in p.stderr.splitlines() if l.strip()]
    if len(lines) != 1 or "desync-campaign run" not in lines[0]:
        fail("slurm of a simulated campaign: expected one line naming `desync-campaign run`")
    print("passed")


if __name__ == "__main__":
    main()
