"""`desync-view trace FILE -o OUT.json[.gz]`: Chrome Trace Event JSON for Perfetto
(chrome_trace.py)."""

from ..chrome_trace import export_trace
from .options import add_window_args


def register(sub):
    p = sub.add_parser("trace", help="export Chrome Trace Event JSON for Perfetto")
    p.add_argument("file", metavar="FILE")
    p.add_argument("-o", "--output", required=True, metavar="OUT.json[.gz]")
    add_window_args(p, stride=True)
    p.add_argument("--no-counters", action="store_true",
                   help="leave out the per-domain counter tracks (ranks computing at each instant)")
    p.set_defaults(func=run)


def run(args):
    r = export_trace(args.file, args.output, args.ranks, args.iterations, args.include_warmup, args.stride,
                     counters=not args.no_counters)
    print("wrote %s (%d events, %d ranks x %d iterations%s%s)"
          % (args.output, r["events"], r["ranks"], r["iterations"],
             "" if r["message_flows"] is None else ", %d message arrows" % r["message_flows"],
             ", counter tracks left out (%s)" % r["counters_left_out"]
             if r["counter_tracks"] is None and not args.no_counters else
             "" if r["counter_tracks"] is None else ", %d domain counter track%s" % (r["counter_tracks"], "" if r["counter_tracks"] == 1 else "s")))
    return 0
