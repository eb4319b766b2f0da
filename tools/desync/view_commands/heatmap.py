"""`desync-view heatmap FILE -o OUT.png`: the idle heat map, rank x iteration (heatmap.py)."""

from ..h5file import open_output, root_attributes
from ..heatmap import draw_heatmap, idle_minus_mean
from ..phase_classes import idle_phases
from ..timeline import read_timeline
from ..window import select_window
from .options import add_window_args, picture_path


def register(sub):
    p = sub.add_parser("heatmap", help="rank x iteration picture of idle time minus its mean (PNG)")
    p.add_argument("file", metavar="FILE")
    p.add_argument("-o", "--output", type=picture_path, required=True, metavar="OUT.png")
    add_window_args(p)
    p.set_defaults(func=run)


def run(args):
    with open_output(args.file) as f:
        window = select_window(f, args.ranks, args.iterations, args.include_warmup)
        tl = read_timeline(f, window)
        attrs = root_attributes(f)
        idle = idle_phases(f)
    matrix, present = idle_minus_mean(tl, idle)
    title = "idle heat map: %s, %s (idle = %s)" % (attrs.get("workload", "?"), args.file, "+".join(present))
    fig = draw_heatmap(matrix, tl.ranks, tl.iterations, title)
    fig.savefig(args.output)
    print("wrote %s (%d ranks x %d iterations)" % (args.output, len(tl.ranks), len(tl.iterations)))
    return 0
