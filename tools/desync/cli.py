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
      drawn in the colour and with the legend label the file's /phases gives each phase
      (phase_classes.py; edges darker, class sync hatched); files written before /phases get the
      colours the tools always used: work phases of every workload green (compute, local, remote,
      sweep, fused, product, gemm, ...), injected delay blue, the stencil's latency light blue
      (hatched), wait red, sync and global reductions orange, pack/post/unpack/transfers grey,
      broadcasts and reductions of the collective workloads blue and red tints. With /messages, a line per
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
      in ranks/s (with r^2) and ranks/iteration, the decay of the idle period per rank (with
      the noise power: variance of the work + delay time per iteration),
      sigma_eff = v (T_exec + T_comm) / d_max, and the contention model
      v_model = sigma d / (t1 max(1, N/C) + T_comm) with sigma_eff_contention; "no idle
      wave" (exit status 0) when no idle period exceeds K lock-step iterations.

  wavefront FILE [--steps K1,K2] [--samples S] [--json OUT.json]
      Computational wavefronts (docs/method.md section 20): per step the fit of rank against
      the time the rank finished it (slope in ranks/s, r, amplitude), per contention domain
      too, the medians over all steps (the slopes with their interquartile range) and the
      slowest rank of every step; and the concurrency: ranks of each contention domain in a
      work phase at S instants (mean, min, max).

  heatmap FILE -o OUT.png [--ranks A:B] [--iterations K0:K1] [--include-warmup]
      The idle heat map: rank x iteration, each rank's idle time (the waiting phases) minus
      the mean over the window, diverging colours; an idle wave is a diagonal stripe, readable
      for runs of any length (docs/method.md section 20).

  concurrency FILE -o OUT.png [--samples S] [--saturation N_S] [--json OUT.json]
      Ranks of each contention domain in a work phase over time, one step plot per domain,
      with the domain's ranks, cores and saturation point as lines (docs/method.md section 23).

  synchrony FILE [-o OUT.png] [--samples S] [--json OUT.json]
      The ranks as coupled oscillators (phase = progress in iterations): Kuramoto order
      parameter, synchronization entropy, phase spread and phase gradient over time, their
      means and extremes (docs/method.md section 35).

  noise FILE -o NOISE.txt [--ranks A:B] [--iterations K0:K1] [--include-warmup]
      The run's noise as a noise file for [noise] kind = "file": per rank and iteration the
      work time beyond the rank's median (fixed-work-quantum noise), one line per iteration,
      one column per rank, to replay on another run or in `desync simulate`.

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

  otf2 FILE -o DIR [--force] [--ranks A:B] [--iterations K0:K1] [--stride S] [--include-warmup]
      An OTF2 archive (DIR/traces.otf2; Vampir, otf2-print): a location per rank under its
      node, the iteration and every phase as regions (MPI phases as MPI regions), /messages as
      MPI send and receive records, the run's description and /metrics as properties
      (docs/traces.md). Needs Debian's python3-otf2.
  import TRACE -o FILE [--iteration-region NAME | --iteration-call ROUTINE [--every K]] [--classes F] [--force]
      Another program's trace in desync's layout, so that every subcommand runs on it: an OTF2
      archive (Score-P, Scalasca) or a Chrome Trace Event JSON file (DisCostiC, kokkos-tools);
      time outside MPI is work, MPI calls are post, wait, sync or other MPI by routine, the
      iteration from a region, every K-th call, or detected; messages into /messages (docs/traces.md).

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
a desync output, an empty window) and for any bad input file (truncated, empty, a directory,
another program's HDF5, a dataset missing or of the wrong type or shape), 1 if the output cannot
be written. Every error is one line on stderr naming the file and what is wrong, without a
traceback, and a command that fails leaves none of its outputs behind (guard.py, h5file.py).

This module only assembles the command line: each subcommand is a module of view_commands/
(view_commands/summary.py, timeline.py, ..., trace.py) that adds its sub-parser (register) and
prints its text (run); the analyses they call (summary.py, timeline_plot.py, idle_waves.py, ...)
return data. Reading and the phase rule: h5file.py, window.py, timeline.py, phases.py,
phase_classes.py.
"""
import argparse
import os
import sys

from .guard import run_guarded
from .view_commands import (compare, concurrency, efficiency, heatmap, idlewave, noise, otf2, overlap, plan_plot,
                            ppam, saturation, summary, synchrony, timeline, trace, trace_import, wavefront)
from .view_commands.options import join_negative_values

#: the subcommands in the order `desync-view --help` lists them
COMMANDS = (summary, timeline, compare, idlewave, wavefront, heatmap, efficiency, ppam, overlap, concurrency,
            synchrony, noise, plan_plot, saturation, trace, otf2, trace_import)


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
    for command in COMMANDS:
        command.register(sub)
    return parser


#: argparse destinations that name input files / output files of the subcommands
INPUT_ARGS = ("file", "base", "other", "pure", "plan", "trace")
OUTPUT_ARGS = ("output", "json")


def inputs_of(args):
    return [getattr(args, k) for k in INPUT_ARGS if getattr(args, k, None)]


def outputs_of(args):
    """Every file the subcommand may write: -o, --json and what its module's extra_outputs adds."""
    paths = [getattr(args, k) for k in OUTPUT_ARGS if getattr(args, k, None)]
    extra = getattr(sys.modules.get(args.func.__module__), "extra_outputs", None)
    return paths + (list(extra(args)) if extra else [])


def main(argv=None):
    """Exit status: 0 on success; 2 for bad arguments and bad input files, 1 for an output that
    cannot be written; errors are one line on stderr and leave no output (guard.py)."""
    parser = build_parser()
    args = parser.parse_args(join_negative_values(sys.argv[1:] if argv is None else list(argv)))
    return run_guarded(parser.prog, args.func, args, inputs_of(args), outputs_of(args), args.command)
