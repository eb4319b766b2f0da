"""The per-rank timeline picture (the `timeline` subcommand, view_commands/timeline.py).

One row per rank (first rank of the window at the top), wall time on the common time base on
the x axis, one bar per phase and iteration (phases by the rule of phases.py), in the colour and
with the legend label the file's /phases gives the phase (phase_classes.style; older files: the
colours the tools always used). Any format matplotlib's Agg backend writes (png, pdf, svg), by
suffix.

Options beyond the rank/iteration window:
  --time T0:T1   zoom by time: T0, T1 in seconds after the first event of the rank/iteration
                 window (common time base); the iterations overlapping [first + T0, first + T1]
                 are kept and the x axis shows exactly that span.
  --wavefronts   overlay the computational wavefront of chosen steps (--steps, default the 5
                 steps wavefronts.wavefronts reports): the measured line (F(r, k), r), F the
                 time rank r finished step k (its latest event), labelled with the fitted slope
                 in ranks/s and the correlation coefficient r (wavefronts.front); with more than
                 one contention domain also the fitted line of each domain, labelled the same.
  long windows   a window with more than LONG_RUN_ITERATIONS iterations, or whose median
                 iteration is narrower than MIN_ITERATION_PIXELS, cannot show its bars; the
                 timeline is drawn all the same and the idle heat map (heatmap.py) is written
                 beside it as OUT_heatmap.<suffix>, with a note (--no-heatmap: do not).
"""

import math

import numpy as np

from .errors import DesyncError
from .formatting import iteration_span, rank_ranges
from .phase_classes import FALLBACK, UNKNOWN
from .phase_classes import style as phase_style
from .phases import phase_intervals, valid
from .collectives import lanes
from .messages import in_window
from .timeline import Timeline, first_event, latest_event
from .wavefront_overlay import draw_wavefronts, wavefront_handles
from .window import Window

#: the look of the phases of files without /phases, by name (phase_classes.FALLBACK)
STYLE = {name: phase_style(name) for name in FALLBACK}
#: a phase nobody describes: grey (labelled by its name)
UNKNOWN_STYLE = dict(facecolor=UNKNOWN["colour"], edgecolor=UNKNOWN["edgecolor"], hatch=None)
BAR_HEIGHT = 0.8
RECTS_PER_PATH = 100_000  # compound paths are split so that Agg never gets a giant one


def style(phase, described=None):
    """The bar style {facecolor, edgecolor, hatch, label} of a phase: from the file's /phases
    (described: phase_classes.described), else phase_classes.FALLBACK, else grey, labelled by
    name (phase_classes.style)."""
    return phase_style(phase, described)


LONG_RUN_ITERATIONS = 60  # more iterations than this: bars too thin to read, heat map beside
MIN_ITERATION_PIXELS = 2.0  # a median iteration narrower than this (in pixels): the same


def too_long(tl, fig):
    """(whether the window is too long for readable bars, median pixels per iteration): more
    than LONG_RUN_ITERATIONS iterations or iterations narrower than MIN_ITERATION_PIXELS."""
    width = iteration_pixels(tl, fig)
    return len(tl.iterations) > LONG_RUN_ITERATIONS or width < MIN_ITERATION_PIXELS, width


def iteration_pixels(tl, fig):
    """Median width of an iteration (first event to the next iteration's first) in pixels."""
    b, e = phase_intervals(tl, iteration=True)["iteration"]
    ok = valid(b, e)
    if not ok.any():
        return float("inf")
    ax = fig.axes[0]
    x0, x1 = ax.get_xlim()
    return float(np.median((e - b)[ok])) * ax.get_window_extent().width / (x1 - x0)


def parse_time_window(text):
    """'T0:T1' (seconds, either side may be empty) -> (T0 or None, T1 or None)."""
    parts = text.split(":")
    if len(parts) != 2:
        raise ValueError("expected T0:T1 in seconds, got %r" % text)
    try:
        t0, t1 = (float(p) if p.strip() else None for p in parts)
    except ValueError:
        raise ValueError("expected numbers in T0:T1 (seconds), got %r" % text)
    if any(t is not None and not (math.isfinite(t) and t >= 0) for t in (t0, t1)):
        raise ValueError("T0 and T1 are seconds after the window's first event: finite numbers >= 0, got %r" % text)
    if t0 is not None and t1 is not None and t1 <= t0:
        raise ValueError("T1 must be larger than T0 in %r" % text)
    return t0, t1


