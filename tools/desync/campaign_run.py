"""Running a campaign's points here (`desync-campaign run | check | list CAMPAIGN.toml`; the
subcommands, with their progress lines, are campaign_commands/run.py, check.py and list_points.py).

run: for each point (in campaign order) the result file OUTDIR/ID.h5 is checked
(campaign_launch.result_state). A complete file is skipped; a missing one is run; a partial,
stale or unreadable one is run again with --force. The run's standard output and error go to
OUTDIR/ID.log (run_logged); one progress line per point: "[3/8] ranks4_threads1 ... ok 2.3 s". A
point fails when the command exits non-zero (meaning from docs/decks.md, "Errors and exit codes")
or leaves no complete file, or (skipped or not) its file says verification failed; the others go
on. Exit status 0 when no point failed, 1 otherwise, with the list of failed points at the end.
--dry-run prints each point's state and command line and runs nothing.

check: `BINARY check DECK --set ... --ranks P` for every point (check_point; no mpiexec, nothing
written); exit status 1 when a point is refused, with desync's one-line error.

list: every point with its result file's state (point_rows).
"""

import os
import signal
import subprocess
import time

from .campaign_launch import deck_text, result_state, shell_line
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
    """The campaign's result folder: --output-dir, else [campaign] output_dir. A file there is an
    error (listed, every point would be "missing"; run would fail at the first point)."""
    path = override or campaign.output_dir
    if os.path.exists(path) and not os.path.isdir(path):
        given = "--output-dir %s" % path if override else "[campaign] output_dir = %r in %s" % (path, campaign.path)
        raise DesyncError("%s: a file, not a folder; the result files go into a folder (a missing "
                          "one is made by `run`)" % given)
    return path


def run_logged(argv, env, log_path, timeout):
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


def check_environment():
    """The environment of `desync check` runs: one thread, a quick Open MPI singleton."""
    env = dict(os.environ, OMP_NUM_THREADS=os.environ.get("OMP_NUM_THREADS", "1"))
    env.setdefault("OMPI_MCA_ess_singleton_isolated", "1")  # Open MPI: a quicker singleton
    env.setdefault("OMP_PROC_BIND", "false")
    return env


def check_point(campaign, p, binary, env):
    """`BINARY check DECK --set ... --ranks P` for point p: {"id", "valid", "exit_code", "error"
    (desync's first line of standard error when refused)}."""
    argv = [binary, "check", campaign.deck] + sum((["--set", s] for s in p.sets), []) \
        + ["--ranks", str(p.ranks)]
    try:
        proc = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                              stdin=subprocess.DEVNULL, universal_newlines=True)
    except OSError as exc:
        raise DesyncError("cannot run %s: %s (give --binary or DESYNC_BIN)" % (binary, exc))
    ok = proc.returncode == 0
    first = (proc.stderr.strip().splitlines() or [""])[0] if not ok else ""
    return {"id": p.id, "valid": ok, "exit_code": proc.returncode, "error": first}


def point_rows(campaign, outdir):
    """Every point of the campaign with the state of its result file in outdir: {"id", "ranks",
    "ranks_per_node", "threads", "state", "detail", "verdict", "sets", "env"}."""
    deck = deck_text(campaign)
    rows = []
    for p in campaign.points():
        state, detail, verdict = result_state(campaign.output_path(outdir, p), p, deck)
        rows.append({"id": p.id, "ranks": p.ranks, "ranks_per_node": p.ranks_per_node,
                     "threads": p.threads, "state": state, "detail": detail, "verdict": verdict,
                     "sets": p.sets, "env": p.env})
    return rows
