#!/usr/bin/env python3
"""[[inject]] duration_iterations as a user runs it (docs/decks.md, "[[inject]]"), on
inputs/triad/delay_in_iterations.toml (rank 0 held for 10 of its iteration times at iteration 20).

  delay_in_iterations.py --desync BIN --mpiexec MPIEXEC --preflags "a;b" --workdir DIR --inputs INPUTS [--platform P]

- a run on 2 ranks: rank 0's one delay, in iteration 20, lasts 10 times the median over its warm-up
  rows of the span from a row's first to its last event (read back from the file), at least that
  (busy work runs until the clock has passed it) and at most 1.8 times (a busy machine preempts
  it; a wrong multiple of 2 or more still fails);
- `desync simulate` on 4 ranks (given --platform, a build with SimGrid): the same rule on the
  simulated timeline, within 1e-9 relative.
Exit 0 if both hold, 1 otherwise.
"""
import argparse
import os
import subprocess
import sys

import h5py
import numpy as np

MULTIPLE, ITERATION = 10.0, 20


def measured(path):
    """(delay rows, delay seconds, median warm-up span) of rank 0."""
    with h5py.File(path, "r") as f:
        e = f["timeline/events"]
        names = [n.decode() if isinstance(n, bytes) else n for n in e.attrs["event_names"]]
        ev = e[()]
        warmup = int(f.attrs["warmup_iterations"])
    d = ev[0, :, names.index("delay_end")] - ev[0, :, names.index("delay_begin")]
    rows = np.flatnonzero(np.isfinite(d))
    span = np.nanmax(ev[0, :warmup], axis=1) - np.nanmin(ev[0, :warmup], axis=1)
    return rows.tolist(), float(np.nansum(d)), float(np.median(span)), warmup


def main():
    ap = argparse.ArgumentParser()
    for k in ("--desync", "--mpiexec", "--workdir", "--inputs"):
        ap.add_argument(k, required=True)
    ap.add_argument("--platform", help="a platform file: also simulate (a build with SimGrid)")
    ap.add_argument("--preflags", default="")
    a = ap.parse_args()
    os.makedirs(a.workdir, exist_ok=True)
    deck = os.path.join(a.inputs, "triad", "delay_in_iterations.toml")
    problems = []
    real = os.path.join(a.workdir, "real.h5")
    p = subprocess.run([a.mpiexec, "-n", "2"] + a.preflags.replace(";", " ").split() +
                       [a.desync, "run", deck, "-o", real, "--force"], capture_output=True, text=True)
    checks = [("run", p, real, 1.0 - 1e-9, 1.8)]  # above: a busy machine may preempt the busy work
    if a.platform:
        sim = os.path.join(a.workdir, "sim.h5")
        q = subprocess.run([a.desync, "simulate", deck, "--ranks", "4", "--platform", a.platform, "-o", sim, "--force"],
                           capture_output=True, text=True)
        checks.append(("simulate", q, sim, 1 - 1e-9, 1 + 1e-9))
    else:
        print("simulate: not checked (no --platform: a build without SimGrid)")
    for label, proc, path, low, high in checks:
        if proc.returncode != 0:
            problems.append("%s: exit %d: %s" % (label, proc.returncode, proc.stderr[-600:]))
            continue
        rows, delay, span, warmup = measured(path)
        ratio = delay / (MULTIPLE * span)
        print("%s: delay %.6f s in row(s) %s, median warm-up span %.6f s: %.6f x 10 spans" % (label, delay, rows, span, ratio))
        if rows != [warmup + ITERATION] or not low <= ratio <= high:
            problems.append("%s: delay rows %s (want [%d]), %.6f of 10 spans (allowed %.9g .. %.9g)"
                            % (label, rows, warmup + ITERATION, ratio, low, high))
    for line in problems:
        print("FAIL", line)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
