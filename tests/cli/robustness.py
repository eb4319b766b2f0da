#!/usr/bin/env python3
"""What happens around a run, tried as a user (or a batch system) would: a stop signal mid-run,
a rank killed mid-run or inside a flush, a full file system, bad output paths, a run too large for the node, JSON on standard output.

    robustness.py CASE --desync BIN --mpiexec MPIEXEC [--preflags "a;b"] --deck DECK --workdir DIR

Each case runs the real binary through mpiexec and asserts on exit codes, messages and the files
left behind (read with h5py). Exit 0: passed; 77: the environment cannot run the case (printed
why); anything else: failed.
"""

import argparse
import os
import shutil
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from robustness_common import SKIP, Runner, desync_errors, fail, h5_attrs, launcher_kind, rank_processes  # noqa: E402
from robustness_kills import (case_flush_between_iterations, case_kill_in_flush, case_killed_rank,  # noqa: E402
                              check_partial, start_flushing_run, wait_for_flushes)


def case_sigterm(r, a, w):
    """SIGTERM to every rank mid-run (what srun/scancel deliver): every rank stops after the same
    iteration, the file holds what ran, marked incomplete, exit code 5."""
    out = os.path.join(w, "stopped.h5")
    p = subprocess.Popen(r.cmd(4, "run", a.deck, "--set", "run.iterations=10000000", "--set", "run.warmup=5",
                               "--set", "run.progress_interval=0.2", "-o", out),
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=r.env)
    # Signal once the measured loop is under way: rank 0's progress lines say so.
    seen = ""
    while True:
        line = p.stdout.readline()
        seen += line
        if not line:
            fail("the run ended before it reported progress:\n" + seen + p.stderr.read())
        if "iteration " in line and int(line.split("iteration ")[1].split("/")[0]) > 20:
            break
    ranks = rank_processes(p.pid)
    if len(ranks) != 4:
        p.kill()
        fail(f"expected 4 rank processes under mpiexec, found {ranks}")
    t0 = time.monotonic()
    for pid in ranks:
        os.kill(int(pid), signal.SIGTERM)
    so, se = p.communicate(timeout=120)
    so = seen + so
    took = time.monotonic() - t0
    print(so[-2000:], se[-2000:], sep="\n")
    print(f"exit {p.returncode} {took:.1f} s after the signal")
    if p.returncode != 5:
        fail(f"exit code {p.returncode}, expected 5 (interrupted, file written)")
    if "stopped by SIGTERM" not in se:
        fail("no 'stopped by SIGTERM' message")
    if [x for x in os.listdir(os.path.dirname(out)) if x.endswith(".tmp")]:
        fail(".tmp left behind")
    at = h5_attrs(out)
    print({k: at[k] for k in ("complete", "stop_signal", "iterations", "last_iteration", "iterations_planned", "_rows")})
    if at["complete"] != 0 or at["stop_signal"] != "SIGTERM":
        fail("file not marked incomplete with the signal")
    if not (20 < at["iterations"] < 10000000) or at["_rows"] != at["iterations"] + at["warmup_iterations"]:
        fail("iterations do not match the timeline rows")
    if at["last_iteration"] != at["iterations"] - 1:
        fail("last_iteration is not the last measured iteration")
    if at["verification"] != "passed":
        fail("the iterations that ran do not verify: " + at["verification"])



# Open MPI's mpirun, on SIGINT or SIGTERM, sends the ranks SIGCONT, then SIGTERM after
# odls_base_sigkill_timeout seconds (default 1), then SIGKILL after as many again. desync's
# documented setting (docs/decks.md, "Stopping a run early") gives them time to write.
# 5 s here (the docs give 60 for real runs): two ranks of the quickstart write their file in about one.
PATIENT_OPENMPI = {"OMPI_MCA_odls_base_sigkill_timeout": "5"}


