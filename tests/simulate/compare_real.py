#!/usr/bin/env python3
"""A real run here against its simulation on this machine's calibrated platform (issue 15):

  compare_real.py --desync BIN [--platform platforms/this_machine.toml] [--mpiexec "mpiexec ..."]
                  [--work DIR] [--tolerance 0.15] [--memory-tolerance 0.25] [--measure-memory] [--measure-core]
                  core|memory ...

The same small deck (4 ranks in an open chain, a delay on rank 0 at iteration 20) runs with
mpiexec (2 ranks per core, bound) and with `desync simulate --ranks 4` on the platform with its
4 ranks time-sharing the node's cores. Checks: the median iteration time (median over ranks of
each rank's median) of the simulation within the tolerance of the real one, and the idle wave's
arrival iteration at every rank (tools/desync idlewave points) the same. Exit 0 when both hold,
1 when not, 2 when a run failed.

--measure-memory measures b(1), b(2) first, as desync-calibrate does (the saturation workload,
mode "ranks"), and simulates with that table (--pset memory.table=[...], the median of 3 sweeps):
this machine's memory bandwidth drifts between days (its 2-rank triad measured 48 and 24 GB/s on
different days), so a memory-bound comparison against the file's fixed calibration tests the
day, not the simulator. Within minutes it still varies (b(1) 14-21 GB/s between consecutive
sweeps), hence the wider tolerance of the memory-bound case.

--measure-core measures the time per divide first, as desync-calibrate does (the triad kernel
"divide" on 1 rank, 1 thread, the fastest of 3), and simulates with it (--pset core.divide_time=...):
the platform file's divide time was calibrated on another CPU than the one this VM now runs on
(4.0 ns there, about 2.5 ns here), so the fixed file tests the CPU, not the simulator.
"""
import argparse
import os
import shlex
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tools"))
from desync import idle_waves  # noqa: E402
from desync.h5file import open_output  # noqa: E402
from desync.calibrate_measure import measure_divide, measure_memory  # noqa: E402
from desync.calibrate_runner import Runner, launcher_kind  # noqa: E402

DECKS = {
    # Core-bound: 20000 elements x 200 dependent divides, about 12 ms per iteration on one core.
    "core": """[run]
workload = "triad"
iterations = 50
warmup = 5
progress_interval = 0
[triad]
kernel = "divide"
size_per_rank = 20_000
divides = 200
message_bytes = 1024
[[inject]]
rank = 0
iteration = 20
duration = 0.1
""",
    # Memory-bound: 3 arrays of 2e6 doubles per rank (4 x 48 MB, beyond the caches).
    "memory": """[run]
workload = "triad"
iterations = 50
warmup = 5
progress_interval = 0
[triad]
kernel = "stream"
size_per_rank = 2_000_000
message_bytes = 1024
[[inject]]
rank = 0
iteration = 20
duration = 0.1
""",
}


def median_iteration(path):
    with open_output(path) as f:
        names = [n.decode() if isinstance(n, bytes) else str(n) for n in f["summary/phase_stats"].attrs["phase_names"]]
        stats = f["summary/phase_stats"][...]
    return float(np.median(stats[:, names.index("iteration"), 1]))


def arrivals(path):
    with open_output(path) as f:
        res = idle_waves.analyse(f)
    return {w["direction"]: [(p["distance"], p["iteration"]) for p in w["points"]] for w in res["waves"]}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("cases", nargs="+", choices=sorted(DECKS))
    ap.add_argument("--desync", required=True)
    ap.add_argument("--platform", default=os.path.join(ROOT, "platforms", "this_machine.toml"))
    ap.add_argument("--mpiexec", default=os.environ.get("DESYNC_MPIEXEC", "mpiexec") +
                    " --bind-to core:overload-allowed --map-by core " + os.environ.get("DESYNC_MPIEXEC_PREFLAGS", ""))
    ap.add_argument("--work", default="compare_real")
    ap.add_argument("--tolerance", type=float, default=0.15, help="of the core-bound case")
    ap.add_argument("--memory-tolerance", type=float, default=0.25, help="of the memory-bound case")
    ap.add_argument("--measure-memory", action="store_true",
                    help="measure b(1), b(2) here first and simulate with them (see above)")
    ap.add_argument("--measure-core", action="store_true",
                    help="measure the time per divide here first and simulate with it (see above)")
    args = ap.parse_args()
    os.makedirs(args.work, exist_ok=True)
    ok = True
    env = dict(os.environ, OMP_NUM_THREADS="1", OMP_PROC_BIND="false")
    pset = ["--pset", "placement.ranks_per_node=4", "--pset", "placement.oversubscribe=true"]
    if args.measure_memory or args.measure_core:
        # The calibration's own binding (--map-by core --bind-to core) replaces the comparison's.
        mpiexec = shlex.split(args.mpiexec)
        mpiexec = [a for i, a in enumerate(mpiexec) if a != "--bind-to" and (i == 0 or mpiexec[i - 1] != "--bind-to")]
        runner = Runner(os.path.abspath(args.desync), mpiexec, launcher_kind(mpiexec), args.work)
    if args.measure_memory:
        b = [float(np.median(col)) for col in zip(*measure_memory(runner, 2, False, 3)["runs"])]
        print("memory: measured here b(1) %.2f GB/s, b(2) %.2f GB/s (used as the platform's table)" % (b[0] / 1e9, b[1] / 1e9))
        pset += ["--pset", "memory.table=[%s]" % ", ".join("%.6g" % v for v in b)]
    if args.measure_core:
        divide = measure_divide(runner, False, 3)["divide_time"]
        print("core: measured here %.3f ns per divide (used as the platform's core.divide_time)" % (divide * 1e9))
        pset += ["--pset", "core.divide_time=%.6g" % divide]
    for case in args.cases:
        deck = os.path.join(args.work, case + ".toml")
        with open(deck, "w") as fh:
            fh.write(DECKS[case])
        real, sim = os.path.join(args.work, case + "_real.h5"), os.path.join(args.work, case + "_sim.h5")
        runs = [shlex.split(args.mpiexec) + ["-n", "4", args.desync, "run", deck, "-o", real, "-f"],
                [args.desync, "simulate", deck, "--platform", args.platform, "--ranks", "4", "-o", sim, "-f"] + pset]
        for cmd in runs:
            run = subprocess.run(cmd, capture_output=True, text=True, env=env)
            if run.returncode != 0:
                print(run.stdout + run.stderr)
                print("compare_real: failed: %s" % " ".join(cmd))
                return 2
        t_real, t_sim = median_iteration(real), median_iteration(sim)
        a_real, a_sim = arrivals(real), arrivals(sim)
        tol = args.memory_tolerance if case == "memory" else args.tolerance
        time_ok = abs(t_sim / t_real - 1) <= tol
        wave_ok = a_real == a_sim and any(a_real.values())
        print("%s: median iteration real %.3f ms, simulated %.3f ms (sim / real %.3f, tolerance %.0f %%): %s"
              % (case, t_real * 1e3, t_sim * 1e3, t_sim / t_real, 100 * tol, "ok" if time_ok else "MISS"))
        print("%s: idle-wave arrivals (distance, iteration) real %s, simulated %s: %s"
              % (case, a_real, a_sim, "same" if wave_ok else "DIFFER"))
        ok = ok and time_ok and wave_ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
