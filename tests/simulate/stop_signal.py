#!/usr/bin/env python3
"""A stop request ends `desync simulate` with a file that keeps what ran (docs/simulate.md).

  stop_signal.py --desync BIN --work DIR

Starts a long simulation (1280 ranks x 1000 iterations), sends SIGINT after its first progress
line, and checks: exit code 5, the file exists without its .tmp, root attribute complete = 0 with
stop_signal "SIGINT", and a timeline of fewer rows than planned that every rank completed (no NaN
in any row's first event). Exit 0 when all hold, 1 otherwise.
"""
import argparse
import os
import shutil
import signal
import subprocess
import sys

import h5py
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
DECK = """[run]
workload = "triad"
iterations = 1000
warmup = 0
progress_interval = 0.5
[triad]
kernel = "stream"
size_per_rank = 1000000
"""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--desync", required=True)
    ap.add_argument("--work", required=True)
    args = ap.parse_args()
    # An earlier run's file must not stand in for this one's: the folder starts empty.
    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(args.work)
    deck, out = os.path.join(args.work, "stop.toml"), os.path.join(args.work, "stop.h5")
    with open(deck, "w") as fh:
        fh.write(DECK)
    proc = subprocess.Popen([args.desync, "simulate", deck, "--platform", os.path.join(HERE, "cluster.toml"), "--ranks",
                             "1280", "-o", out, "-f"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    text = ""
    for line in proc.stdout:
        text += line
        if "iteration " in line and "elapsed" in line:
            proc.send_signal(signal.SIGINT)
            break
    text += proc.stdout.read()
    code = proc.wait()
    print(text)
    problems = []
    if code != 5:
        problems.append("exit code %d, expected 5" % code)
    left = [x for x in os.listdir(os.path.dirname(os.path.abspath(out))) if x.startswith(os.path.basename(out) + ".") and x.endswith(".tmp")]
    if left or not os.path.exists(out):
        problems.append("expected %s and no .tmp" % out)
    else:
        with h5py.File(out, "r") as f:
            complete, sig = int(f.attrs["complete"]), f.attrs["stop_signal"]
            sig = sig.decode() if isinstance(sig, bytes) else str(sig)
            ev = f["timeline/events"][...]
            names = [n.decode() if isinstance(n, bytes) else str(n) for n in f["timeline/events"].attrs["event_names"]]
        if complete != 0 or sig != "SIGINT":
            problems.append("complete = %d, stop_signal = %r" % (complete, sig))
        if not 0 < ev.shape[1] < 1000:
            problems.append("%d timeline rows, expected between 1 and 999" % ev.shape[1])
        # Every rank began every kept iteration and finished the last one (its wait ended).
        if np.isnan(ev[:, :, 0]).any() or np.isnan(ev[:, -1, names.index("wait_end")]).any():
            problems.append("a rank did not complete every kept iteration")
    for p in problems:
        print("stop_signal: " + p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
