"""`desync-campaign run CAMPAIGN.toml`: run the points that are not complete, here, one after the
other with mpiexec, one progress line per point (campaign_run.py: the rules; run_logged: one run
with its log)."""

import os
import shutil
import sys

from ..campaign_launch import (deck_text, exit_meaning, launch_command, point_env, resolve_binary, result_state,
                               shell_line)
from ..campaign_run import output_dir, run_logged, select
from ..errors import DesyncError
from ..json_out import dump_json
from .options import common


def register(sub):
    p = sub.add_parser("run", help="run the points that are not complete, here, with mpiexec")
    common(p, binary=True, only=True)
    p.add_argument("--mpiexec", metavar="MPIEXEC", help="the launcher (default: [campaign] mpiexec)")
    p.add_argument("--dry-run", action="store_true", help="print the commands, run nothing")
    p.add_argument("--force", action="store_true", help="run complete points again too")
    p.set_defaults(func=run)


def run(args, campaign):
    points = select(campaign.points(), args.only)
    outdir = output_dir(campaign, args.output_dir)
    binary = resolve_binary(campaign, args.binary)
    mpiexec = args.mpiexec or campaign.mpiexec
    deck = deck_text(campaign)
    if not args.dry_run:
        needed = [("desync binary", binary, "--binary, DESYNC_BIN or [campaign] binary")]
        if campaign.engine == "run":
            needed.append(("launcher", mpiexec, "--mpiexec or [campaign] mpiexec"))
        elif not os.path.isfile(campaign.platform):
            raise DesyncError("%s: [campaign] platform: no such file %s" % (campaign.path, campaign.platform))
        for what, prog, how in needed:
            if not shutil.which(prog):
                raise DesyncError("%s %r not found (not an executable, not on the PATH); give %s"
                                  % (what, prog, how))
        os.makedirs(outdir, exist_ok=True)
    n = len(points)
    failed, report = [], []
    counts = {"run": 0, "skipped": 0, "failed": 0}
    print("campaign %s: %d point(s), base deck %s, %sresults in %s"
          % (campaign.name, n, campaign.deck,
             "simulated on %s, " % campaign.platform if campaign.engine == "simulate" else "", outdir))
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
        code, seconds = run_logged(argv, dict(os.environ, **env_add), log, campaign.timeout)
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
            dump_json({"campaign": campaign.name, "output_dir": outdir, "counts": counts,
                       "points": report, "failed": [{"id": a, "reason": b} for a, b in failed]},
                      fh, indent=2)
    return 1 if failed else 0
