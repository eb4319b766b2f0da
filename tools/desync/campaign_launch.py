"""How a campaign point is launched here, and whether its result is already there.

Command of a point (local run, `desync-campaign run`):

    [ENV...] MPIEXEC -n P [mpiexec_flags] [$DESYNC_MPIEXEC_PREFLAGS] [binding flags]
             BINARY run DECK --set k=v ... -o OUTDIR/ID.h5 [--force]

A simulated point ([campaign] engine = "simulate"; docs/simulate.md) is one process, no mpiexec:

    [ENV...] BINARY simulate DECK --platform PLATFORM --ranks P [--pset placement.ranks_per_node=R]
             [--pset platform_sets...] --set k=v ... -o OUTDIR/ID.h5 [--force]

Binding flags (binding = "cores"; none with binding = "none"), R = ranks_per_node, T = threads:

    launcher   T = 1 or unset             T > 1                         T a word ("domain")
    openmpi    [--map-by ppr:R:node] --bind-to core   --map-by ppr:R:node:PE=T (or slot:PE=T)
                                                      --bind-to core                --bind-to numa
    mpich      [-ppn R] -bind-to core      [-ppn R] -bind-to core:T      [-ppn R] -bind-to numa

Environment: OMP_NUM_THREADS=T for an integer T; binding "cores": OMP_PLACES=cores,
OMP_PROC_BIND=close; binding "none": OMP_PROC_BIND=false; plus [env] and env.NAME keys.

Result state of OUTDIR/ID.h5 (the resume rule):
    missing     no file
    complete    a desync output file with root attribute complete = 1 (absent: 1), whose recorded
                ranks, --set overrides (/config/overrides) and deck (/config/deck_text) are the
                point's: skipped by `run`
    partial     complete = 0 (stopped by a signal, docs/decks.md "Stopping a run early"): redone
    stale       complete, but recorded for other ranks, overrides or deck text: redone
    unreadable  not a readable desync output file: redone
desync renames FILE.<tag>.tmp to FILE only once the file is written and read back, so a file under its
final name is never cut short; `complete` is the one mark of a run that did not finish.
"""

import os
import shlex
import shutil

from .errors import DesyncError
from .h5file import attr_int, incomplete_reason, open_output, read_text, root_attributes

PREFLAGS_ENV = "DESYNC_MPIEXEC_PREFLAGS"


def resolve_binary(campaign, override=None):
    """--binary, else $DESYNC_BIN, else [campaign] binary (relative to the campaign file when it
    holds a '/'), else `desync`; made absolute when found on the PATH."""
    binary = override or os.environ.get("DESYNC_BIN") or campaign.binary or "desync"
    if not override and not os.environ.get("DESYNC_BIN") and campaign.binary and "/" in binary \
            and not os.path.isabs(binary):
        binary = os.path.normpath(os.path.join(campaign.dir, binary))
    found = shutil.which(binary)
    return os.path.abspath(found) if found else binary


def mpiexec_flags(campaign):
    extra = [f for f in os.environ.get(PREFLAGS_ENV, "").split(";") if f]
    return list(campaign.mpiexec_flags) + extra


def binding_flags(campaign, point):
    if campaign.binding == "none":
        return []
    r, t = point.ranks_per_node, point.threads
    if campaign.launcher == "openmpi":
        if isinstance(t, str):
            return (["--map-by", "ppr:%d:node" % r] if r else []) + ["--bind-to", "numa"]
        if t and t > 1:
            return ["--map-by", ("ppr:%d:node:PE=%d" % (r, t)) if r else "slot:PE=%d" % t,
                    "--bind-to", "core"]
        return (["--map-by", "ppr:%d:node" % r] if r else []) + ["--bind-to", "core"]
    ppn = ["-ppn", str(r)] if r else []
    if isinstance(t, str):
        return ppn + ["-bind-to", "numa"]
    return ppn + ["-bind-to", "core:%d" % t if t and t > 1 else "core"]


