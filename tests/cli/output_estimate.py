#!/usr/bin/env python3
"""The output-size estimate against the files runs really write (issue 26, docs/decks.md "Output size").

Every shipped deck under inputs/ (not inputs/campaigns/, campaign files; not inputs/paper/, full-size
decks of the papers that take minutes to hours here) runs shortened ([run] iterations and warmup
lowered where the workload reads them, [record] flush_seconds = 0) on a rank count it accepts, and
the size of its file is compared with what `desync check --ranks P` (same --set overrides) prints as
"# output estimate": within 20 %. The same runs check the memory estimate: each rank's
/summary/memory_estimate (the preflight's) against its /summary/peak_resident (VmHWM), within 25 %.
A few more points record messages or collectives ([comm]
record_messages) or keep a window of rows ([record] window, stride). Prints a table; exit 1 if any
point is off, 2 if a deck could not be run at all.
"""
import argparse
import concurrent.futures
import glob
import os
import re
import subprocess
import sys
import time

UNITS = {"B": 1, "KiB": 1024, "MiB": 1024**2, "GiB": 1024**3, "TiB": 1024**4}
TOLERANCE = 0.20
MEMORY_TOLERANCE = 0.25
SHORTEN = ["run.iterations=20", "run.warmup=2", "record.flush_seconds=0", "run.progress_interval=0"]
# Points that exercise the optional parts: (deck, extra --set overrides).
EXTRA = [
    ("quickstart.toml", ["comm.record_messages=true"]),
    ("quickstart.toml", ["run.iterations=200", "record.window=[10,150]", "record.stride=3"]),
    ("toy/imbalance_all_to_all.toml", ["comm.record_messages=true"]),
    ("matvec2d/small.toml", ["comm.record_messages=true"]),
    ("stencil/base_512.toml", ["comm.record_messages=true", "record.window=[0,10]"]),
    ("triad/core_bound.toml", ["run.iterations=2000", "run.warmup=0"]),
]


def sets_args(sets):
    return [a for s in sets for a in ("--set", s)]


def check(desync, deck, sets, ranks, env):
    args = [desync, "check", deck] + sets_args(sets) + (["--ranks", str(ranks)] if ranks else [])
    return subprocess.run(args, capture_output=True, text=True, env=env)


def accepted_overrides(desync, deck, sets, env):
    """Drops the overrides the deck's workload does not read; stretches iterations past an [[inject]]."""
    sets = list(sets)
    for _ in range(10):
        c = check(desync, deck, sets, 0, env)
        if c.returncode == 0:
            return sets, c.stdout
        err = c.stderr
        m = re.search(r"\[inject\[\d+\]\] iteration = (\d+)", err)
        if m:
            sets = [s for s in sets if not s.startswith("run.iterations=")] + [f"run.iterations={int(m.group(1)) + 5}"]
            continue
        m = re.search(r"--set ([\w.]+)=", err) or re.search(r"\[(\w+)\] (\w+) = [^:]*: not used", err)
        key = m.group(1) if m and m.lastindex == 1 else (f"{m.group(1)}.{m.group(2)}" if m else None)
        if key is None:
            m = re.search(r"table \[(\w+)\] is not used", err)
            key = m.group(1) + "." if m else None
        drop = [s for s in sets if key and (s.startswith(key + "=") or (key.endswith(".") and s.startswith(key)))]
        if not drop:
            return None, err.strip()
        sets.remove(drop[0])
    return None, "overrides not accepted"


def estimate(text):
    m = re.search(r"# output estimate on (\d+) rank\(s\): ([0-9.]+) (B|KiB|MiB|GiB|TiB)", text)
    return (int(m.group(1)), float(m.group(2)) * UNITS[m.group(3)]) if m else (None, None)


