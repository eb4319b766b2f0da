"""`desync-view timeline FILE -o OUT.png`: the per-rank timeline picture (timeline_plot.py), with
the wavefront overlay (wavefront_overlay.py) and, for a window too long for bars, the idle heat
map beside it (heatmap.py)."""

import os

from ..collectives import read_collectives
from ..errors import DesyncError
from ..h5file import open_output, read, root_attributes
from ..heatmap import draw_heatmap, idle_minus_mean
from ..messages import read_messages
from ..phase_classes import described, idle_phases
from ..timeline import read_timeline
from ..timeline_plot import LONG_RUN_ITERATIONS, MIN_ITERATION_PIXELS, draw_timeline, too_long, zoom_time
from ..wavefront_overlay import window_fronts
from ..window import select_window
from .options import add_window_args, bounded_int, int_list, picture_path, time_window


def register(sub):
    p = sub.add_parser("timeline", help="draw the per-rank timeline (PNG)")
    p.add_argument("file", metavar="FILE")
    p.add_argument("-o", "--output", type=picture_path, required=True, metavar="OUT.png")
    add_window_args(p)
    p.add_argument("--title", help="title line (workload and verdict are always shown)")
    p.add_argument("--dpi", type=bounded_int(10, 1200), default=150, help="resolution (default 150)")
    p.add_argument("--no-messages", action="store_true",
                   help="do not draw message lines and collective parts (drawn when the file has /messages or /collectives)")
    p.add_argument("--time", type=time_window, metavar="T0:T1",
                   help="zoom by time: seconds after the first event of the --ranks/--iterations window "
                        "(common time base); either side may be left open")
    p.add_argument("--wavefronts", action="store_true",
                   help="overlay the computational wavefront of --steps (default: 5 evenly spread) with its "
                        "fitted slope (ranks/s) and r, per contention domain when there are several")
    p.add_argument("--steps", type=int_list, metavar="K1,K2", help="iterations whose wavefront --wavefronts draws")
    p.add_argument("--no-heatmap", action="store_true",
                   help="a window too long for bars (> 60 iterations or iterations < 2 px) gets the idle heat "
                        "map written beside it as OUT_heatmap.png; this skips it")
    p.set_defaults(func=run)


def run(args):
    with open_output(args.file) as f:
        window = select_window(f, args.ranks, args.iterations, args.include_warmup)
        tl = read_timeline(f, window)
        attrs = root_attributes(f)
        msgs = None if getattr(args, "no_messages", False) else read_messages(f)
        colls = None if getattr(args, "no_messages", False) else read_collectives(f)
        domains = read(f, "topology/contention_domain")
        phases = described(f)
        idle = idle_phases(f)
    time_range = None
    if getattr(args, "time", None) is not None:
        tl, time_range = zoom_time(tl, args.time)
    fronts = None
    if getattr(args, "wavefronts", False) or getattr(args, "steps", None):
        fronts = window_fronts(tl, domains, getattr(args, "steps", None))
    fig = draw_timeline(tl, attrs, args.title, args.dpi, msgs, colls, time_range, fronts, phases)
    fig.savefig(args.output, dpi=args.dpi)
    print("wrote %s (%d ranks x %d iterations)" % (args.output, len(tl.ranks), len(tl.iterations)))
    if fronts is not None:
        for text in fronts["labels"]:
            print("  wavefront " + text)
        if not fronts["labels"]:
            print("  no wavefront to draw: no chosen step has 3 ranks with different finish times")
    long, width = too_long(tl, fig)
    if long:
        long_run_note(args, tl, attrs, width, idle)
    return 0


def heatmap_path(output):
    """OUT_heatmap.png beside OUT.png: where a long window's idle heat map goes."""
    base, suffix = os.path.splitext(output)
    return "%s_heatmap%s" % (base, suffix or ".png")


def extra_outputs(args):
    """The files besides -o this command may write (cli.outputs_of: removed if it fails)."""
    return [] if getattr(args, "no_heatmap", False) else [heatmap_path(args.output)]


def long_run_note(args, tl, attrs, width, idle):
    """A window too long for bars: say so and write the idle heat map beside the timeline."""
    print("note: %d iterations, %.1f pixels per iteration: too many for readable bars (more than %d iterations "
          "or less than %g pixels each). Zoom with --iterations K0:K1 or --time T0:T1."
          % (len(tl.iterations), width, LONG_RUN_ITERATIONS, MIN_ITERATION_PIXELS))
    if getattr(args, "no_heatmap", False):
        return
    try:
        matrix, present = idle_minus_mean(tl, idle)
    except DesyncError as exc:
        print("note: no idle heat map either: %s" % exc)
        return
    out = heatmap_path(args.output)
    title = "idle heat map: %s, %s (idle = %s)" % (attrs.get("workload", "?"), args.file, "+".join(present))
    fig = draw_heatmap(matrix, tl.ranks, tl.iterations, title)
    fig.savefig(out)
    print("wrote %s (rank x iteration idle time minus its mean: an idle wave is a diagonal stripe; "
          "--no-heatmap to skip)" % out)
