"""`desync-view concurrency FILE -o OUT.png`: ranks of each contention domain in a work phase over
time, one panel per domain (concurrency_plot.py)."""

from ..concurrency_plot import analyse, draw_concurrency
from ..formatting import rank_ranges
from ..h5file import open_output, root_attributes
from ..json_out import dump_json
from .options import add_window_args, bounded_int, finite_number, picture_path


def register(sub):
    p = sub.add_parser("concurrency", help="ranks of each contention domain in a work phase over time (PNG)")
    p.add_argument("file", metavar="FILE")
    p.add_argument("-o", "--output", type=picture_path, required=True, metavar="OUT.png")
    add_window_args(p)
    p.add_argument("--samples", type=bounded_int(1, 10**6), metavar="S",
                   help="instants (default: 20 per iteration, at least 1000, at most 20000)")
    p.add_argument("--saturation", type=finite_number(0, low_open=True), metavar="N_S", help="the domain's saturation point, drawn as a line")
    p.add_argument("--json", metavar="OUT.json", help="also write the series and per-domain numbers as JSON")
    p.set_defaults(func=run)


def run(args):
    with open_output(args.file) as f:
        result = analyse(f, args.ranks, args.iterations, args.include_warmup, args.samples)
        attrs = root_attributes(f)
    print(report(result, args.file, args.saturation))
    title = "concurrency per contention domain: %s, %s (ranks %s, work = %s)" % (
        attrs.get("workload", "?"), args.file, rank_ranges(result["ranks"]), "+".join(result["work_phases"]))
    fig = draw_concurrency(result, title, args.saturation)
    fig.savefig(args.output)
    print("wrote %s (%d domains x %d instants)" % (args.output, len(result["series"]), len(result["times"])))
    if args.json:
        out = {"samples": len(result["times"]), "work_phases": result["work_phases"],
               "saturation": args.saturation, "times_s": result["times"].tolist(),
               "domains": {str(d): dict(c, series=result["series"][d].tolist()) for d, c in result["domains"].items()}}
        with open(args.json, "w") as fh:
            dump_json(out, fh, indent=1)
        print("wrote %s" % args.json)
    return 0


def report(result, path, saturation=None):
    lines = ["concurrency in %s (ranks in %s at %d instants, iterations %s):"
             % (path, "+".join(result["work_phases"]), len(result["times"]), result["iteration_span"])]
    for d, c in result["domains"].items():
        lines.append("  domain %d (%s, %d ranks, %s cores): mean %.2f, min %d, max %d%s"
                     % (d, c["name"], c["ranks"], c["cores"] if c["cores"] else "?", c["mean"], c["min"], c["max"],
                        "; mean / N_s = %.2f" % (c["mean"] / saturation) if saturation else ""))
    return "\n".join(lines)
