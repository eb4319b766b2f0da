"""`desync-campaign run | check | list CAMPAIGN.toml`: run a campaign's points here, one after the
other, resuming where it stopped; validate every point; list the points and their state.

run: for each point (in campaign order) the result file OUTDIR/ID.h5 is checked
(campaign_launch.result_state). A complete file is skipped; a missing one is run; a partial,
stale or unreadable one is run again with --force. The run's standard output and error go to
OUTDIR/ID.log; one progress line per point: "[3/8] ranks4_threads1 ... ok 2.3 s". A point
fails when the command exits non-zero (meaning from docs/decks.md, "Errors and exit codes") or
leaves no complete file, or (skipped or not) its file says verification failed; the others go
on. Exit status 0 when no point failed, 1 otherwise, with the list of failed points at the end.
--dry-run prints each point's state and command line and runs nothing.

check: `BINARY check DECK --set ... --ranks P` for every point (no mpiexec, nothing written);
exit status 1 when a point is refused, with desync's one-line error.
"""

import json
import os
import shutil
import signal
import subprocess
import sys
import time

from .campaign_launch import (deck_text, exit_meaning, launch_command, point_env, resolve_binary,
                              result_state, shell_line)
from .errors import DesyncError


def select(points, only):
    """The points named by --only ID,ID (all without it); unknown ids are an error."""
    if not only:
        return points
    wanted = [w for w in only.split(",") if w]
    ids = {p.id: p for p in points}
    missing = [w for w in wanted if w not in ids]
    if missing:
        names = list(ids)
        raise DesyncError("--only %s: no such point; points: %s%s" % (
            missing[0], ", ".join(names[:8]), ", ... (%d in all; `list` shows them)" % len(names)
            if len(names) > 8 else ""))
    return [p for p in points if p.id in wanted]


def output_dir(campaign, override=None):
    return override or campaign.output_dir


def _launch(argv, env, log_path, timeout):
    """Run argv with its output in log_path; (exit code, seconds). A timeout sends SIGTERM
    (desync writes what ran, marked incomplete) and SIGKILL 60 s later."""
    t0 = time.monotonic()
    with open(log_path, "w") as log:
        log.write("# %s\n" % shell_line(argv))
        log.flush()
        try:
            proc = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, env=env,
                                    stdin=subprocess.DEVNULL)
        except OSError as exc:
            log.write("cannot start %s: %s\n" % (argv[0], exc))
            return 127, time.monotonic() - t0
        try:
            code = proc.wait(timeout=timeout or None)
        except subprocess.TimeoutExpired:
            proc.send_signal(signal.SIGTERM)
            try:
                code = proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                proc.kill()
                code = proc.wait()
            log.write("# stopped after the campaign's timeout of %s s\n" % timeout)
        except KeyboardInterrupt:  # the terminal signalled mpiexec too: let the run write its file
            proc.wait()
            raise
    return code, time.monotonic() - t0