def case_launcher_signal(r, a, w, sig, patient):
    """SIGINT (Ctrl-C) or SIGTERM (a batch system) sent to the launcher, not the ranks. Hydra
    forwards it and waits; Open MPI's mpirun forwards SIGTERM late and kills soon after unless
    told to wait (patient). Patient, or under Hydra: the whole run up to the stop is written,
    marked incomplete, and OUT.partial is gone. Open MPI's default: at least the last flush
    survives, in OUT.partial or in a written OUT."""
    kind = launcher_kind(a.mpiexec)
    if kind == "other":
        print(f"SKIP: launcher {a.mpiexec} is neither Open MPI's nor MPICH's Hydra")
        sys.exit(SKIP)
    if patient and kind != "openmpi":
        print(f"SKIP: {kind} needs no setting to wait for the ranks; the plain case covers it")
        sys.exit(SKIP)
    env = dict(r.env, **(PATIENT_OPENMPI if patient and kind == "openmpi" else {}))
    out = os.path.join(w, "stopped.h5")
    # Two ranks, one per core: what the launcher does with the signal does not depend on how many.
    p = start_flushing_run(r, out, env, np=2)
    seen, flushed = wait_for_flushes(p, 2)
    t0 = time.monotonic()
    p.send_signal(sig)
    try:
        rest, _ = p.communicate(timeout=90)
    except subprocess.TimeoutExpired:
        p.kill()
        fail("the job did not end within 90 s of the launcher's signal")
    took = time.monotonic() - t0
    print((seen + rest)[-3000:])
    print(f"{kind}: exit {p.returncode} {took:.1f} s after {signal.Signals(sig).name} to the launcher")
    if [x for x in os.listdir(os.path.dirname(out)) if x.endswith(".tmp")]:
        print("note: the final write was cut short; OUT.<tag>.tmp left")
    whole = kind == "hydra" or patient
    if os.path.exists(out):
        at = h5_attrs(out)
        print("final:", {k: at.get(k) for k in ("complete", "stop_signal", "iterations", "verification")})
        if at["complete"] != 0 or at["stop_signal"] not in ("SIGINT", "SIGTERM"):
            fail("the file is not marked as stopped by the signal")
        if at["iterations"] < flushed:
            fail(f"the file holds {at['iterations']} measured iterations, fewer than flush 2's {flushed}")
        if at["verification"] != "passed":
            fail("what ran does not verify: " + at["verification"])
        if os.path.lexists(out + ".partial"):
            fail("OUT.partial left beside a written OUT")
    elif whole:
        fail(f"no {out}: the launcher ({kind}{', patient' if patient else ''}) should let the ranks write it")
    else:
        # Killed one second after the SIGTERM: possibly inside the final write (OUT.tmp left).
        check_partial(out, flushed, tmp_ok=True)


def mount_tmpfs(path, size):
    os.makedirs(path, exist_ok=True)
    p = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", path], capture_output=True, text=True)
    return p.returncode == 0, p.stderr.strip()


def start_short_run(r, a, np, out):
    """A run of 150 iterations without flushes, started in the background and returned once its
    measured loop reports progress (something can then happen to its file system or output
    name while it runs): the process and the stdout seen so far."""
    q = subprocess.Popen(r.cmd(np, "run", a.deck, "--set", "run.iterations=150", "--set", "run.warmup=0",
                               "--set", "run.progress_interval=0.2", "--set", "record.flush_seconds=0", "-o", out),
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=r.env)
    seen = ""
    while "iteration " not in seen:
        line = q.stdout.readline()
        if not line:
            fail("the run ended before it reported progress:\n" + seen + q.stderr.read())
        seen += line
    return q, seen


