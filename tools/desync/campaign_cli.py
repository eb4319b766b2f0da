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
cannot be written, 2 for usage errors (bad arguments, a bad campaign file), 130 on Ctrl-C.
"""

import argparse
import os
import sys

from .campaign import load_campaign
from .campaign_collect import cmd_collect
from .campaign_plot import cmd_plot
from .campaign_run import cmd_check, cmd_list, cmd_run
from .campaign_slurm import cmd_slurm
from .errors import DesyncError


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

    def common(p, outdir=True, binary=False, only=False, json_out=True):
        p.add_argument("campaign", metavar="CAMPAIGN.toml")
        if outdir:
            p.add_argument("--output-dir", metavar="DIR",
                           help="where the result files are (default: [campaign] output_dir)")
        if binary:
            p.add_argument("--binary", metavar="DESYNC",
                           help="the desync binary (default: $DESYNC_BIN, [campaign] binary, desync)")
        if only:
            p.add_argument("--only", metavar="ID,ID", help="only these points")
        if json_out:
            p.add_argument("--json", metavar="OUT.json", help="also write the result as JSON")

    p = sub.add_parser("list", help="list the points and the state of their result files")
    common(p)
    p.set_defaults(func=cmd_list)

    p = sub.add_parser("check", help="validate every point with `desync check --ranks P`")
    common(p, outdir=False, binary=True, only=True)
    p.set_defaults(func=cmd_check)

    p = sub.add_parser("run", help="run the points that are not complete, here, with mpiexec")
    common(p, binary=True, only=True)
    p.add_argument("--mpiexec", metavar="MPIEXEC", help="the launcher (default: [campaign] mpiexec)")
    p.add_argument("--dry-run", action="store_true", help="print the commands, run nothing")
    p.add_argument("--force", action="store_true", help="run complete points again too")
    p.set_defaults(func=cmd_run)

    p = sub.add_parser("slurm", help="write a Slurm job-array script, one task per point")
    common(p, binary=True, only=True, json_out=False)
    p.add_argument("-o", "--output", metavar="SCRIPT", help="script path (default: OUTDIR/NAME.sbatch)")
    p.add_argument("--all", action="store_true", help="include complete points too")
    p.set_defaults(func=cmd_slurm)

    p = sub.add_parser("collect", help="one table (CSV, HDF5) with a row per point")
    common(p)
    p.add_argument("--csv", metavar="OUT.csv", help="CSV path (default: OUTDIR/NAME.csv)")
    p.add_argument("--h5", metavar="OUT.h5", help="also write the table as HDF5")
    p.set_defaults(func=cmd_collect)

    p = sub.add_parser("plot", help="combined plot: a metric against a key, or scaling bars")
    common(p)
    p.add_argument("--kind", choices=("lines", "scaling"), default="lines",
                   help="lines: y against x, one line per --by value; scaling: bars against ranks "
                        "with the with-barrier line and P_D (default lines)")
    p.add_argument("--y", metavar="METRIC",
                   help="a /metrics name (default: the first of gflops, bandwidth, total_time)")
    p.add_argument("--x", metavar="KEY", help="x axis: a campaign key or placement column")
    p.add_argument("--by", metavar="KEY,KEY", help="one line per value of these keys")
    p.add_argument("--where", action="append", metavar="KEY=VALUE", help="keep only these rows")
    p.add_argument("-o", "--output", metavar="OUT.png",
                   help="picture (default: OUTDIR/NAME_Y_vs_X.png, OUTDIR/NAME_scaling_Y.png)")
    p.add_argument("--title", help="title line")
    p.add_argument("--dpi", type=int, default=150, help="resolution (default 150)")
    p.set_defaults(func=cmd_plot)
    return parser


def main(argv=None):
    parser = build_parser()
    args = parser.parse_args(sys.argv[1:] if argv is None else list(argv))
    try:
        campaign = load_campaign(args.campaign)
        return args.func(args, campaign)
    except DesyncError as exc:
        parser.exit(2, "%s: error: %s\n" % (parser.prog, exc))
    except OSError as exc:
        parser.exit(1, "%s: error: %s\n" % (parser.prog, exc))
    except KeyboardInterrupt:
        parser.exit(130, "%s: interrupted; run again to resume\n" % parser.prog)
