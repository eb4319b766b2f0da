"""The desync_view command line (installed as `desync-view` by `pip install ./tools`;
tools/desync_view.py runs it in place): look at the HDF5 output of a desync run (layout:
docs/output.md).

Subcommands:

  summary FILE
      Text summary: run attributes (workload, verification verdict, ranks, iterations,
      versions, start time), topology in short form (hosts, threads per rank, placement
      warnings), the matrix share (rows, nonzeros; matrix workloads), the per-phase table over
      ranks (/metrics/phase_over_ranks with the argmin / argmax ranks), communication (partners
      per rank, bytes received per iteration), bandwidth metrics, every other scalar in
      /metrics with its units, and the total time.

  timeline FILE -o OUT.png [--ranks A:B] [--iterations K0:K1] [--include-warmup] [--title T]
      Per-rank timeline picture: one row per rank (first rank of the window at the top), wall
      time on the common time base on the x axis, one bar per phase and iteration. Phases
      follow the rule of docs/output.md for every workload (an event "<phase>_end" ends phase
      <phase>, which began at the latest earlier event of the iteration that happened) and are
      coloured by name, one colour family per kind: work phases of every workload green (compute,
      local, remote, sweep, fused, product, gemm, ...), injected time blue (delay, the stencil's
      latency, hatched), wait red, sync and global reductions orange, pack/post/unpack/transfers
      grey, broadcasts and reductions of the collective workloads blue and red tints; every
      phase of every workload has its colour (timeline_plot.STYLE). With /messages, a line per
      message; with /collectives, a segment per collective part in its duplicate's lane,
      coloured by communicator. Any format
      matplotlib's Agg backend writes (png, pdf, svg) by suffix.

  compare BASE OTHER
      The improvement of run OTHER over the paired run BASE from /metrics/total_time, both
      ways the communication-imbalance study words it: T_base / T_other - 1 and
      1 - T_other / T_base (and the Gflop/s ratio where both files have one); warns when the
      runs differ in workload, ranks or iterations (docs/method.md, section 3).

  idlewave FILE [--json OUT.json] [--phases P1,P2] [--threshold X]
      Idle waves (docs/method.md section 20): the source (recorded [[inject]], else the
      longest recorded delay, else detected), and per direction the ranks reached, the speed
      in ranks/s (with r^2) and ranks/iteration, the decay of the idle period per rank, and
      sigma_eff = v (T_exec + T_comm) / d_max.

  wavefront FILE [--steps K1,K2] [--samples S] [--json OUT.json]
      Computational wavefronts (docs/method.md section 20): per step the fit of rank against
      the time the rank finished it (slope in ranks/s, r, amplitude), per contention domain
      too, the medians over all steps and the slowest rank of every step; and the concurrency:
      ranks of each contention domain in a work phase at S instants (mean, min, max).

  heatmap FILE -o OUT.png [--ranks A:B] [--iterations K0:K1] [--include-warmup]
      The idle heat map: rank x iteration, each rank's idle time (the waiting phases) minus
      the mean over the window, diverging colours; an idle wave is a diagonal stripe, readable
      for runs of any length (docs/method.md section 20).

  efficiency FILE [--json OUT.json]
      POP efficiencies (docs/method.md section 20): load balance mean(u)/max(u),
      communication efficiency max(u)/T and parallel efficiency, u = each rank's time in work
      phases, T = the window's span.

  trace FILE -o OUT.json[.gz] [--ranks A:B] [--iterations K0:K1] [--stride S] [--include-warmup]
      Chrome Trace Event JSON (opens in https://ui.perfetto.dev or chrome://tracing): one
      process per rank, one complete event per phase and iteration, times in microseconds.
      A name ending in .gz is written gzip-compressed.

Windows are half-open, A:B (also A:B:S); a single number selects one rank/iteration.
--ranks is a Python slice over the ranks: --ranks 4:8 is ranks 4..7, --ranks -1 the last rank.
--iterations uses the deck's iteration numbers (as in `[[inject]] iteration = k` and the C++
side): measured iteration 0 is the first iteration after warm-up, the measured iterations are
0..M-1 and the W warm-up iterations are -W..-1 (W = root attribute warmup_iterations). So
--iterations 5:15 is measured iterations 5..14. Negative numbers are warm-up iterations, NOT
counts from the end: --iterations -3:4 is warm-up -3..-1 plus measured 0..3. Bounds outside
-W..M-1 are clipped. Without an explicit start the window begins at measured iteration 0;
--include-warmup makes it begin at -W instead (all warm-up iterations). The same numbers
appear in the trace's args.iteration and in titles and summaries.

Use an interpreter that has numpy, h5py and matplotlib (on Debian: /usr/bin/python3).
Exit status: 0 on success, 2 for usage errors (bad arguments, missing file, a file that is not
a desync output, an empty window), 1 if the output cannot be written.

This module is the command line only; the subcommands live beside it (summary.py,
timeline_plot.py, chrome_trace.py, compare.py; reading and the phase rule in h5file.py,
window.py, timeline.py, phases.py).
"""
import argparse
import os
import sys

from .chrome_trace import cmd_trace
from .compare import cmd_compare
from .efficiency import cmd_efficiency
from .heatmap import cmd_heatmap
from .idle_waves import cmd_idlewave
from .wavefronts import cmd_wavefront
from .errors import DesyncError
from .summary import cmd_summary
from .timeline_plot import cmd_timeline
from .window import parse_iterations, parse_slice


