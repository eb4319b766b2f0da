#!/usr/bin/env python3
"""Fingerprints of the shipped decks' results, to show a refactoring changes no number.

Runs every deck under inputs/ (matrix-only and campaign files excepted) with `desync run` at a
fixed thread count and the first of the rank counts --ranks (default 2, 4, 8) the deck accepts
(mesh and box decks need squares, cubes or their grid's product), and writes one JSON object per deck: the verification
verdict, every rank's /summary/result_fingerprint and result_norm2 (where the workload has a
result vector), a digest of /comm (partners and bytes) and the timeline's shape. Timings are
left out: they are never equal twice. A deck that cannot run at that rank count, or runs longer
than --timeout seconds, is recorded with the reason, so that two runs of this script compare
deck by deck.

  ci/deck_fingerprints.py --desync build/openmp-release/miniapp/desync --out before.json
  ci/deck_fingerprints.py --desync NEW --out after.json --like before.json   (only the decks that ran)
  ci/deck_fingerprints.py --compare before.json after.json

Paper decks are large: --set overrides (the same in both runs) shrink them where needed.
"""
import argparse
import hashlib
import json
import os
import shlex
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def decks(root):
    skip = ("matrices", "campaigns")
    out = []
    for dirpath, dirnames, files in os.walk(os.path.join(root, "inputs")):
        dirnames[:] = sorted(d for d in dirnames if d not in skip)
        out += [os.path.join(dirpath, f) for f in sorted(files) if f.endswith(".toml")]
    return out


def digest(arr):
    import numpy as np
    a = np.ascontiguousarray(arr)
    return hashlib.sha256(a.tobytes() + str(a.dtype).encode() + str(a.shape).encode()).hexdigest()[:16]


def read_result(path):
    import h5py
    r = {}
    with h5py.File(path, "r") as f:
        r["verification"] = str(f.attrs.get("verification", b"").decode() if isinstance(f.attrs.get("verification"), bytes)
                                else f.attrs.get("verification"))
        for a in ("iterations", "warmup_iterations", "iterations_planned", "ranks"):
            if a in f.attrs:
                r[a] = int(f.attrs[a])
        s = f.get("summary")
        if s is not None:
            for k in ("result_fingerprint", "result_norm2"):
                if k in s:
                    r[k] = [int(v) if k == "result_fingerprint" else float(v).hex() for v in s[k][...]]
        if "comm" in f:
            r["comm"] = {k: digest(f["comm"][k][...]) for k in sorted(f["comm"].keys())
                         if isinstance(f["comm"][k], h5py.Dataset)}
        if "timeline" in f and "events" in f["timeline"]:
            r["timeline_shape"] = list(f["timeline"]["events"].shape)
    return r


def run_all(args):
    results = {}
    launcher = shlex.split(args.launcher)
    like = json.load(open(args.like)) if args.like else None
    for deck in decks(ROOT):
        name = os.path.relpath(deck, ROOT)
        if like is not None and "skipped" in like.get(name, {}):
            results[name] = like[name]  # skipped there for a reason of its own: not run again
            continue
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "out.h5")
            t0 = time.time()
            for ranks in args.ranks:
                cmd = launcher + ["-n", str(ranks), args.desync, "run", deck, "-o", out,
                                  "--set", "threads.per_rank=%d" % args.threads] + sum((["--set", s] for s in args.set), [])
                try:
                    p = subprocess.run(cmd, capture_output=True, text=True, timeout=args.timeout, cwd=tmp)
                except subprocess.TimeoutExpired:
                    p = None
                    break
                if p.returncode != 2:  # 2: the deck refused (e.g. this rank count): try the next
                    break
            if p is None:
                results[name] = {"skipped": "ran longer than %d s at %d ranks" % (args.timeout, ranks)}
                print("%-60s timeout" % name, flush=True)
                continue
            if not os.path.exists(out):
                last = [l for l in (p.stdout + p.stderr).splitlines() if "error" in l]
                results[name] = {"skipped": "exit %d: %s" % (p.returncode, last[0][:200] if last else "")}
                print("%-60s skipped (exit %d)" % (name, p.returncode), flush=True)
                continue
            results[name] = read_result(out)
            results[name]["exit"] = p.returncode
            print("%-60s %s at %d ranks, %.1f s" % (name, results[name]["verification"], ranks, time.time() - t0),
                  flush=True)
    with open(args.out, "w") as f:
        json.dump(results, f, indent=1, sort_keys=True)


def compare(a_path, b_path):
    a, b = json.load(open(a_path)), json.load(open(b_path))
    bad = 0
    for name in sorted(set(a) | set(b)):
        if a.get(name) != b.get(name):
            bad += 1
            print("DIFFERS %s\n  before: %s\n  after:  %s" % (name, a.get(name), b.get(name)))
    ran = sum(1 for v in a.values() if "skipped" not in v)
    print("%d decks, %d ran, %d differ" % (len(a), ran, bad))
    return 1 if bad else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--desync")
    ap.add_argument("--out")
    ap.add_argument("--ranks", type=lambda v: [int(x) for x in v.split(",")], default=[2, 4, 8])
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--timeout", type=int, default=60)
    ap.add_argument("--launcher", default=os.environ.get("DESYNC_LAUNCHER", "mpiexec --oversubscribe --allow-run-as-root"))
    ap.add_argument("--set", action="append", default=[])
    ap.add_argument("--compare", nargs=2)
    ap.add_argument("--like", help="an earlier result: run only the decks that ran there")
    args = ap.parse_args()
    if args.compare:
        sys.exit(compare(*args.compare))
    if not args.desync or not args.out:
        ap.error("--desync and --out are needed to run the decks")
    args.desync = os.path.abspath(args.desync)  # the decks run in a scratch folder each
    run_all(args)


if __name__ == "__main__":
    main()
