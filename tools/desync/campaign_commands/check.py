"""`desync-campaign check CAMPAIGN.toml`: `desync check DECK --set ... --ranks P` for every point
(campaign_run.check_point); exit status 1 when a point is refused."""

from ..campaign_launch import resolve_binary
from ..campaign_run import check_environment, check_point, select
from ..json_out import dump_json
from .options import common


def register(sub):
    p = sub.add_parser("check", help="validate every point with `desync check --ranks P`")
    common(p, outdir=False, binary=True, only=True)
    p.set_defaults(func=run)


def run(args, campaign):
    points = select(campaign.points(), args.only)
    binary = resolve_binary(campaign, args.binary)
    env = check_environment()
    bad, results = [], []
    for i, p in enumerate(points, 1):
        r = check_point(campaign, p, binary, env)
        print("[%d/%d] %s ... %s" % (i, len(points), p.id, "valid" if r["valid"] else
                                     "REFUSED (exit %d): %s" % (r["exit_code"], r["error"])))
        if not r["valid"]:
            bad.append(p.id)
        results.append(r)
    print("%d point(s): %d valid, %d refused" % (len(points), len(points) - len(bad), len(bad)))
    if args.json:
        with open(args.json, "w") as fh:
            dump_json({"campaign": campaign.name, "points": results}, fh, indent=2)
    return 1 if bad else 0