def case_full_disk(r, a, w, np):
    """The result does not fit the file system. Known before the run (the output estimate,
    docs/decks.md "Output size"): refused at once, exit 2, one message, nothing left. Filled up by
    someone else while the run runs: exit 4 at the end, one message, no file, no .tmp."""
    mnt = os.path.join(w, f"full{np}")
    ok, why = mount_tmpfs(mnt, "1m")
    if not ok:
        print(f"SKIP: cannot mount a small tmpfs here ({why})")
        sys.exit(SKIP)
    filler = os.path.join(mnt, "filler")
    try:
        out = os.path.join(mnt, "run.h5")
        p = r.run(np, "run", a.deck, "--set", f"run.iterations={int(80000 / np)}", "--set", "run.warmup=0",
                  "--set", "triad.size_per_rank=64", "--set", "run.progress_interval=0", "-o", out, timeout=300)
        print(p.stdout[-1500:], p.stderr[-3000:], sep="\n")
        print(f"too large from the start: exit {p.returncode} after {p.elapsed:.1f} s")
        if p.returncode != 2 or p.elapsed > a.refuse_within:
            fail(f"exit code {p.returncode} after {p.elapsed:.1f} s, expected 2 (refused before any work)")
        errs = desync_errors(p.stderr)
        if len(errs) != 1 or "free, the file needs at least" not in errs[0]:
            fail(f"expected one error line naming the room and the estimate, got {errs}")
        if os.listdir(mnt):
            fail(f"files left behind: {os.listdir(mnt)}")

        # The same run keeping 100 rows ([record] window): it fits, at the start and at the end (the
        # final write's room check counts the kept rows, as the estimate does).
        kept = os.path.join(mnt, "kept.h5")
        p = r.run(np, "run", a.deck, "--set", f"run.iterations={int(80000 / np)}", "--set", "run.warmup=0",
                  "--set", "triad.size_per_rank=64", "--set", "run.progress_interval=0", "--set", "record.window=[0, 100]",
                  "--set", "record.flush_seconds=0", "-o", kept, timeout=300)
        print(p.stdout[-800:], p.stderr[-1500:], sep="\n")
        if p.returncode != 0 or not os.path.exists(kept):
            fail(f"the windowed run: exit {p.returncode}, expected 0 and its file")
        os.unlink(kept)

        # Room at the start, none at the end: a filler takes the file system while the run runs.
        q, seen = start_short_run(r, a, np, out)
        st = os.statvfs(mnt)
        with open(filler, "wb") as f:
            f.write(b"x" * max(0, st.f_bavail * st.f_frsize - 8192))
        so, se = q.communicate(timeout=300)
        print((seen + so)[-1500:], se[-3000:], sep="\n")
        print(f"filled while running: exit {q.returncode}")
        if q.returncode != 4:
            fail(f"exit code {q.returncode}, expected 4 (output failed)")
        errs = desync_errors(se)
        if len(errs) != 1 or not ("No space left on device" in errs[0] or " free, the result needs about " in errs[0]):
            fail(f"expected one error line naming the full disk, got {errs}")
        left = [x for x in os.listdir(mnt) if x != "filler"]
        if left:
            fail(f"files left behind: {left}")
        if "output:" in so:
            fail("a summary claims an output file")
    finally:
        if os.path.exists(filler):
            os.unlink(filler)
        subprocess.run(["umount", mnt])


def case_bad_paths(r, a, w):
    """Bad output paths are refused before any work: exit 2, one line, no file created, quickly
    (the deck asks for a long run: doing any work would show)."""
    deck_copy = os.path.join(w, "deck.toml")
    shutil.copy(a.deck, deck_copy)
    existing = os.path.join(w, "exists.h5")
    open(existing, "w").write("not a result")
    dangling = os.path.join(w, "dangling.h5")
    os.symlink(os.path.join(w, "no", "such", "target.h5"), dangling)
    cases = [
        (dangling, "symbolic link to a missing file"),
        (os.path.join(w, "no", "such", "dir", "x.h5"), "does not exist"),
        (w, "is a directory"),
        (deck_copy, "is the deck itself"),
        (existing, "exists; pass --force"),
    ]
    ro = os.path.join(w, "ro")
    ok, why = mount_tmpfs(ro, "64k")
    if ok:
        subprocess.run(["mount", "-o", "remount,ro", ro])
        cases.append((os.path.join(ro, "x.h5"), "Read-only file system"))
    else:
        print("note: no read-only mount here:", why)
    try:
        for path, expect in cases:
            p = r.run(2, "run", deck_copy, "--set", "run.iterations=100000000", "-o", path, timeout=60)
            errs = desync_errors(p.stderr)
            print(f"{path}: exit {p.returncode} in {p.elapsed:.2f} s: {errs}")
            if p.returncode != 2:
                fail(f"{path}: exit {p.returncode}, expected 2")
            if len(errs) != 1 or expect not in errs[0] or "command line (-o " not in errs[0]:
                fail(f"{path}: expected one line with '{expect}', got {errs}")
            if "workload" in p.stdout:
                fail(f"{path}: the run started before the refusal")
            if p.elapsed > a.refuse_within:
                fail(f"{path}: refusal took {p.elapsed:.1f} s (mpiexec start included)")
        # Bad decks: refused by `run` as by `check`, before anything is read in full (the thread
        # level is chosen from the deck before MPI starts: a FIFO hung there, /dev/zero grew
        # without bound, a 3 GiB file was read whole on every rank).
        fifo = os.path.join(w, "fifo.toml")
        os.mkfifo(fifo)
        huge = os.path.join(w, "huge.toml")
        with open(huge, "wb") as fh:
            fh.truncate(3 << 30)  # sparse: no room taken
        for deck, expect in ((fifo, "not a regular file"), ("/dev/zero", "not a regular file"), (huge, "larger than 1 MiB")):
            p = r.run(2, "run", deck, "-o", os.path.join(w, "bad_deck.h5"), timeout=60)
            errs = desync_errors(p.stderr)
            print(f"deck {deck}: exit {p.returncode} in {p.elapsed:.2f} s: {errs}")
            if p.returncode != 2 or len(errs) != 1 or expect not in errs[0]:
                fail(f"deck {deck}: expected exit 2 and one line with '{expect}', got {p.returncode} {errs}")
            if p.elapsed > a.refuse_within:
                fail(f"deck {deck}: refusal took {p.elapsed:.1f} s (mpiexec start included)")
        os.remove(huge)
        if open(existing).read() != "not a result":
            fail("the existing file was touched")
        if not os.path.islink(dangling):
            fail("the dangling link was replaced without --force")
        if [x for x in os.listdir(w) if x.endswith(".tmp") or x.endswith(".probe")] or os.path.exists(os.path.join(w, "deck.h5")):
            fail("a file was left")
        # --force replaces an existing file.
        p = r.run(2, "run", deck_copy, "--set", "run.iterations=20", "-o", existing, "--force")
        if p.returncode != 0 or h5_attrs(existing)["verification"] != "passed":
            fail(f"--force did not replace the file: {p.returncode} {p.stderr[-500:]}")
    finally:
        if ok:
            subprocess.run(["umount", ro])


