"""Options several `desync-view` subcommands share: the rank, iteration and time windows
(window.py, timeline_plot.parse_time_window) as argparse types, and the rewriting of
'--iterations -3:4' that argparse would take for an option."""

import argparse

from ..timeline_plot import parse_time_window
from ..window import parse_iterations, parse_slice


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

