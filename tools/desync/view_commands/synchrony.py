"""`desync-view synchrony FILE [-o OUT.png] [--json OUT.json]`: the ranks as coupled oscillators:
order parameter, synchronization entropy, phase spread and gradient over time (synchrony.py)."""

from ..formatting import rank_ranges
from ..h5file import open_output, root_attributes
from ..json_out import dump_json
from .options import add_window_args, bounded_int, picture_path

LABELS = {"order": "order parameter r", "entropy": "synchronization entropy H", "spread": "phase spread (iterations)",
          "gradient": "phase gradient (iterations/rank)"}


def register(sub):
    p = sub.add_parser("synchrony", help="order parameter, synchronization entropy, phase spread and gradient over time")
    p.add_argument("file", metavar="FILE")
    p.add_argument("-o", "--output", type=picture_path, metavar="OUT.png", help="draw the four series")
    add_window_args(p)
    p.add_argument("--samples", type=bounded_int(2, 10**6), metavar="S",
                   help="instants (default: 20 per iteration, at least 1000, at most 20000)")
    p.add_argument("--json", metavar="OUT.json", help="also write the series and the summary as JSON")
    p.set_defaults(func=run)


def run(args):
    from ..synchrony import analyse, draw_synchrony

    with open_output(args.file) as f:
        result = analyse(f, args.ranks, args.iterations, args.include_warmup, args.samples)
        attrs = root_attributes(f)
    print(report(result, args.file))
    if args.output:
        title = "synchrony: %s, %s (ranks %s, iterations %s)" % (attrs.get("workload", "?"), args.file,
                                                                 rank_ranges(result["ranks"]), result["iteration_span"])
        draw_synchrony(result, title).savefig(args.output)
        print("wrote %s" % args.output)
    if args.json:
        out = {"ranks": rank_ranges(result["ranks"]), "iterations": result["iteration_span"], "bins": result["bins"],
               "summary": result["summary"], "times_s": result["times"].tolist(),
               "series": {k: v.tolist() for k, v in result["series"].items()}}
        with open(args.json, "w") as fh:
            dump_json(out, fh, indent=1)
        print("wrote %s" % args.json)
    return 0


def report(result, path):
    lines = ["synchrony in %s (ranks %s, iterations %s, %d instants; docs/method.md, section 35):"
             % (path, rank_ranges(result["ranks"]), result["iteration_span"], len(result["times"]))]
    if result["idle_ranks"]:
        lines.append("  left out: ranks %s (no iteration in the window)" % rank_ranges(result["idle_ranks"]))
    for name, s in result["summary"].items():
        lines.append("  %-34s mean %9.4f   min %9.4f at %.6f s   max %9.4f at %.6f s"
                     % (LABELS[name], s["mean"], s["min"], s["t_min_s"], s["max"], s["t_max_s"]))
    return "\n".join(lines)
