#!/usr/bin/env python3
"""How the cost of `desync simulate` grows with ranks and iterations (issue 15's targets).

  simulate_scaling.py --desync BIN [--ranks 1280,2560,5000,10000] [--iterations 100,200]
                      [--kernel stream|divide] [--full 1280x1000,10000x1000] [--platform FILE]

Runs the triad with next-neighbour exchange (a delay at iteration 20 in the middle rank) on the
test cluster (tests/simulate/cluster.toml: 20 ranks per node, 10 per memory domain) for every
(P, N) of the grid and prints the simulation's own wall time (/simulation/wall_time), the whole
command's wall time (including set-up and writing the file, which keeps one row in 50 of the
timeline: [record] stride = 50), the cost per rank-iteration, and the exponents a, b of
wall ~ P^a N^b fitted over the grid (1 = linear). --full runs the named points in full and compares
them with the targets: 1280 x 1000 under 60 s, 10^4 x 1000 under 900 s, 10^5 x 100 under 300 s
(issue 28); rows at 10^4 ranks also say whether the simulation reaches 100,000 rank-iterations per
second (issue 28's goal). Timings are of this
machine, under whatever else runs on it; docs/method.md ("Simulator performance") has a run.
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time

import h5py
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
PLATFORM = os.path.join(HERE, "..", "tests", "simulate", "cluster.toml")
TARGETS = {(1280, 1000): 60.0, (10000, 1000): 900.0, (100000, 100): 300.0}
# issue 28's goal: at least 100,000 simulated rank-iterations per second of the simulation at 10^4
# ranks (and 10^5 x 100 under 5 minutes, the last target above)
RATE_GOAL = (10000, 100000.0)
DECK = """[run]
workload = "triad"
iterations = {n}
warmup = 0
progress_interval = 0
[triad]
kernel = "{kernel}"
size_per_rank = {size}
divides = 100
write_allocate = false
[record]
stride = 50
[[inject]]
rank = {rank}
iteration = 20
duration = 0.05
"""


def point(desync, platform, kernel, p, n, work):
    deck = os.path.join(work, "p%d_n%d.toml" % (p, n))
    out = os.path.join(work, "p%d_n%d.h5" % (p, n))
    with open(deck, "w") as fh:
        fh.write(DECK.format(n=n, kernel=kernel, size=1000000 if kernel == "stream" else 100000, rank=p // 2))
    t0 = time.monotonic()
    # As many nodes as the point needs (the test cluster's count is 64).
    run = subprocess.run([desync, "simulate", deck, "--platform", platform, "--ranks", str(p), "-o", out, "-f",
                          "--pset", "node.count=1000000"], capture_output=True, text=True)
    total = time.monotonic() - t0
    if run.returncode != 0:
        sys.exit("simulate_scaling: %d x %d failed:\n%s%s" % (p, n, run.stdout, run.stderr))
    with h5py.File(out, "r") as f:
        sim = float(f["simulation/wall_time"][()])
        # the malloc the simulator ran on (jemalloc: 1.5-2.5x faster; docs/method.md 26)
        malloc = f["provenance/allocator"][()].decode() if "provenance/allocator" in f else "not recorded"
    os.remove(out)
    return sim, total, malloc


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--desync", required=True)
    ap.add_argument("--platform", default=PLATFORM)
    ap.add_argument("--ranks", default="1280,2560,5000,10000")
    ap.add_argument("--iterations", default="100,200")
    ap.add_argument("--kernel", choices=("stream", "divide"), default="stream",
                    help="memory-bound (stream, the harder case) or core-bound (divide)")
    ap.add_argument("--full", default="", help="points PxN run in full against the targets, e.g. 1280x1000")
    args = ap.parse_args()
    ranks = [int(x) for x in args.ranks.split(",") if x]
    iters = [int(x) for x in args.iterations.split(",") if x]
    rows, malloc = [], "not recorded"
    with tempfile.TemporaryDirectory() as work:
        print("%8s %6s %12s %12s %22s %20s" % ("ranks", "iters", "simulation", "command", "us per rank-iteration",
                                               "rank-iterations/s"))
        for p in ranks:
            for n in iters:
                sim, total, malloc = point(args.desync, args.platform, args.kernel, p, n, work)
                rows.append((p, n, sim, total))
                rate = p * n / sim if sim > 0 else float("inf")
                goal = ""
                if p == RATE_GOAL[0]:
                    goal = "  goal %.0f/s: %s" % (RATE_GOAL[1], "met" if rate >= RATE_GOAL[1] else "MISSED")
                print("%8d %6d %10.2f s %10.2f s %22.2f %20.0f%s" % (p, n, sim, total, 1e6 * sim / (p * n), rate, goal),
                      flush=True)
        if len(set(ranks)) > 1 and len(set(iters)) > 1:
            a = np.array([[np.log(p), np.log(n), 1.0] for p, n, _, _ in rows])
            coef = np.linalg.lstsq(a, np.log([r[2] for r in rows]), rcond=None)[0]
            print("fit: simulation wall ~ P^%.2f N^%.2f (1.00 = linear)" % (coef[0], coef[1]))
        for spec in [s for s in args.full.split(",") if s]:
            p, n = (int(x) for x in spec.lower().split("x"))
            sim, total, malloc = point(args.desync, args.platform, args.kernel, p, n, work)
            target = TARGETS.get((p, n))
            verdict = "" if target is None else ("  target %.0f s: %s" % (target, "met" if total < target else "MISSED"))
            print("full %d x %d: simulation %.1f s, command %.1f s%s" % (p, n, sim, total, verdict), flush=True)
    print("malloc: %s" % malloc)
    return 0


if __name__ == "__main__":
    sys.exit(main())