def point_env(campaign, point):
    """The environment variables the point sets (added to the caller's environment)."""
    if campaign.engine == "simulate":  # one process; the modelled threads come from the deck
        return dict(point.env)
    env = {}
    if isinstance(point.threads, int):
        env["OMP_NUM_THREADS"] = str(point.threads)
    if campaign.binding == "cores":
        env["OMP_PLACES"] = "cores"
        env["OMP_PROC_BIND"] = "close"
    else:
        env["OMP_PROC_BIND"] = "false"
    env.update(point.env)
    return env


def desync_args(campaign, point, output, force=False):
    """BINARY's arguments after the binary: run DECK --set ... -o OUTPUT [--force]."""
    args = ["run", campaign.deck]
    for s in point.sets:
        args += ["--set", s]
    args += ["-o", output]
    if force:
        args.append("--force")
    return args


def simulate_args(campaign, point, output, force=False):
    """BINARY's arguments for a simulated point: simulate DECK --platform ... --ranks P ..."""
    args = ["simulate", campaign.deck, "--platform", campaign.platform, "--ranks", str(point.ranks)]
    if point.ranks_per_node:
        args += ["--pset", "placement.ranks_per_node=%d" % point.ranks_per_node]
    for s in campaign.platform_sets:
        args += ["--pset", s]
    return args + desync_args(campaign, point, output, force)[2:]


def launch_command(campaign, point, binary, mpiexec, output, force=False):
    if campaign.engine == "simulate":
        return [binary] + simulate_args(campaign, point, output, force)
    return [mpiexec, "-n", str(point.ranks)] + mpiexec_flags(campaign) \
        + binding_flags(campaign, point) + [binary] + desync_args(campaign, point, output, force)


def shell_line(argv, env=None, log=None):
    """The command as one shell line: VAR=value ... argv > log 2>&1."""
    text = " ".join("%s=%s" % (k, shlex.quote(v)) for k, v in (env or {}).items())
    text = (text + " " if text else "") + " ".join(shlex.quote(a) for a in argv)
    return text + (" > %s 2>&1" % shlex.quote(log) if log else "")


def deck_text(campaign):
    try:
        with open(campaign.deck, "rb") as fh:
            return fh.read().decode("utf-8", errors="replace")
    except OSError as exc:
        raise DesyncError("%s: cannot read the base deck %s: %s"
                          % (campaign.path, campaign.deck, exc.strerror or exc))


def result_state(path, point=None, deck=None):
    """(state, detail, verdict) of a point's result file; see the module docstring."""
    if not os.path.exists(path):
        return "missing", "", ""
    try:
        with open_output(path, note_incomplete=False) as f:
            attrs = root_attributes(f)
            overrides = read_text(f, "config/overrides", "") or ""
            recorded_deck = read_text(f, "config/deck_text", None)
            complete, ranks = attr_int(attrs, "complete", 1), attr_int(attrs, "ranks")
            partial = incomplete_reason(attrs) if complete != 1 else None
    except (DesyncError, OSError, KeyError) as exc:
        return "unreadable", str(exc), ""
    verdict = str(attrs.get("verification", ""))
    if complete != 1:
        return "partial", partial, verdict
    if point is not None:
        if (point.ranks if ranks is None else ranks) != point.ranks:
            return "stale", "recorded %s ranks, the point has %d" % (attrs.get("ranks"), point.ranks), verdict
        recorded = [line for line in str(overrides).splitlines() if line.strip()]
        if recorded != list(point.sets):
            return "stale", "recorded overrides %s, the point has %s" % (recorded, point.sets), verdict
    if deck is not None and recorded_deck is not None and recorded_deck != deck:
        return "stale", "the base deck changed since the run", verdict
    return "complete", "", verdict


EXIT_MEANING = {
    1: "runtime error",
    2: "deck or command-line error",
    3: "verification failed",
    4: "result file could not be written",
    5: "stopped early by a signal",
}


def exit_meaning(code):
    if code in EXIT_MEANING:
        return EXIT_MEANING[code]
    if code is not None and code > 128:
        return "killed by signal %d" % (code - 128)
    if code is not None and code < 0:
        return "killed by signal %d" % -code
    return "exit status %s" % code
