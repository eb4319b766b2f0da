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
      [--time T0:T1] zooms by time (seconds after the window's first event); [--wavefronts
      [--steps K1,K2]] overlays the computational wavefront of those steps with its fitted slope
      (ranks/s) and r, per contention domain when there are several. A window of more than 60
      iterations (or iterations under 2 pixels) also gets the idle heat map written beside it
      as OUT_heatmap.png, with a note ([--no-heatmap] skips it).

  compare BASE OTHER
      The improvement of run OTHER over the paired run BASE from /metrics/total_time, both
      ways the communication-imbalance study words it: T_base / T_other - 1 and
      1 - T_other / T_base (and the Gflop/s ratio where both files have one); warns when the
      runs differ in workload, ranks or iterations (docs/method.md, section 3).

  idlewave FILE [--json OUT.json] [--phases P1,P2] [--threshold X] [--min-idle K] [--sigma S]
      Idle waves (docs/method.md section 20): the source (recorded [[inject]], else the
      longest recorded delay, else detected), and per direction the ranks reached, the speed
      in ranks/s (with r^2) and ranks/iteration, the decay of the idle period per rank,
      sigma_eff = v (T_exec + T_comm) / d_max, and the contention model
      v_model = sigma d / (t1 max(1, N/C) + T_comm) with sigma_eff_contention; "no idle
      wave" (exit status 0) when no idle period exceeds K lock-step iterations.

  wavefront FILE [--steps K1,K2] [--samples S] [--json OUT.json]
      Computational wavefronts (docs/method.md section 20): per step the fit of rank against
      the time the rank finished it (slope in ranks/s, r, amplitude), per contention domain
      too, the medians over all steps and the slowest rank of every step; and the concurrency:
      ranks of each contention domain in a work phase at S instants (mean, min, max).

  heatmap FILE -o OUT.png [--ranks A:B] [--iterations K0:K1] [--include-warmup]
      The idle heat map: rank x iteration, each rank's idle time (the waiting phases) minus
      the mean over the window, diverging colours; an idle wave is a diagonal stripe, readable
      for runs of any length (docs/method.md section 20).

  concurrency FILE -o OUT.png [--samples S] [--saturation N_S] [--json OUT.json]
      Ranks of each contention domain in a work phase over time, one step plot per domain,
      with the domain's ranks, cores and saturation point as lines (docs/method.md section 23).

  plan-plot PLAN.json -o OUT.png [--json OUT.json]
      From `desync plan DECK --ranks P --format json`: the spy density (log colour) with the
      bandwidth and rank boundaries, and the rank x rank communication volume with node
      boundaries; prints intra- and inter-node bytes per exchange.

  efficiency FILE [--json OUT.json]
      POP efficiencies (docs/method.md section 20): load balance mean(u)/max(u),
      communication efficiency max(u)/T and parallel efficiency, u = each rank's time in work
      phases, T = the window's span; its split into serialization efficiency
      max(u)/T_ideal and transfer efficiency T_ideal/T from an ideal-network replay.

  ppam FILE [-o PANELS.png] [--json OUT.json] [--ranks A:B] [--iterations K0:K1] [--k K]
      The PPAM'22 analysis set (docs/method.md section 21): idle time per rank and iteration
      z-scored per rank, per contention domain histograms of MPI and idle time, the rank x
      rank correlation matrix, the phase space (MPI time at n vs. n+1, lag-1 autocorrelation),
      PCA of the z-scored idle times and k-means (k = sockets) with silhouette scores and the
      match with the contention domains; -o draws the panels.

  overlap FILE [--pure PURE_FILE] [--json OUT.json]
      Overlap of communication and compute in the OSU and IMB-NBC definitions (docs/method.md
      section 21) from the post .. wait sections with work phases between them; t_pure from
      the paired run without overlap (--pure) or this file's sections without compute.

  saturation FILE -o OUT.png [--json OUT.json]
      Saturation curves of a saturation run (docs/method.md, "Saturation sweep"): per kernel
      b(N) for N = 1..W with the saturation point N_s = min{N : b(N) >= (1 - tolerance) max b}
      starred and the model min(N b1, b_S) dashed; prints b(N), N_s, b1, b_S (and the
      provenance's STREAM table when the file has one).

  trace FILE -o OUT.json[.gz] [--ranks A:B] [--iterations K0:K1] [--stride S] [--include-warmup]
      Chrome Trace Event JSON (opens in https://ui.perfetto.dev or chrome://tracing): one
      process per rank, one complete event per phase and iteration, times in microseconds,
      an instant event "iteration k" where each iteration begins, and with /messages a flow
      arrow per message from the send's post to the receive's completion.
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
from .overlap import cmd_overlap
from .ppam import cmd_ppam
from .wavefronts import cmd_wavefront
from .errors import DesyncError
from .summary import cmd_summary
from .timeline_plot import cmd_timeline, parse_time_window
from .concurrency_plot import cmd_concurrency
from .plan_plot import cmd_plan_plot
from .saturation_plot import cmd_saturation
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


WINDOW_OPTIONS = ("--ranks", "--iterations", "--time")


def time_window(text):
    try:
        return parse_time_window(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc))


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
    p.add_argument("--time", type=time_window, metavar="T0:T1",
                   help="zoom by time: seconds after the first event of the --ranks/--iterations window "
                        "(common time base); either side may be left open")
    p.add_argument("--wavefronts", action="store_true",
                   help="overlay the computational wavefront of --steps (default: 5 evenly spread) with its "
                        "fitted slope (ranks/s) and r, per contention domain when there are several")
    p.add_argument("--steps", metavar="K1,K2", help="iterations whose wavefront --wavefronts draws")
    p.add_argument("--no-heatmap", action="store_true",
                   help="a window too long for bars (> 60 iterations or iterations < 2 px) gets the idle heat "
                        "map written beside it as OUT_heatmap.png; this skips it")
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
    p.add_argument("--min-idle", type=float, default=None, metavar="K",
                   help="an idle period: excess above K lock-step iterations too (default: 0 if the file records "
                        "a delay, 2 if not); none above it: no idle wave")
    p.add_argument("--sigma", type=float, default=1.0,
                   help="pattern factor sigma of the contention model v = sigma d / (t1 max(1, N/C) + T_comm) (default 1)")
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
    p = sub.add_parser("ppam", help="PPAM'22 set: z-scored idle times, histograms per domain, correlation, "
                                    "phase space, PCA + k-means (panels PNG)")
    p.add_argument("file", metavar="FILE")
    p.add_argument("-o", "--output", metavar="PANELS.png", help="draw the panels")
    p.add_argument("--json", metavar="OUT.json", help="also write the result as JSON")
    add_window_args(p)
    p.add_argument("--k", type=int, metavar="K", help="clusters for k-means (default: sockets of the window's ranks, "
                                                      "else contention domains)")
    p.set_defaults(func=cmd_ppam)
    p = sub.add_parser("overlap", help="overlap of communication and compute (OSU and IMB-NBC definitions)")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--pure", metavar="PURE_FILE", help="paired run without overlap that gives t_pure")
    p.add_argument("--json", metavar="OUT.json", help="also write the result as JSON")
    p.set_defaults(func=cmd_overlap)
    p = sub.add_parser("concurrency", help="ranks of each contention domain in a work phase over time (PNG)")
    p.add_argument("file", metavar="FILE")
    p.add_argument("-o", "--output", required=True, metavar="OUT.png")
    add_window_args(p)
    p.add_argument("--samples", type=int, metavar="S",
                   help="instants (default: 20 per iteration, at least 1000, at most 20000)")
    p.add_argument("--saturation", type=float, metavar="N_S", help="the domain's saturation point, drawn as a line")
    p.add_argument("--json", metavar="OUT.json", help="also write the series and per-domain numbers as JSON")
    p.set_defaults(func=cmd_concurrency)
    p = sub.add_parser("plan-plot", help="spy density and rank x rank communication volume of `desync plan --format json`")
    p.add_argument("plan", metavar="PLAN.json")
    p.add_argument("-o", "--output", required=True, metavar="OUT.png")
    p.add_argument("--json", metavar="OUT.json", help="also write the volumes (intra/inter-node) as JSON")
    p.set_defaults(func=cmd_plan_plot)
    p = sub.add_parser("saturation", help="saturation curves b(N) per kernel with N_s and the min(N b1, b_S) model (PNG)")
    p.add_argument("file", metavar="FILE")
    p.add_argument("-o", "--output", required=True, metavar="OUT.png")
    p.add_argument("--json", metavar="OUT.json", help="also write b(N), N_s, b1, b_S and the model as JSON")
    p.set_defaults(func=cmd_saturation)
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
