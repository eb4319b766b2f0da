#!/usr/bin/env python3
"""What flushing results to disk while a run runs costs (issue 26, item 6; docs/method.md section 32).

The same deck is run side by side, alternating, `--repeats` times each: without flushes
([record] flush_seconds = 0) and with a short interval (--interval, default 1 s, so that a short
run flushes several times). From each result file the measured loop's wall time is taken (first
to last timeline event over all ranks), from each flushing run's output its flushes and their
durations. Printed:

  - the measured cost per flush, (T_flushing - T_plain) / flushes (medians over the repeats), and
    the flush durations desync reports;
  - the overhead at the bench's interval, T_flushing / T_plain - 1 (an upper bound: flushes every
    second);
  - the overhead with the default interval (no flush_seconds in the deck): the next flush is due
    max(60 s, 100 x the last flush's duration) after the last, so the share is the cost per flush
    divided by that interval; goal <= 1 %.

    bench/flush_overhead.py --desync BIN [--mpiexec mpiexec] [--preflags "a b"] [--np 2]
                            [--deck inputs/quickstart.toml] [--iterations 1500] [--interval 1]
                            [--repeats 3] [--workdir DIR]

The files are as large as a short run's; the cost per flush grows with the rows a flush writes
(each flush rewrites the whole file), which the default interval's 100x rule absorbs.
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile

DEFAULT_INTERVAL, FLUSH_SHARE = 60.0, 0.01  # commands/run_flush.hpp: the default rule


def loop_seconds(path):
    import h5py
    import numpy as np
    with h5py.File(path, "r") as f:
        ev = f["timeline/events"][:]
    return float(np.nanmax(ev) - np.nanmin(ev))


def run(a, out, interval):
    cmd = [a.mpiexec, "-n", str(a.np), *a.preflags.replace(";", " ").split(), a.desync, "run", a.deck, "-o", out,
           "--force", "--set", f"run.iterations={a.iterations}", "--set", f"record.flush_seconds={interval}",
           "--set", "run.progress_interval=0"]
    p = subprocess.run(cmd, capture_output=True, text=True, env=dict(os.environ, OMP_NUM_THREADS="1"))
    if p.returncode != 0:
        sys.exit(f"flush_overhead: the run failed ({p.returncode}): {' '.join(cmd)}\n{p.stderr[-2000:]}")
    took = [float(m.group(1)) for m in re.finditer(r"^\[record\] .*\(flush \d+, ([0-9.]+) s\)", p.stdout, re.M)]
    return loop_seconds(out), took


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--desync", required=True)
    ap.add_argument("--mpiexec", default="mpiexec")
    ap.add_argument("--preflags", default="", help="launcher flags separated by ';' or spaces")
    ap.add_argument("--np", type=int, default=2)
    ap.add_argument("--deck", default=os.path.join(os.path.dirname(__file__), "..", "inputs", "quickstart.toml"))
    ap.add_argument("--iterations", type=int, default=1500)
    ap.add_argument("--interval", type=float, default=1.0)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--workdir", default=None)
    a = ap.parse_args()
    work = a.workdir or tempfile.mkdtemp(prefix="desync_flush_bench.")
    os.makedirs(work, exist_ok=True)
    plain, flushing, per_flush, durations = [], [], [], []
    for k in range(a.repeats):
        t0, _ = run(a, os.path.join(work, "plain.h5"), 0)
        t1, took = run(a, os.path.join(work, "flushing.h5"), a.interval)
        plain.append(t0)
        flushing.append(t1)
        durations += took
        if took:
            per_flush.append((t1 - t0) / len(took))
        print(f"repeat {k + 1}: without flushes {t0:.3f} s, with {len(took)} flush(es) every {a.interval:g} s "
              f"{t1:.3f} s", flush=True)
    if not durations:
        sys.exit("flush_overhead: no run flushed; raise --iterations so that a run lasts several --interval")
    cost = max(statistics.median(per_flush), 0.0)
    took = statistics.median(durations)
    default_interval = max(DEFAULT_INTERVAL, took / FLUSH_SHARE)
    print(f"\nflush overhead: {a.np} rank(s), {os.path.basename(a.deck)}, {a.iterations} iterations, "
          f"{a.repeats} repeat(s) side by side")
    print(f"  flush duration reported by desync (median): {took * 1e3:.1f} ms; measured cost per flush "
          f"(with - without) / flushes (median): {cost * 1e3:.1f} ms")
    print(f"  at the bench's interval ({a.interval:g} s): with / without = "
          f"{statistics.median(flushing) / statistics.median(plain):.4f}")
    print(f"  default interval (max({DEFAULT_INTERVAL:g} s, 100 x {took:.3f} s) = {default_interval:g} s): "
          f"overhead {100.0 * cost / default_interval:.3f} % of the run (goal <= 1 %)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
