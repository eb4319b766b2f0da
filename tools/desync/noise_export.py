"""A noise file ([noise] kind = "file", docs/decks.md) from a run: each rank's excess work time per
iteration, for replaying the noise one machine showed on another run or in `desync simulate` (the
`noise` subcommand, view_commands/noise.py).

Per rank r and iteration n of the window, w(r, n) is the time in the work phases
(phase_classes.work_phases: not waiting, communicating or injected delay; intervals by the phase
rule of phases.py) and the noise

    x(r, n) = max(0, w(r, n) - median_n w(r, n))

the time the iteration's work took beyond the rank's typical one: the fixed-work-quantum view of
noise (FWQ; peers.md, "Delay and noise injection knobs"). It measures noise where the work per
iteration is fixed and nothing else slows it: a core-bound kernel (triad `divide`) with a barrier
after each iteration is such a probe; a memory-bound kernel also counts contention with the
other ranks of its domain. A (rank, iteration) without work events gives 0 (counted in the header).
Injected delays are not work and are not in it. A value above 10 s, the most a noise file holds,
is written as 10 (counted in the header).

The file: a comment header (source, window, rule, how to replay), then one line per iteration of
the window and one column per rank of the window, seconds.
"""

import numpy as np

from .errors import DesyncError
from .formatting import iteration_span, rank_ranges
from .h5file import root_attributes
from .phase_classes import work_phases
from .phases import phase_intervals, time_in
from .timeline import read_timeline
from .window import require_consecutive, select_window

MAX_SECONDS = 10.0  # the largest value a noise file may hold (config/noise_file.hpp)


def work_time(tl, work):
    """w[p, n]: the time in the work phases; NaN where an iteration has none."""
    intervals = phase_intervals(tl)
    present = [p for p in work if p in intervals]
    if not present:
        raise DesyncError("no work phase in this file (looked for %s; phases: %s)"
                          % (", ".join(work) or "none: /phases names no phase of class work", ", ".join(intervals) or "none"))
    return time_in(intervals, present, tl.events.shape[:2]), present


def noise_table(f, ranks=slice(None), iterations=slice(None), include_warmup=False):
    """{seconds[n, p] (lines x columns), missing, ranks, iterations, work_phases}."""
    window = select_window(f, ranks, iterations, include_warmup)
    require_consecutive(window, "noise")
    tl = read_timeline(f, window)
    w, present = work_time(tl, work_phases(f))
    with np.errstate(all="ignore"):
        median = np.nanmedian(np.where(np.isfinite(w).any(axis=1, keepdims=True), w, 0.0), axis=1, keepdims=True)
    x = np.maximum(w - median, 0.0)
    missing = int((~np.isfinite(x)).sum())
    x = np.where(np.isfinite(x), x, 0.0)
    # A noise file holds at most MAX_SECONDS per value (config/noise_file.hpp).
    capped = int((x > MAX_SECONDS).sum())
    x = np.minimum(x, MAX_SECONDS)
    return {"seconds": x.T, "missing": missing, "capped": capped, "ranks": tl.ranks, "iterations": tl.iterations,
            "work_phases": present, "span": iteration_span(tl)}


def one_line(text):
    """Text for a comment line of the file: no line breaks or control characters."""
    return " ".join("".join(c if c.isprintable() else " " for c in str(text)).split())


def write_noise_file(path, table, source, attrs):
    """The noise file at path; its line count."""
    x = table["seconds"]
    header = [
        "desync noise file ([noise] kind = \"file\", docs/decks.md): one line per iteration, one column per rank, seconds",
        "from %s: workload %s, ranks %s, iterations %s (deck numbering)" % (
            one_line(source), one_line(attrs.get("workload", "?")), rank_ranges(table["ranks"]), table["span"]),
        "x = max(0, w - median w) per rank, w = time in %s per iteration (tools/desync/noise_export.py)%s%s" % (
            one_line("+".join(table["work_phases"])),
            "; %d (rank, iteration) cell(s) without work events: 0" % table["missing"] if table["missing"] else "",
            "; %d cell(s) above %g s: %g" % (table["capped"], MAX_SECONDS, MAX_SECONDS) if table["capped"] else ""),
        "replay: [noise] kind = \"file\", file = \"<this file>\" on %d ranks; line 1 is the first iteration of the "
        "noise window" % x.shape[1],
        "%s" % "  ".join("rank%d" % r for r in table["ranks"]),
    ]
    with open(path, "w") as out:
        out.write("".join("# %s\n" % h for h in header))
        for row in x:
            out.write(" ".join("%.9g" % v for v in row) + "\n")
    return x.shape[0]
