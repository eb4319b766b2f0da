"""Phase intervals from the raw /timeline/events timestamps (docs/output.md, section /timeline).

The rule is the same for every workload: an event named "<phase>_end" ends phase <phase>, which
began at the latest earlier event of the same iteration that happened (events are stored in the
order they are taken); "iteration" spans from an iteration's first event to the next iteration's
first event (the last recorded iteration: to its latest event).
"""

import numpy as np

from .errors import DesyncError
from .timeline import first_event, latest_event

#: an event named "<phase>_end" ends phase <phase>
END_SUFFIX = "_end"


def event_phases(event_names):
    """[(phase, index of its end event)] in stored order: every event "<phase>_end" after the
    first event ends phase <phase> (docs/output.md, /timeline)."""
    out = []
    for e, name in enumerate(event_names):
        if e > 0 and len(name) > len(END_SUFFIX) and name.endswith(END_SUFFIX):
            phase = name[: -len(END_SUFFIX)]
            if phase not in (p for p, _ in out):
                out.append((phase, e))
    return out


def phase_intervals(tl, iteration=False):
    """{phase: (begin[p, n], end[p, n])} in the order of the phases' end events.

    The generic rule of docs/output.md: an event "<phase>_end" ends phase <phase>, which
    began at the latest earlier event of the same iteration that happened (events are stored
    in the order they are taken, so that is the nearest earlier non-NaN one). Intervals with a
    NaN end point did not happen. With iteration=True the dict also holds "iteration": from the
    iteration's first event to the next recorded iteration's first event (tl.next_first; the
    last recorded iteration: to its latest event).
    """
    phases = event_phases(tl.event_names)
    if not phases:
        raise DesyncError("no phase events (named <phase>_end) in /timeline/events "
                          "(event_names: %s)" % ", ".join(tl.event_names))
    # previous[..., e]: the latest event before e (stored order) that happened
    ev = tl.events
    previous = np.full(ev.shape, np.nan)
    last = np.full(ev.shape[:-1], np.nan)
    for e in range(ev.shape[-1]):
        previous[..., e] = last
        last = np.where(np.isfinite(ev[..., e]), ev[..., e], last)
    out = {phase: (previous[..., e], ev[..., e]) for phase, e in phases}
    if iteration:
        end = tl.next_first
        if end is None:  # a Timeline built by hand: the next iteration if it is in the window
            end = latest_event(ev)
            follows = np.flatnonzero((np.diff(tl.indices) == 1) & (np.diff(tl.iterations) == 1))
            end[:, follows] = first_event(ev[:, follows + 1])
        out["iteration"] = (first_event(ev), end)
    return out


def valid(begin, end):
    """Mask of intervals that happened: both ends finite and a positive duration."""
    with np.errstate(invalid="ignore"):
        return np.isfinite(begin) & np.isfinite(end) & (end > begin)


def time_in(intervals, phases, shape):
    """t[p, n]: the summed duration of `phases` (those in `intervals`, phase_intervals) per rank and
    iteration; NaN where none of them happened."""
    total = np.zeros(shape)
    seen = np.zeros(shape, bool)
    for phase in phases:
        if phase in intervals:
            b, e = intervals[phase]
            ok = valid(b, e)
            total += np.where(ok, e - b, 0.0)
            seen |= ok
    return np.where(seen, total, np.nan)


def phase_tracks(tl):
    """One track of non-overlapping phase intervals per rank (for trace viewers).

    The phases are those of phase_intervals (not "iteration", which spans them). Returns (phase
    names, [(phase code, begin ns, end ns, position in tl.iterations) per rank], number of
    clipped intervals); each track is sorted by begin time. Times are rounded to integer
    nanoseconds first; an interval is clipped to end where the next one on its track begins
    (a safety net: the phases are sequential), and intervals of zero or negative duration are
    dropped, so that the events of a track nest properly.
    """
    phases = phase_intervals(tl)
    order = list(phases)
    n_iter = len(tl.iterations)
    tracks, clipped = [], 0
    for i in range(len(tl.ranks)):
        begin = np.concatenate([phases[p][0][i] for p in order])
        end = np.concatenate([phases[p][1][i] for p in order])
        code = np.repeat(np.arange(len(order)), n_iter)
        iteration = np.tile(np.arange(n_iter), len(order))
        ok = valid(begin, end)
        b = np.round(begin[ok] * 1e9).astype(np.int64)
        e = np.round(end[ok] * 1e9).astype(np.int64)
        code, iteration = code[ok], iteration[ok]
        idx = np.lexsort((code, b))
        b, e, code, iteration = b[idx], e[idx], code[idx], iteration[idx]
        limit = np.append(b[1:], np.iinfo(np.int64).max)
        clipped += int((e > limit).sum())
        e = np.minimum(e, limit)
        keep = e > b
        tracks.append((code[keep], b[keep], e[keep], iteration[keep]))
    return order, tracks, clipped
