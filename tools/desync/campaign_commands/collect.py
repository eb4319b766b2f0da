"""`desync-campaign collect CAMPAIGN.toml`: one table with a row per point (campaign_collect.py),
written as CSV (and HDF5, JSON), with a short table printed."""

import os

from ..campaign_collect import cell, collect, default_metric, write_csv, write_h5
from ..campaign_run import output_dir
from ..json_out import dump_json
from .options import common


def register(sub):
    p = sub.add_parser("collect", help="one table (CSV, HDF5) with a row per point")
    common(p)
    p.add_argument("--csv", metavar="OUT.csv", help="CSV path (default: OUTDIR/NAME.csv)")
    p.add_argument("--h5", metavar="OUT.h5", help="also write the table as HDF5")
    p.set_defaults(func=run)


def run(args, campaign):
    outdir = output_dir(campaign, args.output_dir)
    columns, rows, units = collect(campaign, outdir)
    print_table(columns, rows, units)
    csv_path = args.csv or os.path.join(outdir, campaign.name + ".csv")
    os.makedirs(os.path.dirname(os.path.abspath(csv_path)), exist_ok=True)
    write_csv(csv_path, columns, rows)
    print("wrote %s (%d rows, %d columns)" % (csv_path, len(rows), len(columns)))
    if args.h5:
        write_h5(args.h5, campaign, columns, rows, units)
        print("wrote %s" % args.h5)
    if args.json:
        with open(args.json, "w") as fh:
            dump_json({"campaign": campaign.name, "columns": columns, "units": units,
                       "rows": [{c: r[c] for c in columns} for r in rows]}, fh, indent=2)
    done = sum(1 for r in rows if r["status"] == "complete")
    if done < len(rows):
        print("%d of %d point(s) complete; the others: %s" % (
            done, len(rows), ", ".join("%s (%s)" % (r["run_id"], r["status"])
                                       for r in rows if r["status"] != "complete")))
    return 0


def _short(value):
    return "%.6g" % value if isinstance(value, float) else cell(value)


def print_table(columns, rows, units):
    metric = default_metric(columns, rows)
    head = ["run_id", "status", "verdict", "ranks", "nodes", "threads_per_rank"] + ([metric] if metric else [])
    widths = [max([len(h)] + [len(_short(r[h])) for r in rows]) for h in head]
    print("  ".join(h.ljust(w) for h, w in zip(head, widths)).rstrip())
    for r in rows:
        print("  ".join(_short(r[h]).ljust(w) for h, w in zip(head, widths)).rstrip())
    if metric:
        print("(%s in %s; every column in the CSV)" % (metric, units.get(metric, "?")))
