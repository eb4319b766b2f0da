"""The desync-campaign command line (installed as `desync-campaign` by `pip install ./tools`;
tools/desync_campaign.py runs it in place): sweeps of a base deck over axes ("campaigns",
file format in campaign.py and docs/method.md, "Campaigns").

    desync-campaign list    CAMPAIGN.toml [--output-dir D] [--json OUT]
        every point: id, ranks, ranks per node, threads, state of its result file
    desync-campaign check   CAMPAIGN.toml [--binary B] [--only ID,..] [--json OUT]
        `desync check DECK --set ... --ranks P` for every point
    desync-campaign run     CAMPAIGN.toml [--dry-run] [--force] [--only ID,..] [--binary B]
                            [--mpiexec M] [--output-dir D] [--json OUT]
        run the points that are not complete here with mpiexec (campaign_run.py)
    desync-campaign slurm   CAMPAIGN.toml [-o SCRIPT] [--all] [--only ID,..] [--binary B]
                            [--output-dir D]
        write a Slurm job-array script and its points table (campaign_slurm.py)
    desync-campaign collect CAMPAIGN.toml [--csv OUT.csv] [--h5 OUT.h5] [--json OUT] [--output-dir D]
        one table row per point: keys, placement, verdict, metrics (campaign_collect.py)
    desync-campaign plot    CAMPAIGN.toml [--kind lines|scaling] [--y METRIC] [--x KEY]
                            [--by KEY,..] [--where KEY=VALUE]... [-o OUT.png] [--json OUT]
        the combined picture (campaign_plot.py)

The binary is --binary, else $DESYNC_BIN, else [campaign] binary, else `desync` on the PATH;
extra mpiexec flags come from $DESYNC_MPIEXEC_PREFLAGS (";"-separated, as ci/env.sh sets it).
Exit status: 0 on success, 1 when a point failed (run) or was refused (check) or an output
cannot be written, 2 for usage errors (bad arguments, a bad campaign file), 130 on Ctrl-C. Errors
are one line on stderr, never a traceback, and a subcommand that fails removes the --json, --csv,
--h5 or -o file it wrote (guard.py). A point's result file that is not a readable desync output
(truncated, empty, another program's, a dataset missing or malformed) is a row of status
"unreadable" in collect's table, with one "warning: point ID: FILE: what is wrong" line on stderr.

This module only assembles the command line: each subcommand is a module of campaign_commands/
(list_points.py, check.py, run.py, slurm.py, collect.py, plot.py) that adds its sub-parser
(register) and prints its text (run).
"""

import argparse
import os
import sys

from .campaign import load_campaign
from .campaign_run import output_dir
from .campaign_commands import check, collect, list_points, plot, run, slurm
from .guard import run_guarded

#: the subcommands in the order `desync-campaign --help` lists them
COMMANDS = (list_points, check, run, slurm, collect, plot)


def prog():
    name = os.path.basename(sys.argv[0]) if sys.argv and sys.argv[0] else ""
    return name if name in ("desync-campaign", "desync_campaign.py") else "desync_campaign.py"


def build_parser():
    parser = argparse.ArgumentParser(
        prog=prog(), description="Sweep a desync deck over axes: run here, write a Slurm job "
                                 "array, collect one table, draw the combined plot.",
        epilog="Campaign file format: tools/desync/campaign.py or docs/method.md (Campaigns); "
               "examples in inputs/campaigns/.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for command in COMMANDS:
        command.register(sub)
    return parser


#: argparse destinations that name files a subcommand writes (removed when it fails, guard.py)
OUTPUT_ARGS = ("json", "csv", "h5", "output")


def result_files(args):
    """The campaign's result files that exist: the inputs of collect, list and plot, and files no
    output option may replace (collect --csv POINT.h5 would destroy that point's run). None when
    the campaign cannot be read: the command itself then says why."""
    try:
        campaign = load_campaign(args.campaign)
        outdir = output_dir(campaign, getattr(args, "output_dir", None))
        return [p for p in (campaign.output_path(outdir, pt) for pt in campaign.points()) if os.path.isfile(p)]
    except Exception:  # noqa: BLE001 -- reported by the guarded command
        return []


def main(argv=None):
    parser = build_parser()
    args = parser.parse_args(sys.argv[1:] if argv is None else list(argv))
    outputs = [getattr(args, k) for k in OUTPUT_ARGS if isinstance(getattr(args, k, None), str)]
    try:
        code = run_guarded(parser.prog, lambda a: a.func(a, load_campaign(a.campaign)), args, [args.campaign],
                           outputs, args.command, protected=result_files(args))
    except KeyboardInterrupt:
        parser.exit(130, "%s: interrupted; run again to resume\n" % parser.prog)
    return code