def rank_window(text):
    try:
        return parse_slice(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc))


def iteration_window(text):
    try:
        return parse_iterations(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc))


WINDOW_OPTIONS = ("--ranks", "--iterations")


def join_negative_values(argv):
    """'--iterations -3:4' -> '--iterations=-3:4': argparse takes '-3:4' for an option."""
    out, i = [], 0
    while i < len(argv):
        a = argv[i]
        if a in WINDOW_OPTIONS and i + 1 < len(argv) and argv[i + 1][:1] == "-" \
                and argv[i + 1][1:2].isdigit():
            out.append("%s=%s" % (a, argv[i + 1]))
            i += 2
        else:
            out.append(a)
            i += 1
    return out


def add_window_args(p, stride=False):
    p.add_argument("--ranks", type=rank_window, default=slice(None), metavar="A:B",
                   help="ranks to show, Python slice (half-open, negative counts from the "
                        "end: -1 is the last rank), default: all")
    p.add_argument("--iterations", type=iteration_window, default=slice(None), metavar="K0:K1",
                   help="iterations to show, half-open, in the deck's numbering: measured "
                        "iterations are 0..M-1, the W warm-up iterations -W..-1 (5:15 is "
                        "measured 5..14; a single K selects one). Negative numbers are warm-up "
                        "iterations, NOT counts from the end as in Python: -3:4 is warm-up "
                        "-3..-1 plus measured 0..3. Default: all measured iterations")
    p.add_argument("--include-warmup", action="store_true",
                   help="without an explicit start of --iterations, begin the window at "
                        "warm-up iteration -W instead of measured iteration 0")
    if stride:
        p.add_argument("--stride", type=int, default=1, metavar="S",
                       help="export every S-th iteration of the window (default 1)")


def prog():
    """The name the user typed: desync-view (installed) or desync_view.py (in place)."""
    name = os.path.basename(sys.argv[0]) if sys.argv and sys.argv[0] else ""
    return name if name in ("desync-view", "desync_view.py") else "desync_view.py"


def build_parser():
    parser = argparse.ArgumentParser(
        prog=prog(), description="Look at the HDF5 output of a desync run.",
        epilog="Iteration numbers are the deck's: measured iterations 0..M-1, warm-up iterations "
               "-W..-1 (negative numbers are warm-up iterations, not counts from the end). "
               "See the module docstring or docs/output.md for details.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    p = sub.add_parser("summary", help="print a text summary of a run")
    p.add_argument("file", metavar="FILE")
    p.set_defaults(func=cmd_summary)

    p = sub.add_parser("timeline", help="draw the per-rank timeline (PNG)")
    p.add_argument("file", metavar="FILE")
    p.add_argument("-o", "--output", required=True, metavar="OUT.png")
    add_window_args(p)
    p.add_argument("--title", help="title line (workload and verdict are always shown)")
    p.add_argument("--dpi", type=int, default=150, help="resolution (default 150)")
    p.add_argument("--no-messages", action="store_true",
                   help="do not draw message lines and collective parts (drawn when the file has /messages or /collectives)")
    p.set_defaults(func=cmd_timeline)

    p = sub.add_parser("compare", help="improvement of one run over a paired run")
    p.add_argument("base", metavar="BASE")
    p.add_argument("other", metavar="OTHER")
    p.set_defaults(func=cmd_compare)

    p = sub.add_parser("idlewave", help="idle waves: source, speed, decay, sigma_eff")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--json", metavar="OUT.json", help="also write the result as JSON")
    p.add_argument("--phases", metavar="P1,P2", help="idle phases (default: wait, sync, barrier, the global reductions)")
    p.add_argument("--threshold", type=float, default=0.2,
                   help="an idle period: excess over the rank's median above this share of the largest (default 0.2)")
    p.set_defaults(func=cmd_idlewave)
    p = sub.add_parser("wavefront", help="computational wavefronts (slope, r, amplitude) and concurrency per domain")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--steps", metavar="K1,K2", help="iterations to report (default: 5 evenly spread)")
    p.add_argument("--samples", type=int, default=200, help="instants for the concurrency count (default 200)")
    p.add_argument("--json", metavar="OUT.json", help="also write the result as JSON")
    p.set_defaults(func=cmd_wavefront)
    p = sub.add_parser("heatmap", help="rank x iteration picture of idle time minus its mean (PNG)")
    p.add_argument("file", metavar="FILE")
    p.add_argument("-o", "--output", required=True, metavar="OUT.png")
    add_window_args(p)
    p.set_defaults(func=cmd_heatmap)
    p = sub.add_parser("efficiency", help="POP efficiencies: load balance, communication and parallel efficiency")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--json", metavar="OUT.json", help="also write the result as JSON")
    p.set_defaults(func=cmd_efficiency)
    p = sub.add_parser("trace", help="export Chrome Trace Event JSON for Perfetto")
    p.add_argument("file", metavar="FILE")
    p.add_argument("-o", "--output", required=True, metavar="OUT.json[.gz]")
    add_window_args(p, stride=True)
    p.set_defaults(func=cmd_trace)
    return parser


def main(argv=None):
    parser = build_parser()
    args = parser.parse_args(join_negative_values(sys.argv[1:] if argv is None else list(argv)))
    try:
        return args.func(args)
    except DesyncError as exc:
        parser.exit(2, "%s: error: %s\n" % (parser.prog, exc))
    except OSError as exc:  # e.g. the output directory does not exist
        parser.exit(1, "%s: error: %s\n" % (parser.prog, exc))
