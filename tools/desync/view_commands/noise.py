"""`desync-view noise FILE -o NOISE.txt`: a run's per-rank, per-iteration excess work time as a noise
file for `[noise] kind = "file"` (noise_export.py)."""

from ..h5file import open_output, root_attributes
from ..noise_export import noise_table, write_noise_file
from .options import add_window_args


def register(sub):
    p = sub.add_parser("noise", help="the run's excess work time per rank and iteration as a noise file")
    p.add_argument("file", metavar="FILE")
    p.add_argument("-o", "--output", required=True, metavar="NOISE.txt")
    add_window_args(p)
    p.set_defaults(func=run)


def run(args):
    with open_output(args.file) as f:
        table = noise_table(f, args.ranks, args.iterations, args.include_warmup)
        attrs = root_attributes(f)
    lines = write_noise_file(args.output, table, args.file, attrs)
    x = table["seconds"]
    notes = ("; %d (rank, iteration) cell(s) without work events written as 0" % table["missing"] if table["missing"] else "") \
        + ("; %d cell(s) above 10 s written as 10" % table["capped"] if table["capped"] else "")
    print("wrote %s (%d lines x %d ranks; mean %.3g s, max %.3g s per iteration and rank%s)"
          % (args.output, lines, x.shape[1], float(x.mean()), float(x.max()), notes))
    return 0