def zoom_time(tl, window):
    """The iterations of tl overlapping [first + T0, first + T1] (first = the window's first
    event) and that span in absolute seconds, clipped to the events."""
    t0, t1 = window
    first = float(np.nanmin(tl.events))
    last = float(np.nanmax(tl.next_first if tl.next_first is not None else tl.events))
    a = first + (t0 if t0 is not None else 0.0)
    b = first + t1 if t1 is not None else last
    start = np.nanmin(first_event(tl.events), axis=0)
    ends = latest_event(tl.events) if tl.next_first is None else np.fmax(tl.next_first, latest_event(tl.events))
    end = np.nanmax(ends, axis=0)
    keep = (start <= b) & (end >= a)
    if not keep.any():
        raise DesyncError("empty window: --time %s:%s selects none of the window's %.6g s (its first event is at "
                          "%.6g s on the common time base; T0 and T1 count from there)"
                          % ("" if t0 is None else "%g" % t0, "" if t1 is None else "%g" % t1, last - first, first))
    window = Window(tl.ranks, tl.indices[keep], int(tl.indices[0] - tl.iterations[0]), tl.iterations[keep])
    sub = Timeline(tl.events[:, keep], tl.event_names, window, tl.warmup[keep], tl.hostnames,
                   None if tl.next_first is None else tl.next_first[:, keep])
    return sub, (max(a, first), min(b, last))


def rect_paths(x0, x1, y0, y1):
    """Compound matplotlib Paths holding one closed rectangle per interval (vectorised)."""
    from matplotlib.path import Path

    codes_one = [Path.MOVETO, Path.LINETO, Path.LINETO, Path.LINETO, Path.CLOSEPOLY]
    paths = []
    for s in range(0, len(x0), RECTS_PER_PATH):
        a, b, c, d = (v[s:s + RECTS_PER_PATH] for v in (x0, x1, y0, y1))
        verts = np.stack([np.stack([a, c], 1), np.stack([b, c], 1), np.stack([b, d], 1),
                          np.stack([a, d], 1), np.stack([a, c], 1)], axis=1).reshape(-1, 2)
        codes = np.tile(np.array(codes_one, dtype=Path.code_type), len(a))
        paths.append(Path(verts, codes))
    return paths


MAX_MESSAGE_LINES = 20000  # more would be a grey fog: every k-th is drawn, the legend says so


def draw_timeline(tl, attrs, title=None, dpi=150, msgs=None, colls=None, time_range=None, fronts=None, phases=None):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.collections import PathCollection
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    bars = timeline_bars(tl)
    t_min = min(x0.min() for x0, _, _ in bars.values())
    t_max = max(x1.max() for _, x1, _ in bars.values())
    pad = 0.01 * (t_max - t_min or 1e-6)
    if time_range is not None:  # exactly the span asked for
        t_min, t_max = time_range
        pad = 0.0
    n_rows = len(tl.ranks)
    fig, ax = plt.subplots(figsize=(13, min(14, 2.2 + 0.32 * n_rows)), dpi=dpi)
    ax.set_xlim(t_min - pad, t_max + pad)
    ax.set_ylim(n_rows - 0.5, -0.5)  # first rank of the window at the top
    label_ranks(ax, tl)
    labels = dict.fromkeys(style(p, phases)["label"] for p in bars)  # phases sharing a style: one entry
    first = {style(p, phases)["label"]: p for p in reversed(list(bars))}
    handles = [Patch(facecolor=style(first[lb], phases)["facecolor"], edgecolor=style(first[lb], phases)["edgecolor"],
                     hatch=style(first[lb], phases)["hatch"], label=lb) for lb in labels]
    if t_min < 0 < t_max:
        ax.axvline(0, color="black", lw=0.8, ls="--", zorder=3)
        handles.append(Line2D([], [], color="black", lw=0.8, ls="--", label="measured loop starts"))
    ax.set_xlabel("wall time on the common time base (s; 0 = start of measured iteration 0 "
                  "on rank 0)")
    ax.set_ylabel("MPI rank")
    ax.grid(axis="x", color="#dddddd", lw=0.5, zorder=0)
    if fronts is not None:
        handles += wavefront_handles(fronts)
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.005, 1.0), frameon=False,
              fontsize=9)
    ax.set_title(timeline_title(tl, attrs, title, time_range), fontsize=10)
    fig.tight_layout()
    # the layout is final: merge bars narrower than a pixel (keeps the picture, saves time)
    pixel = (t_max - t_min + 2 * pad) / max(1.0, ax.get_window_extent().width)
    for phase, (x0, x1, y) in bars.items():
        x0, x1, y = merge_subpixel(x0, x1, y, t_min - pad, pixel)
        st = style(phase, phases)
        ax.add_collection(PathCollection(
            rect_paths(x0, x1, y - BAR_HEIGHT / 2, y + BAR_HEIGHT / 2),
            facecolors=st["facecolor"], edgecolors=st["edgecolor"], linewidths=0,
            hatch=st["hatch"], zorder=2), autolim=False)
    if msgs is not None and len(msgs):
        draw_messages(ax, tl, msgs, t_min - pad, t_max + pad, handles)
    if colls is not None and len(colls):
        draw_collectives(ax, tl, colls, t_min - pad, t_max + pad, handles)
    if fronts is not None:
        draw_wavefronts(ax, tl, fronts)
    return fig


FAMILY_COLOURS = ["#6a3d9a", "#ff7f00", "#1f78b4", "#33a02c", "#b15928"]


