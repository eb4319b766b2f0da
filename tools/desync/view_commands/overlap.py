"""`desync-view overlap FILE`: the overlap of communication and compute in the OSU and IMB-NBC
definitions (overlap.py)."""

from ..overlap import analyse
from ..json_out import dump_json


def register(sub):
    p = sub.add_parser("overlap", help="overlap of communication and compute (OSU and IMB-NBC definitions)")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--pure", metavar="PURE_FILE", help="paired run without overlap that gives t_pure")
    p.add_argument("--json", metavar="OUT.json", help="also write the result as JSON")
    p.set_defaults(func=run)


def run(args):
    result = analyse(args.file, args.pure)
    print(report(result, args.file))
    if args.json:
        with open(args.json, "w") as out:
            dump_json(result, out, indent=1)
        print("wrote %s" % args.json)
    return 0


def report(result, path):
    def row(name, s, fmt):
        return "  %-18s min %s (rank %d), mean %s, max %s (rank %d)" % (
            name, fmt(s["min"]), s["argmin_rank"], fmt(s["mean"]), fmt(s["max"]), s["argmax_rank"])

    pct = lambda x: "%.1f%%" % x  # noqa: E731
    ms = lambda x: "%.4g ms" % (x * 1e3)  # noqa: E731
    lines = ["overlap in %s: compute = %s between post and wait, %d overlapped sections; t_pure from %s"
             % (path, "+".join(result["compute_phases"]), result["overlapped_sections"], result["t_pure_source"])]
    lines += ["  note: " + n for n in result["notes"]]
    for key, name, fmt in (("t_overall_s", "t_overall", ms), ("t_compute_s", "t_compute", ms),
                           ("t_pure_s", "t_pure", ms), ("osu_percent", "overlap (OSU)", pct),
                           ("imb_nbc_percent", "overlap (IMB-NBC)", pct)):
        if result[key] is not None:
            lines.append(row(name, result[key], fmt))
    return "\n".join(lines)
