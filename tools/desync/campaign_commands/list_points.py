"""`desync-campaign list CAMPAIGN.toml`: every point with its id, ranks, ranks per node, threads
and the state of its result file (campaign_run.point_rows). The module is not called list.py, so
that it shadows no builtin where it is imported."""

from ..campaign_run import output_dir, point_rows
from ..json_out import dump_json
from .options import common


def register(sub):
    p = sub.add_parser("list", help="list the points and the state of their result files")
    common(p)
    p.set_defaults(func=run)


def run(args, campaign):
    outdir = output_dir(campaign, args.output_dir)
    rows = point_rows(campaign, outdir)
    width = max(len(r["id"]) for r in rows)
    for r in rows:
        threads = r["threads"] if r["threads"] is not None else "-"
        print("%-*s  ranks %-5d ppn %-4s threads %-7s %-10s %s" % (
            width, r["id"], r["ranks"], r["ranks_per_node"] or "-", threads, r["state"], r["verdict"]))
    print("%d point(s) in %s" % (len(rows), outdir))
    if args.json:
        with open(args.json, "w") as fh:
            dump_json({"campaign": campaign.name, "points": rows}, fh, indent=2)
    return 0
