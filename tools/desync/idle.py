"""Idle time per rank and iteration: the time spent in the idle phases (waiting for messages, at
barriers and global reductions; phase_classes.idle_phases gives them for a file)."""

import numpy as np

from .errors import DesyncError
from .phase_classes import FALLBACK_IDLE
from .phases import phase_intervals, valid

IDLE_PHASES = FALLBACK_IDLE


def idle_times(tl, phases=IDLE_PHASES, named=False):
    """idle[p, n] (s) summed over the idle phases present, end[p, n] the latest idle phase end.
    named: the phases are the user's (--phases): each must be a phase of the file."""
    intervals = phase_intervals(tl)
    if named and [p for p in phases if p not in intervals]:
        raise DesyncError("--phases %s: %s not a phase of this file; allowed: %s"
                          % (",".join(phases), ", ".join(p for p in phases if p not in intervals), ", ".join(intervals)))
    present = [p for p in phases if p in intervals]
    if not present:
        raise DesyncError("no idle phase in this file (looked for %s; phases: %s)"
                          % (", ".join(phases) or "none: /phases names no phase of class wait or sync",
                             ", ".join(intervals) or "none"))
    idle = np.zeros(tl.events.shape[:2])
    end = np.full(tl.events.shape[:2], np.nan)
    for p in present:
        b, e = intervals[p]
        ok = valid(b, e)
        idle += np.where(ok, e - b, 0.0)
        end = np.where(ok, np.fmax(end, e), end)
    return idle, end, present