def draw_collectives(ax, tl, colls, t0, t1, handles):
    """One segment per collective part, from its call to its completion, in its duplicate's
    lane of the rank's row, coloured by communicator family (mesh row, column, ...)."""
    from matplotlib.collections import LineCollection
    from matplotlib.lines import Line2D

    segs, fam = lanes(colls, tl.ranks, t0, t1, BAR_HEIGHT)
    if not len(segs):
        return
    colours = [FAMILY_COLOURS[int(k) % len(FAMILY_COLOURS)] for k in fam]
    ax.add_collection(LineCollection(segs, colors=colours, linewidths=1.6, alpha=0.9, zorder=5), autolim=False)
    for k in sorted(set(int(x) for x in fam)):
        name = colls.families[k] if k < len(colls.families) else str(k)
        handles.append(Line2D([], [], color=FAMILY_COLOURS[k % len(FAMILY_COLOURS)], lw=1.6,
                              label="%s comm, %d parts" % (name, colls.n_dup)))
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.005, 1.0), frameon=False, fontsize=9)


def draw_messages(ax, tl, msgs, t0, t1, handles):
    """One line per message from (sender, post time) to (receiver, completion time)."""
    from matplotlib.collections import LineCollection
    from matplotlib.lines import Line2D

    keep = np.flatnonzero(in_window(msgs, tl.ranks, t0, t1))
    if not len(keep):
        return
    step = max(1, int(np.ceil(len(keep) / MAX_MESSAGE_LINES)))
    keep = keep[::step]
    row = {int(r): i for i, r in enumerate(tl.ranks)}
    y0 = np.array([row[int(s)] for s in msgs.src[keep]], float)
    y1 = np.array([row[int(d)] for d in msgs.dst[keep]], float)
    segs = np.stack([np.stack([msgs.t_post[keep], y0], 1), np.stack([msgs.t_done[keep], y1], 1)], 1)
    ax.add_collection(LineCollection(segs, colors="#1f3b73", linewidths=0.6, alpha=0.55, zorder=4), autolim=False)
    label = "message" + ("" if step == 1 else " (every %d-th)" % step)
    handles.append(Line2D([], [], color="#1f3b73", lw=0.8, label=label))
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.005, 1.0), frameon=False, fontsize=9)


def timeline_bars(tl):
    """{phase: (begin, end, row)} of the intervals that happened, phases in the order of
    their end events (absent phases left out); row 0 = first rank."""
    n_rows = len(tl.ranks)
    row_of = np.broadcast_to(np.arange(n_rows, dtype=float)[:, None], tl.events.shape[:2])
    bars = {}
    for phase, (begin, end) in phase_intervals(tl).items():
        ok = valid(begin, end)
        if ok.any():
            bars[phase] = (begin[ok], end[ok], row_of[ok])
    if not bars:
        raise DesyncError("nothing to draw: no event happened in the window")
    return bars


def merge_subpixel(x0, x1, y, origin, pixel):
    """Replace the bars of a row that lie inside one pixel column by one bar of their total
    width, starting where the first one starts: Agg shades a pixel by the area covered, so
    the picture stays the same while 40 ranks x 50000 iterations shrink to a few bars per
    pixel column. Bars crossing a column boundary are kept as they are.
    """
    col0 = np.floor((x0 - origin) / pixel)
    inside = col0 == np.floor((x1 - origin) / pixel)
    if inside.sum() < 2:
        return x0, x1, y
    key = y[inside] * (np.max(col0) + 2) + col0[inside]
    order = np.lexsort((x0[inside], key))
    key, b, w = key[order], x0[inside][order], (x1 - x0)[inside][order]
    first = np.flatnonzero(np.r_[True, key[1:] != key[:-1]])
    mb = b[first]
    me = mb + np.add.reduceat(w, first)
    my = y[inside][order][first]
    return (np.concatenate([x0[~inside], mb]), np.concatenate([x1[~inside], me]),
            np.concatenate([y[~inside], my]))


def label_ranks(ax, tl):
    """One tick per rank if they fit, and a thin line where the host changes."""
    from matplotlib.ticker import FuncFormatter, MaxNLocator

    n_rows = len(tl.ranks)
    if n_rows <= 48:
        ax.set_yticks(range(n_rows))
        ax.set_yticklabels([str(r) for r in tl.ranks], fontsize=8)
    else:
        ax.yaxis.set_major_locator(MaxNLocator(nbins=24, integer=True))
        ax.yaxis.set_major_formatter(FuncFormatter(
            lambda y, _: str(tl.ranks[int(y)]) if 0 <= int(y) < n_rows else ""))
    hosts = [tl.hostnames[r] if r < len(tl.hostnames) else "?" for r in tl.ranks]
    for i in range(1, n_rows):
        if hosts[i] != hosts[i - 1]:
            ax.axhline(i - 0.5, color="#555555", lw=0.6, zorder=1)


def timeline_title(tl, attrs, title, time_range=None):
    facts = "%s, verification %s: ranks %s, iterations %s%s%s" % (
        attrs.get("workload", "?"), attrs.get("verification", "?"), rank_ranges(tl.ranks),
        iteration_span(tl), " (warm-up < 0 included)" if tl.warmup.any() else "",
        ", time %.6g..%.6g s" % time_range if time_range is not None else "")
    return "%s\n%s" % (title, facts) if title else "desync timeline: " + facts