def cmd_run(args, campaign):
    points = select(campaign.points(), args.only)
    outdir = output_dir(campaign, args.output_dir)
    binary = resolve_binary(campaign, args.binary)
    mpiexec = args.mpiexec or campaign.mpiexec
    deck = deck_text(campaign)
    if not args.dry_run:
        for what, prog, how in (("desync binary", binary, "--binary, DESYNC_BIN or [campaign] binary"),
                                ("launcher", mpiexec, "--mpiexec or [campaign] mpiexec")):
            if not shutil.which(prog):
                raise DesyncError("%s %r not found (not an executable, not on the PATH); give %s"
                                  % (what, prog, how))
        os.makedirs(outdir, exist_ok=True)
    n = len(points)
    failed, report = [], []
    counts = {"run": 0, "skipped": 0, "failed": 0}
    print("campaign %s: %d point(s), base deck %s, results in %s"
          % (campaign.name, n, campaign.deck, outdir))
    for i, p in enumerate(points, 1):
        out = campaign.output_path(outdir, p)
        log = campaign.output_path(outdir, p, ".log")
        state, detail, verdict = result_state(out, p, deck)
        head = "[%d/%d] %s" % (i, n, p.id)
        redo = state != "missing"
        if state == "complete" and not args.force:
            counts["skipped"] += 1
            note = "skipped (complete, verification %s)" % (verdict or "?")
            if verdict.startswith("failed"):
                failed.append((p.id, "verification %s (earlier run; delete %s to redo)" % (verdict, out)))
            print("%s ... %s" % (head, note))
            report.append({"id": p.id, "state": state, "action": "skipped", "verdict": verdict})
            continue
        argv = launch_command(campaign, p, binary, mpiexec, out, force=redo)
        env_add = point_env(campaign, p)
        why = "" if state == "missing" else " (%s%s)" % (state, ": " + detail if detail else "")
        if args.dry_run:
            print("%s: %s%s" % (head, "run" if state == "missing" else "redo", why))
            print("    " + shell_line(argv, env_add, log))
            report.append({"id": p.id, "state": state, "action": "dry-run",
                           "command": argv, "env": env_add})
            continue
        if why:
            print("%s: redo%s" % (head, why))
        sys.stdout.write("%s ... " % head)
        sys.stdout.flush()
        code, seconds = _launch(argv, dict(os.environ, **env_add), log, campaign.timeout)
        counts["run"] += 1
        state, detail, verdict = result_state(out, p, deck)
        if code == 0 and state == "complete" and not verdict.startswith("failed"):
            print("ok %.1f s" % seconds)
            outcome = "ok"
        else:
            if code != 0:
                reason = "exit %d: %s" % (code, exit_meaning(code))
            elif state != "complete":
                reason = "exit 0 but the result file is %s" % state
            else:
                reason = "verification %s" % verdict
            print("FAILED %.1f s (%s; log %s)" % (seconds, reason, log))
            failed.append((p.id, reason))
            outcome = "failed"
        report.append({"id": p.id, "state": state, "action": "run", "outcome": outcome,
                       "exit_code": code, "seconds": seconds, "verdict": verdict})
    counts["failed"] = len(failed)
    if not args.dry_run:
        print("%d point(s): %d run, %d skipped, %d failed" % (n, counts["run"], counts["skipped"],
                                                             counts["failed"]))
    for pid, reason in failed:
        print("failed: %s: %s" % (pid, reason))
    if args.json:
        with open(args.json, "w") as fh:
            json.dump({"campaign": campaign.name, "output_dir": outdir, "counts": counts,
                       "points": report, "failed": [{"id": a, "reason": b} for a, b in failed]},
                      fh, indent=2)
    return 1 if failed else 0


def cmd_check(args, campaign):
    points = select(campaign.points(), args.only)
    binary = resolve_binary(campaign, args.binary)
    env = dict(os.environ, OMP_NUM_THREADS=os.environ.get("OMP_NUM_THREADS", "1"))
    env.setdefault("OMPI_MCA_ess_singleton_isolated", "1")  # Open MPI: a quicker singleton
    env.setdefault("OMP_PROC_BIND", "false")
    bad, results = [], []
    for i, p in enumerate(points, 1):
        argv = [binary, "check", campaign.deck] + sum((["--set", s] for s in p.sets), []) \
            + ["--ranks", str(p.ranks)]
        try:
            proc = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                                  stdin=subprocess.DEVNULL, universal_newlines=True)
        except OSError as exc:
            raise DesyncError("cannot run %s: %s (give --binary or DESYNC_BIN)" % (binary, exc))
        ok = proc.returncode == 0
        first = (proc.stderr.strip().splitlines() or [""])[0] if not ok else ""
        print("[%d/%d] %s ... %s" % (i, len(points), p.id, "valid" if ok else
                                     "REFUSED (exit %d): %s" % (proc.returncode, first)))
        if not ok:
            bad.append(p.id)
        results.append({"id": p.id, "valid": ok, "exit_code": proc.returncode, "error": first})
    print("%d point(s): %d valid, %d refused" % (len(points), len(points) - len(bad), len(bad)))
    if args.json:
        with open(args.json, "w") as fh:
            json.dump({"campaign": campaign.name, "points": results}, fh, indent=2)
    return 1 if bad else 0


def cmd_list(args, campaign):
    points = campaign.points()
    outdir = output_dir(campaign, args.output_dir)
    deck = deck_text(campaign)
    rows = []
    width = max(len(p.id) for p in points)
    for p in points:
        state, detail, verdict = result_state(campaign.output_path(outdir, p), p, deck)
        threads = p.threads if p.threads is not None else "-"
        print("%-*s  ranks %-5d ppn %-4s threads %-7s %-10s %s" % (
            width, p.id, p.ranks, p.ranks_per_node or "-", threads, state, verdict))
        rows.append({"id": p.id, "ranks": p.ranks, "ranks_per_node": p.ranks_per_node,
                     "threads": p.threads, "state": state, "detail": detail, "verdict": verdict,
                     "sets": p.sets, "env": p.env})
    print("%d point(s) in %s" % (len(points), outdir))
    if args.json:
        with open(args.json, "w") as fh:
            json.dump({"campaign": campaign.name, "points": rows}, fh, indent=2)
    return 0