def case_same_output(r, a, w):
    """Two runs to one file. A file that appears under the output name while a run runs (another
    run finished first) is not replaced without --force: exit 4, one message naming where this
    run's complete result is (its temporary file, kept), the other file untouched. And a run's
    start touches no other run's temporary file (a stale FILE.tmp stays as it was)."""
    out = os.path.join(w, "same.h5")
    stale = out + ".tmp"  # what an older desync, or another run, may have there
    open(stale, "w").write("someone else's")
    q, seen = start_short_run(r, a, 2, out)
    open(out, "w").write("the other run's result")
    so, se = q.communicate(timeout=300)
    print((seen + so)[-1500:], se[-3000:], sep="\n")
    print(f"the output appeared while running: exit {q.returncode}")
    if q.returncode != 4:
        fail(f"exit code {q.returncode}, expected 4 (output failed)")
    if open(out).read() != "the other run's result":
        fail("the file that appeared during the run was replaced without --force")
    if open(stale).read() != "someone else's":
        fail("another run's temporary file was touched")
    kept = [os.path.join(w, x) for x in os.listdir(w) if x.startswith("same.h5.") and x.endswith(".tmp") and x != "same.h5.tmp"]
    errs = desync_errors(se)
    if len(kept) != 1 or len(errs) != 1 or "appeared during the run" not in errs[0] or kept[0] not in errs[0]:
        fail(f"expected one kept result file named in one error line, got files {kept} and errors {errs}")
    if h5_attrs(kept[0])["verification"] != "passed":
        fail("the kept file is not the complete result")
    # With --force the later run replaces the file, as asked.
    p = r.run(2, "run", a.deck, "--set", "run.iterations=40", "--set", "run.progress_interval=0", "-o", out, "--force")
    if p.returncode != 0 or h5_attrs(out)["verification"] != "passed":
        fail(f"--force did not replace the file: {p.returncode} {p.stderr[-500:]}")


def case_memory(r, a, w):
    """A run larger than the node is refused before allocating; check prints the estimate."""
    big = ["--set", "triad.size_per_rank=1099511627776"]
    p = r.run(2, "run", a.deck, *big, "-o", os.path.join(w, "big.h5"))
    errs = desync_errors(p.stderr)
    print(p.returncode, errs)
    if p.returncode != 2 or len(errs) != 1 or "needs about" not in errs[0] or "arrays 24 TiB" not in errs[0] \
            or "[triad] size_per_rank" not in errs[0]:
        fail(f"expected a one-line memory refusal, got {p.returncode} {errs}")
    if os.path.exists(os.path.join(w, "big.h5")):
        fail("a file was created")
    c = subprocess.run([a.desync, "check", a.deck, "--ranks", "4"], capture_output=True, text=True, env=r.env)
    if c.returncode != 0 or "# memory estimate on 4 rank(s):" not in c.stdout:
        fail(f"check prints no memory estimate: {c.stdout[:400]}")
    # The deck too large for this machine: valid (it may be meant for larger nodes), said once.
    c = subprocess.run([a.desync, "check", a.deck, *big, "--ranks", "1"], capture_output=True, text=True, env=r.env)
    said = [l for l in c.stderr.splitlines() if "more than this machine's" in l]
    if c.returncode != 0 or len(said) != 1 or "`desync run` here would refuse it" not in said[0]:
        fail(f"check of a deck larger than this machine: {c.returncode} {c.stderr[:400]}")
    lim = subprocess.run([a.desync, "check", a.deck, "--set", "run.memory_limit_gib=0.0001"], capture_output=True,
                         text=True, env=r.env)
    if lim.returncode != 2 or "memory_limit_gib" not in lim.stderr:
        fail(f"a deck memory limit is not enforced by check: {lim.returncode} {lim.stderr}")


