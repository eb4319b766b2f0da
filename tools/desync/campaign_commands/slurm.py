"""`desync-campaign slurm CAMPAIGN.toml`: write a Slurm job-array script, one task per point, and
its points table (campaign_slurm.py)."""

import os

from ..campaign_launch import resolve_binary
from ..campaign_run import output_dir, select
from ..campaign_slurm import write_script
from .options import common


def register(sub):
    p = sub.add_parser("slurm", help="write a Slurm job-array script, one task per point")
    common(p, binary=True, only=True, json_out=False)
    p.add_argument("-o", "--output", metavar="SCRIPT", help="script path (default: OUTDIR/NAME.sbatch)")
    p.add_argument("--all", action="store_true", help="include complete points too")
    p.set_defaults(func=run)


def run(args, campaign):
    points = select(campaign.points(), args.only)
    outdir = os.path.abspath(output_dir(campaign, args.output_dir))
    binary = resolve_binary(campaign, args.binary)
    written = write_script(campaign, points, outdir, binary, args.all, args.output)
    if written is None:
        print("campaign %s: all %d point(s) are complete in %s; nothing to submit (--all writes "
              "them anyway)" % (campaign.name, len(points), outdir))
        return 0
    path, tsv, chosen = written
    print("campaign %s: %d of %d point(s) in the job array%s" % (
        campaign.name, len(chosen), len(points),
        " (the others are complete)" if len(chosen) < len(points) else ""))
    print("wrote %s and %s" % (path, tsv))
    print("submit with: sbatch %s" % path)
    print("then: desync-campaign collect %s --output-dir %s" % (campaign.path, outdir))
    return 0
