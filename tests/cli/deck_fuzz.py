#!/usr/bin/env python3
"""Deck fuzzer: mutate the shipped decks and run every mutant through `desync check`.

Each mutant (a deck with one to three mutations, sometimes with `--set` overrides and `--ranks`)
is checked with a timeout. A mutant fails the test when desync
  - hangs (runs past --timeout),
  - dies by a signal or exits with a code other than 0 (valid) or 2 (refused),
  - exits with 2 but its stderr is not exactly one non-empty line without control characters,
    or that line does not start with the mutant's path, "command line" or "desync:",
  - exits with 0 but prints something that looks like an error on stderr.
Mutant I depends only on the seed, I and the decks, so `--only I` reproduces it. Directed cases
d0, d1, ... (regressions and the edges of --set and --ranks) run before the random mutants.
desync runs directly (an MPI singleton, Open MPI's isolated mode), with OMP_NUM_THREADS=1,
OMP_PROC_BIND=false and a scratch folder of its own (TMPDIR and the MPI session-directory bases).

Python 3 standard library only. Exit status: 0 when no mutant failed, 1 otherwise, 2 on bad usage.
"""
import argparse
import difflib
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from deck_mutations import DIRECTED, _short, make_directed, make_mutant  # noqa: E402

DEFAULT_SEED = 20240611

ERRORISH = re.compile(r"error|exception|terminate|abort|assert|sanitizer|segmentation|core dumped|what\(\)|"
                      r"traceback|fatal|panic", re.IGNORECASE)


def run_one(desync, path, args, timeout, env):
    cmd = [desync, "check", str(path)] + args
    # A scratch folder of its own: isolated Open MPI singletons all use the session directory
    # <tmp>/ompi.HOST.UID/jf.0, and one that exits removes it under another that starts. The
    # session-directory bases must point there too, not only TMPDIR: under ctest they are set to
    # the test's one scratch folder (cmake/DesyncTestIsolation.cmake) and win over TMPDIR, so
    # two mutants checked at once shared jf.0 again (a fresh-clone CI run lost one mutant in
    # MPI_Init, "ompi_rte_init failed").
    tmp = str(path.with_suffix(".tmp").resolve())
    os.mkdir(tmp)
    env = dict(env, TMPDIR=tmp, OMPI_MCA_orte_tmpdir_base=tmp, PRTE_MCA_prte_tmpdir_base=tmp)
    t0 = time.monotonic()
    # Own session, so that a hang is killed with everything it started (an MPI singleton's helpers).
    p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                         start_new_session=True)
    try:
        out, err = p.communicate(timeout=timeout)
        hung = False
    except subprocess.TimeoutExpired:
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        out, err = p.communicate()
        hung = True
    return cmd, p.returncode, out, err, hung, time.monotonic() - t0


def judge(path, rc, out, err, hung, timeout):
    """None if fine, else why it failed."""
    if hung:
        return f"hang: still running after {timeout} s (killed)"
    if rc < 0:
        return f"killed by signal {-rc} ({signal.Signals(-rc).name if -rc in signal.valid_signals() else '?'})"
    text = err.decode("utf-8", errors="backslashreplace")
    if rc == 2:
        line = text[:-1] if text.endswith("\n") else text
        if not line.strip():
            return "exit code 2 with nothing on stderr"
        if "\n" in line:
            return f"exit code 2 with a multi-line error ({line.count(chr(10)) + 1} lines)"
        bad = sorted({c for c in line if (ord(c) < 32 and c != "\t") or ord(c) == 127})
        if bad:
            return f"exit code 2 with control characters {bad!r} in the error line"
        if not (line.startswith(str(path)) or line.startswith("command line") or line.startswith("desync:")):
            return "exit code 2, but the error does not start with the deck's path, 'command line' or 'desync:'"
        return None
    if rc == 0:
        if ERRORISH.search(text):
            return "exit code 0, but stderr looks like an error"
        return None
    return f"exit code {rc} (allowed: 0 valid, 2 refused)"


def report(index, seed, origin, data, args, what, cmd, rc, out, err, why):
    print(f"=== FAIL mutant {index} of {origin}: {why}")
    print(f"    mutations: {_short('; '.join(what), 2000)}")
    print(f"    command: {_short(' '.join(_quote(c) for c in cmd), 2000)}")
    print(f"    rc: {rc}")
    a = origin.read_bytes().decode("utf-8", errors="backslashreplace").splitlines()
    b = data.decode("utf-8", errors="backslashreplace").splitlines()
    diff = list(difflib.unified_diff(a, b, str(origin), "mutant", lineterm="", n=1))
    print("    diff against the origin:" if diff else "    (deck unchanged)")
    for l in diff[:40]:
        print("      " + _short(l, 300))
    if len(data) < 4000 and any(b < 32 and b not in (9, 10) or b >= 127 for b in data):
        print(f"    mutant bytes: {data!r}")
    tail = lambda s: "\n".join(_short(l, 400) for l in s.decode("utf-8", errors="backslashreplace").split("\n")[-15:])
    print("    stdout (tail):\n      " + tail(out).replace("\n", "\n      "))
    print("    stderr (tail):\n      " + tail(err).replace("\n", "\n      "))
    print(f"    reproduce: {Path(sys.argv[0]).name} --desync ... --decks ... --seed {seed} --only {index} --keep")
    sys.stdout.flush()


