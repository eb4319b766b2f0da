#!/usr/bin/env python3
"""The ping-pong simulated against its real run here (issue 28): 2 ranks, one per core.

  pingpong_vs_real.py --desync BIN --mpiexec "mpiexec ..." [--platform FILE]
                      [--work DIR] [--factor 2] [--two-sided]

The platform: FILE, or by default one calibrated here first (tools/calibrate_platform.py with the
same launcher, into DIR, 5 rounds; about 20 s). Not the shipped platforms/this_machine.toml: that file
describes the machine of the day it was measured, and this VM's speed varies from day to day (its
divide time 4.0 ns one day, 2.5 ns another), as does the MPI set-up (Open MPI's 8-byte round trip
0.55-0.70 us with its fabric probes loaded, 0.44 us with ob1 named, ci/env.sh): a platform
slower than the machine fails the one-sided check below although nothing is wrong.

Checks, per message size from 8 B to 4 MiB (both sides of the platform's eager limits):
- the known answer of the model: the simulated round trip is 2 (L + s / B) with the platform's
  intra-node latency L and bandwidth B for eager sizes (a transfer is one latency plus its bytes
  over the link), and 2 (2 L + s / B) above the eager limit (the request to send adds one
  latency: the progress model of [comm] progress = "wait"); 1e-6 relative; the same with
  network.receiver_links = true (the receiver's links add bandwidth sharing, not a second latency);
- the simulation against the real run: each size's simulated median round trip at most F times
  the real one (2: the policy of simulate_vs_real_np4; the platform's L and B are a fit over sizes
  that misses single sizes by up to a third, and this machine's copies vary from run to run). Only
  this side is checked: a busy machine can only slow the real run (another process on one of the
  two cores read real round trips 2-4x the quiet ones), so sim / real below 1/F is printed as a
  note, not a failure; --two-sided checks 1/F <= sim / real <= F (bench/simulate_vs_real.sh, a
  measurement on a quiet machine). Except
  the size at
  the platform's intra-node eager limit (4096 B), reported only: Open MPI counts its header in
  the limit, so 4096 payload bytes already go rendezvous there (2.5-3x the simulated eager round
  trip), while the model compares the payload with the limit.
Exit 0 when every check holds, 1 when one does not, 2 when a run failed.
"""
import argparse
import os
import shlex
import subprocess
import sys

import tomllib

import h5py
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))

SIZES = [8, 512, 4096, 16384, 65536, 1048576, 4194304]
DECK = """[run]
workload = "pingpong"
iterations = 200
warmup = 10
progress_interval = 0
[pingpong]
mode = "pingpong"
sizes = [%s]
""" % ", ".join(str(s) for s in SIZES)


def round_trips(path):
    with h5py.File(path, "r") as f:
        return np.asarray(f["pingpong/round_trip_median"][...])[:, 0]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--desync", required=True)
    ap.add_argument("--mpiexec", required=True)
    ap.add_argument("--platform", help="platform file (default: calibrate one here first)")
    ap.add_argument("--work", default="pingpong_vs_real")
    ap.add_argument("--factor", type=float, default=2.0)
    ap.add_argument("--two-sided", action="store_true", help="also sim / real >= 1/F (a quiet machine)")
    args = ap.parse_args()
    os.makedirs(args.work, exist_ok=True)
    deck = os.path.join(args.work, "pingpong.toml")
    with open(deck, "w") as fh:
        fh.write(DECK)
    real, sim = os.path.join(args.work, "real.h5"), os.path.join(args.work, "sim.h5")
    sim_rl = os.path.join(args.work, "sim_receiver_links.h5")
    env = dict(os.environ, OMP_NUM_THREADS="1", OMP_PROC_BIND="false")
    if not args.platform:
        # The launcher's own binding flags (the test gives them) instead of the calibration's. Five
        # rounds, not three: the real run is compared with the calibration's fastest pingpong,
        # and this machine runs 2-3 x slower for seconds at a time (issue 30: both attempts of a
        # CI run once calibrated in such a spell, sim / real 2.2-2.65 against the factor 2).
        args.platform = os.path.join(args.work, "platform.toml")
        cmd = [sys.executable, os.path.join(ROOT, "tools", "calibrate_platform.py"), "--desync", args.desync,
               "--mpiexec", args.mpiexec, "--bind", "none", "--repeat", "5", "-o", args.platform,
               "--name", "pingpong_vs_real"]
        cal = subprocess.run(cmd, capture_output=True, text=True, env=env)
        if cal.returncode != 0:
            print(cal.stdout + cal.stderr)
            print("pingpong_vs_real: failed: %s" % " ".join(cmd))
            return 2
        print("platform calibrated here: %s" % args.platform)
    for cmd in (shlex.split(args.mpiexec) + ["-n", "2", args.desync, "run", deck, "-o", real, "-f"],
                [args.desync, "simulate", deck, "--platform", args.platform, "--ranks", "2", "-o", sim, "-f"],
                [args.desync, "simulate", deck, "--platform", args.platform, "--ranks", "2", "--pset",
                 "network.receiver_links=true", "-o", sim_rl, "-f"]):
        run = subprocess.run(cmd, capture_output=True, text=True, env=env)
        if run.returncode != 0:
            print(run.stdout + run.stderr)
            print("pingpong_vs_real: failed: %s" % " ".join(cmd))
            return 2
    with open(args.platform, "rb") as fh:
        net = tomllib.load(fh)["network"]
    lat, bw = float(net["intra_node_latency"]), float(net["intra_node_bandwidth"])
    t_real, t_sim, t_rl = round_trips(real), round_trips(sim), round_trips(sim_rl)
    ok = True
    print("%10s %14s %14s %14s %14s %8s" % ("bytes", "real [us]", "sim [us]", "links [us]", "model [us]", "sim/real"))
    limit = int(net["eager_limit_intra"])
    for s, r, m, m_rl in zip(SIZES, t_real, t_sim, t_rl):
        model = 2 * ((2 if s > limit else 1) * lat + s / bw)
        exact = abs(m - model) <= 1e-6 * model and abs(m_rl - model) <= 1e-6 * model
        near = m / r <= args.factor and (not args.two_sided or m / r >= 1 / args.factor)
        at_limit = s == limit
        good = exact and (near or at_limit)
        ok = ok and good
        note = "ok" if good else "MISS"
        if at_limit:
            note += " (at the eager limit: the real protocol switch, not modelled; ratio reported)"
        elif m / r < 1 / args.factor:
            note += " (the real run is more than %g x slower: a busy machine?)" % args.factor
        print("%10d %14.2f %14.2f %14.2f %14.2f %8.3f %s" % (s, r * 1e6, m * 1e6, m_rl * 1e6, model * 1e6, m / r, note))
    print("pingpong_vs_real: %s (model within 1e-6, simulation at most %g x the real run)"
          % ("every size holds" if ok else "a size missed", args.factor))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
