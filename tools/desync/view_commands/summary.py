"""`desync-view summary FILE [--json OUT.json] [--csv OUT.csv]`: the text summary of a run
(summary.py), and the same as one JSON record and a table of one row per rank
(summary_record.py)."""

import csv

from ..h5file import open_output
from ..json_out import dump_json
from ..summary import summary_lines
from ..summary_record import per_rank_table, summary_record


def register(sub):
    p = sub.add_parser("summary", help="print a text summary of a run (also as JSON and a per-rank CSV)")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--json", metavar="OUT.json",
                   help="also write the run as one JSON record: attributes, topology, phases over ranks "
                        "(min, median, max, mean, std, imbalance), every scalar metric with its units")
    p.add_argument("--csv", metavar="OUT.csv",
                   help="also write one row per rank: host, threads, each phase's median, bandwidth, "
                        "bytes received per iteration")
    p.set_defaults(func=run)


def extra_outputs(args):
    return [args.csv] if args.csv else []


def run(args):
    with open_output(args.file) as f:
        out = summary_lines(f, args.file)
        record = summary_record(f, args.file) if args.json else None
        table = per_rank_table(f) if args.csv else None
    print("\n".join(out))
    if record is not None:
        with open(args.json, "w") as fh:
            dump_json(record, fh, indent=1)
        print("wrote %s" % args.json)
    if table is not None:
        columns, rows = table
        with open(args.csv, "w", newline="") as fh:
            w = csv.writer(fh)
            w.writerow(columns)
            w.writerows(rows)
        print("wrote %s" % args.csv)
    return 0
