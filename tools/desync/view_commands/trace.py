"""`desync-view trace FILE -o OUT.json[.gz]`: Chrome Trace Event JSON for Perfetto
(chrome_trace.py)."""

from ..chrome_trace import export_trace
from .options import add_window_args


def register(sub):
    p = sub.add_parser("trace", help="export Chrome Trace Event JSON for Perfetto")
    p.add_argument("file", metavar="FILE")
    p.add_argument("-o", "--output", required=True, metavar="OUT.json[.gz]")
    add_window_args(p, stride=True)
    p.set_defaults(func=run)


def run(args):
    r = export_trace(args.file, args.output, args.ranks, args.iterations, args.include_warmup, args.stride)
    print("wrote %s (%d events, %d ranks x %d iterations%s)"
          % (args.output, r["events"], r["ranks"], r["iterations"],
             "" if r["message_flows"] is None else ", %d message arrows" % r["message_flows"]))
    return 0