def memory_ratio(h5):
    """The rank whose estimate / peak resident size is furthest from 1: (ratio, estimate, peak)."""
    import h5py
    with h5py.File(h5, "r") as f:
        est, peak = f["summary/memory_estimate"][:], f["summary/peak_resident"][:]
    worst = max(range(len(est)), key=lambda i: abs(est[i] / peak[i] - 1.0))
    return est[worst] / peak[worst], est[worst], peak[worst]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--desync", required=True)
    ap.add_argument("--inputs", required=True)
    ap.add_argument("--workdir", required=True)
    ap.add_argument("--mpiexec", required=True)
    ap.add_argument("--preflags", default="", help="';'-separated launcher flags")
    ap.add_argument("--np-flag", default="-n")
    ap.add_argument("--only", default="", help="a regular expression: decks to run (default all)")
    ap.add_argument("--jobs", type=int, default=2, help="points run at a time (default 2)")
    a = ap.parse_args()
    env_all = dict(os.environ, OMP_NUM_THREADS="1", OMP_PROC_BIND="false")
    os.makedirs(a.workdir, exist_ok=True)
    decks = sorted(os.path.relpath(d, a.inputs) for d in glob.glob(os.path.join(a.inputs, "**", "*.toml"), recursive=True))
    decks = [d for d in decks if not d.startswith(("campaigns/", "paper/"))]
    points = [(d, []) for d in decks] + EXTRA
    if a.only:
        points = [p for p in points if re.search(a.only, p[0])]
    launcher = [a.mpiexec] + [f for f in a.preflags.split(";") if f]
    t0 = time.time()

    def run_point(k, deck, extra):
        """One point: (row, None) when it ran, (None, why) when it could not."""
        path = os.path.join(a.inputs, deck)
        # Two points run side by side: each its own launcher scratch space (Open MPI's session
        # folder race, as in deck_fuzz.py), for its `check` singletons and its runs.
        scratch = os.path.join(a.workdir, f"scratch_{k}")
        os.makedirs(scratch, exist_ok=True)
        env = dict(env_all, TMPDIR=scratch, OMPI_MCA_orte_tmpdir_base=scratch, PRTE_MCA_prte_tmpdir_base=scratch)
        sets, out = accepted_overrides(a.desync, path, SHORTEN + extra, env)
        if sets is None:
            return None, f"not run: {out}"
        implied, _ = estimate(out)
        # A rank count `check` accepts and the run's layout rules too (e.g. collectives between nodes).
        h5 = os.path.join(a.workdir, f"estimate_{k}.h5")
        ranks, why = None, "no rank count of 1, 2 or 4 is accepted"
        t = time.time()
        for p in ([implied] if implied and implied > 1 else []) + [2, 4, 1]:
            c = check(a.desync, path, sets, p, env)
            if c.returncode != 0:
                continue
            _, est = estimate(c.stdout)
            t = time.time()
            r = subprocess.run(launcher + [a.np_flag, str(p), a.desync, "run", path, "-o", h5, "--force"] + sets_args(sets),
                               capture_output=True, text=True, env=env)
            if r.returncode == 0:
                ranks = p
                break
            why = f"the run failed ({r.returncode}): {r.stderr.strip()[:400]}"
        if ranks is None:
            return None, why
        actual = os.path.getsize(h5)
        mem, mem_est, mem_peak = memory_ratio(h5)
        os.remove(h5)
        ratio = est / actual
        label = deck + ("" if not extra else " " + " ".join(extra))
        row = (label, ranks, est, actual, ratio, abs(ratio - 1.0) <= TOLERANCE, mem_est, mem_peak, mem,
               abs(mem - 1.0) <= MEMORY_TOLERANCE)
        print(f"{label:60s} {ranks:3d} {est / 1024:9.1f} {actual / 1024:9.1f} KiB {ratio:6.3f}{'' if row[5] else ' OFF'}  "
              f"{mem_est / 2**20:7.1f} {mem_peak / 2**20:7.1f} MiB {mem:6.3f}{'' if row[9] else ' OFF'}  {time.time() - t:5.1f} s",
              flush=True)
        return row, None

    # Two points at a time: each is mostly process start-up and small runs, one core's worth; the
    # sizes do not depend on timing, and the peak resident sizes are each process's own.
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as pool:
        results = list(pool.map(lambda kp: run_point(kp[0], *kp[1]), enumerate(points)))
    rows, bad, broken = [], 0, 0
    for (deck, _), (row, why) in zip(points, results):
        if row is None:
            print(f"{deck}: {why}", flush=True)
            broken += 1
            continue
        rows.append(row)
        bad += (0 if row[5] else 1) + (0 if row[9] else 1)
    print(f"\n{'deck':60s} {'P':>3s} {'output estimate':>15s} {'written':>9s} {'ratio':>6s}  "
          f"{'memory estimate':>15s} {'peak RSS':>8s} {'ratio':>6s}  (memory: the rank furthest from 1)")
    for label, ranks, est, actual, ratio, ok, mem_est, mem_peak, mem, mem_ok in rows:
        print(f"{label:60s} {ranks:3d} {est / 1024:11.1f} KiB {actual / 1024:5.1f} KiB {ratio:6.3f}{'' if ok else ' <--'}  "
              f"{mem_est / 2**20:11.1f} MiB {mem_peak / 2**20:4.1f} MiB {mem:6.3f}{'' if mem_ok else ' <--'}")
    print(f"{len(rows)} point(s), {bad} estimate(s) off (output by more than {TOLERANCE:.0%}, memory by more than "
          f"{MEMORY_TOLERANCE:.0%}), {broken} not run; {time.time() - t0:.0f} s")
    return 2 if broken else 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
