"""Options several `desync-view` subcommands share: the rank, iteration and time windows
(window.py, timeline_plot.parse_time_window) as argparse types, the checked numbers and lists
(a bad value is a usage error naming the option, exit status 2, never "a damaged file"), and the
rewriting of '--iterations -3:4' that argparse would take for an option."""

import argparse
import math
import os

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


def positive_int(text):
    """An integer >= 1 (--samples, --dpi, --k)."""
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError("%r: allowed: an integer >= 1" % text)
    if v < 1:
        raise argparse.ArgumentTypeError("%d: allowed: an integer >= 1" % v)
    return v


def bounded_int(low, high):
    """An argparse type: an integer in [low, high] (--samples, --dpi: a value beyond them would
    exhaust the memory or the picture size, and be blamed on the file)."""
    def parse(text):
        try:
            v = int(text)
        except ValueError:
            v = None
        if v is None or not low <= v <= high:
            raise argparse.ArgumentTypeError("%r: allowed: an integer in [%d, %d]" % (text, low, high))
        return v
    return parse


def name_list(text):
    """P1,P2,... (--phases): non-empty names."""
    names = [x.strip() for x in text.split(",")]
    if not names or not all(names):
        raise argparse.ArgumentTypeError("%r: allowed: phase names separated by commas (wait,sync)" % text)
    return names


def int_list(text):
    """K1,K2,... (--steps): deck iteration numbers, negative ones are warm-up iterations."""
    try:
        return [int(x) for x in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError("%r: allowed: iteration numbers separated by commas (5,40,-2)" % text)


def finite_number(low=None, high=None, low_open=False):
    """An argparse type: a finite number in [low, high] ((low, high] with low_open); nan and inf
    would pass float() and silently change what an analysis finds."""
    def parse(text):
        try:
            v = float(text)
        except ValueError:
            v = math.nan
        ok = math.isfinite(v) and (low is None or (v > low if low_open else v >= low)) and (high is None or v <= high)
        if not ok:
            lo = "" if low is None else ("> %g" % low if low_open else ">= %g" % low)
            hi = "" if high is None else "<= %g" % high
            raise argparse.ArgumentTypeError("%r: allowed: a finite number%s" % (text, " " + " and ".join(x for x in (lo, hi) if x)
                                                                                  if lo or hi else ""))
        return v
    return parse


def picture_path(text):
    """-o of a picture: a suffix matplotlib writes (png, pdf, svg, ...)."""
    from matplotlib.backend_bases import FigureCanvasBase
    kinds = FigureCanvasBase.get_supported_filetypes()
    suffix = os.path.splitext(text)[1][1:].lower()
    if suffix not in kinds:
        raise argparse.ArgumentTypeError("%r: a picture's name ends in one of .%s" % (text, ", .".join(sorted(kinds))))
    return text


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