def case_plan_json(r, a, w):
    """`plan --format json` is valid JSON on stdout with OMP_PROC_BIND unset (Kokkos would warn)."""
    import json
    env = dict(r.env)
    env.pop("OMP_PROC_BIND", None)
    env.pop("KOKKOS_DISABLE_WARNINGS", None)
    p = subprocess.run([a.desync, "plan", a.deck, "--ranks", "3", "--format", "json"], capture_output=True, text=True,
                       env=env)
    if p.returncode != 0:
        fail(f"plan failed: {p.stderr}")
    try:
        j = json.loads(p.stdout)
    except json.JSONDecodeError as e:
        fail(f"stdout is not JSON ({e}): {p.stdout[:300]!r}")
    if j["ranks_total"] != 3:
        fail("unexpected plan")
    # And a run on several ranks prints Kokkos' and desync's warnings once, not once per rank: a
    # key without effect ([noise] seed with kind "none") is said once, and the run goes on.
    p = subprocess.run(r.cmd(4, "run", a.run_deck, "--set", "run.iterations=20", "--set", "noise.seed=5",
                             "-o", os.path.join(w, "quiet.h5")),
                       capture_output=True, text=True, env=env)
    if p.returncode != 0:
        fail(f"run failed: {p.stderr}")
    lines = p.stdout.splitlines() + p.stderr.splitlines()
    dup = {l for l in lines if l.strip() and lines.count(l) > 1 and "warning" in l.lower()}
    if dup:
        fail(f"repeated per-rank warnings: {dup}")
    said = [l for l in lines if "[noise] seed = 5 has no effect" in l]
    if len(said) != 1 or not said[0].startswith("desync: warning: command line (--set noise.seed=5)"):
        fail(f"the key without effect is not said once, located at its --set: {said}")
    print("plan JSON parsed; run output has no per-rank duplicates:", len(lines), "lines")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("case", choices=["sigterm", "killed_rank", "kill_in_flush", "launcher_sigint", "launcher_sigterm",
                                     "launcher_sigint_patient", "launcher_sigterm_patient", "flush_between_iterations", "full_disk_np1", "full_disk_np4", "bad_paths", "same_output", "memory", "plan_json"])
    ap.add_argument("--desync", required=True)
    ap.add_argument("--mpiexec", required=True)
    ap.add_argument("--preflags", default="")
    ap.add_argument("--deck", required=True)
    ap.add_argument("--run-deck", default=None)
    ap.add_argument("--workdir", required=True)
    ap.add_argument("--refuse-within", type=float, default=15.0,
                    help="seconds a refusal may take, mpiexec start-up on a busy machine included")
    a = ap.parse_args()
    a.run_deck = a.run_deck or a.deck
    w = os.path.join(a.workdir, a.case)
    shutil.rmtree(w, ignore_errors=True)
    os.makedirs(w)
    r = Runner(a)
    if a.case == "sigterm":
        case_sigterm(r, a, w)
    elif a.case == "killed_rank":
        case_killed_rank(r, a, w)
    elif a.case == "kill_in_flush":
        case_kill_in_flush(r, a, w)
    elif a.case.startswith("launcher_sig"):
        sig = signal.SIGINT if a.case.startswith("launcher_sigint") else signal.SIGTERM
        case_launcher_signal(r, a, w, sig, a.case.endswith("_patient"))
    elif a.case == "flush_between_iterations":
        case_flush_between_iterations(r, a, w)
    elif a.case.startswith("full_disk"):
        case_full_disk(r, a, w, int(a.case[-1]))
    elif a.case == "bad_paths":
        case_bad_paths(r, a, w)
    elif a.case == "same_output":
        case_same_output(r, a, w)
    elif a.case == "memory":
        case_memory(r, a, w)
    elif a.case == "plan_json":
        case_plan_json(r, a, w)
    print("passed:", a.case)


if __name__ == "__main__":
    main()
