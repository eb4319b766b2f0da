"""`desync-campaign plot CAMPAIGN.toml`: the combined picture, a metric against a key or scaling
bars (campaign_plot.py), with every series printed."""

import os

from ..campaign import value_text
from ..campaign_plot import close, draw_campaign
from ..campaign_run import output_dir
from ..json_out import dump_json
from ..view_commands.options import bounded_int
from .options import common


def register(sub):
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
    p.add_argument("--dpi", type=bounded_int(10, 1200), default=150, help="resolution (default 150)")
    p.set_defaults(func=run)


def run(args, campaign):
    outdir = output_dir(campaign, args.output_dir)
    by = args.by.split(",") if args.by else None
    fig, result, y, default_name = draw_campaign(campaign, outdir, args.kind, args.y, args.x, by, args.where,
                                                 args.title)
    path = args.output or os.path.join(outdir, default_name)
    fig.savefig(path, dpi=args.dpi)
    close(fig)
    result["output"] = path
    if args.kind == "scaling":
        for grp in result["groups"]:
            print("%s:" % grp["label"])
            for e in grp["entries"]:
                print("  %s=%s  barrier-free %s  with barrier %s  gain %s%s" % (
                    result["x"], value_text(e["x"]), _num(e["barrier_free"]), _num(e["with_barrier"]),
                    "-" if e["gain"] is None else "%+.1f %%" % (100 * e["gain"]),
                    "" if e["desync_speedup"] is None else "  P_D %+.1f %%" % (100 * e["desync_speedup"])))
    else:
        for s in result["series"]:
            print("%s:" % s["label"])
            for p in s["points"]:
                print("  %s=%s  %s=%s  (%s)" % (result["x"], value_text(p["x"]), y, _num(p["y"]), p["run_id"]))
    for e in result["excluded"]:
        print("not drawn: %s (%s)" % (e["run_id"], e["why"]))
    print("wrote %s" % path)
    if args.json:
        with open(args.json, "w") as fh:
            dump_json(result, fh, indent=2)
    return 0


def _num(v):
    return "-" if v is None else "%.6g" % v
