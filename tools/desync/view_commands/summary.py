"""`desync-view summary FILE`: the text summary of a run (summary.py)."""

from ..h5file import open_output
from ..summary import summary_lines


def register(sub):
    p = sub.add_parser("summary", help="print a text summary of a run")
    p.add_argument("file", metavar="FILE")
    p.set_defaults(func=run)


def run(args):
    with open_output(args.file) as f:
        out = summary_lines(f, args.file)
    print("\n".join(out))
    return 0