def _quote(s):
    return s if re.fullmatch(r"[\w@%+=:,./-]+", s) else "'" + s.replace("'", "'\\''") + "'"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--desync", required=True, help="the desync binary")
    ap.add_argument("--decks", required=True, help="directory of decks (searched recursively for *.toml)")
    ap.add_argument("--count", type=int, default=300, help="number of mutants (default 300)")
    ap.add_argument("--seed", type=int, default=DEFAULT_SEED, help=f"seed (default {DEFAULT_SEED})")
    ap.add_argument("--timeout", type=float, default=10.0, help="seconds per `desync check` (default 10)")
    ap.add_argument("--workdir", help="where mutants are written (default: a temporary directory); removed after")
    ap.add_argument("--jobs", type=int, default=2, help="mutants checked at once (default 2)")
    ap.add_argument("--only", action="append", metavar="I",
                    help="check only mutant I (a number, or d0, d1, ... for the directed cases; repeatable)")
    ap.add_argument("--keep", action="store_true", help="keep the work directory")
    ap.add_argument("-v", "--verbose", action="store_true", help="print every mutant's outcome")
    a = ap.parse_args()

    desync = os.path.abspath(a.desync)
    if not os.access(desync, os.X_OK):
        ap.error(f"--desync {a.desync}: not an executable")
    decks = sorted(Path(a.decks).rglob("*.toml"), key=lambda p: p.as_posix())
    if not decks:
        ap.error(f"--decks {a.decks}: no *.toml files")
    if a.workdir:
        work = Path(a.workdir)
        if work.exists():  # left over from an earlier run: only mutants may be in it
            if not work.is_dir() or any(not e.name.startswith("mutant_") for e in work.iterdir()):
                ap.error(f"--workdir {a.workdir}: exists and holds more than mutants; give a new directory")
            shutil.rmtree(work)
        work.mkdir(parents=True)
    else:
        work = Path(tempfile.mkdtemp(prefix="deck_fuzz."))
    env = dict(os.environ, OMP_NUM_THREADS="1", OMP_PROC_BIND="false")
    # An Open MPI singleton starts faster without its helper daemon (check needs no other rank).
    env.setdefault("OMPI_MCA_ess_singleton_isolated", "1")

    labels = a.only if a.only else [f"d{k}" for k in range(len(DIRECTED))] + [str(i) for i in range(a.count)]
    mutants = []
    for i in labels:
        if i.startswith("d") and i[1:].isdigit() and int(i[1:]) < len(DIRECTED):
            origin, data, args, what = make_directed(int(i[1:]), decks)
        elif i.isdigit():
            origin, data, args, what = make_mutant(a.seed, int(i), decks)
        else:
            ap.error(f"--only {i}: neither a mutant number nor d0..d{len(DIRECTED) - 1}")
        path = work / f"mutant_{i}.toml"
        path.write_bytes(data)
        mutants.append((i, origin, data, args, what, path))

    counts = {"valid": 0, "refused": 0, "failures": 0}
    slowest = (0.0, None)
    t0 = time.monotonic()
    try:
        with ThreadPoolExecutor(max_workers=max(1, a.jobs)) as pool:
            results = pool.map(lambda m: run_one(desync, m[5], m[3], a.timeout, env), mutants)
            for (i, origin, data, args, what, path), (cmd, rc, out, err, hung, dt) in zip(mutants, results):
                why = judge(path, rc, out, err, hung, a.timeout)
                slowest = max(slowest, (dt, i), key=lambda x: x[0])
                if why:
                    counts["failures"] += 1
                    report(i, a.seed, origin, data, args, what, cmd, rc, out, err, why)
                else:
                    counts["valid" if rc == 0 else "refused"] += 1
                if a.verbose:
                    first = err.decode("utf-8", errors="backslashreplace").split("\n", 1)[0]
                    print(f"{i:>4} rc={rc} {dt:5.2f}s {origin.name}: {_short('; '.join(what), 200)} "
                          f"{_short(' '.join(args), 200)} | {_short(first, 160)}")
    finally:
        if not a.keep:
            shutil.rmtree(work, ignore_errors=True)
    print(f"{len(mutants)} mutants: {counts['valid']} valid, {counts['refused']} refused, "
          f"{counts['failures']} failures ({time.monotonic() - t0:.1f} s, slowest mutant {slowest[1]}: "
          f"{slowest[0]:.2f} s, seed {a.seed})")
    if a.keep:
        print(f"mutants kept in {work}")
    return 1 if counts["failures"] else 0


if __name__ == "__main__":
    sys.exit(main())
