"""`desync-view otf2 FILE -o DIR`: an OTF2 archive for Vampir and other OTF2 readers
(otf2_export.py; issue 29, item 2)."""

from ..otf2_export import export_otf2
from .options import add_window_args


def register(sub):
    p = sub.add_parser("otf2", help="export an OTF2 archive (Vampir, otf2-print)")
    p.add_argument("file", metavar="FILE")
    p.add_argument("-o", "--output", required=True, metavar="DIR",
                   help="the archive's folder (its anchor file DIR/traces.otf2)")
    p.add_argument("--force", action="store_true", help="replace DIR if it exists")
    add_window_args(p, stride=True)
    p.set_defaults(func=run)


def run(args):
    r = export_otf2(args.file, args.output, args.ranks, args.iterations, args.include_warmup, args.stride, args.force)
    print("wrote %s/traces.otf2 (%d ranks x %d iterations, %d regions, %d phase enter/leave pairs%s; time origin %.9f s "
          "of the file's time base)"
          % (args.output.rstrip("/"), r["ranks"], r["iterations"], r["regions"], r["enter_leave"],
             "" if r["messages"] is None else ", %d messages" % r["messages"], r["time_origin_s"]))
    return 0
