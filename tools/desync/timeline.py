"""The events of a window: reading /timeline/events and the first/latest event of iterations."""

import numpy as np

from .errors import DesyncError
from .h5file import read_attr, read_per_rank
from .window import events_dataset


class Timeline:
    """Events of a window: events[p, n, e] for window.ranks x window.iterations.

    iterations are deck numbers (warm-up < 0), indices the recorded positions, warmup[n] is
    True for warm-up iterations. next_first[p, n], if given, is where the iteration ends for
    the "iteration" phase: the first event of the next recorded iteration (inside the window or
    not), or the iteration's own latest event for the last recorded one.
    """

    def __init__(self, events, event_names, window, warmup, hostnames, next_first=None):
        self.events = events
        self.event_names = list(event_names)
        self.ranks = window.ranks
        self.indices = window.indices
        self.iterations = window.iterations
        self.warmup = np.asarray(warmup, dtype=bool)
        self.hostnames = hostnames
        self.next_first = next_first

    def event(self, name):
        """[p, n] timestamps of one event, or None if the workload does not record it."""
        if name not in self.event_names:
            return None
        return self.events[:, :, self.event_names.index(name)]


def read_timeline(f, window):
    """Read only the bounding box of the window (plus the recorded iteration after it, where
    the last one ends) from /timeline/events, then index it."""
    ds = events_dataset(f)
    names = read_attr(f, "timeline/events", "event_names")
    if names is None:
        raise DesyncError("/timeline/events has no 'event_names' attribute")
    if not isinstance(names, list) or len(names) != ds.shape[2]:
        raise DesyncError("/timeline/events: attribute event_names holds %s, expected %d event names"
                          % ("%d names" % len(names) if isinstance(names, list) else repr(names)[:40], ds.shape[2]))
    names = [str(n) for n in names]
    n_iter = ds.shape[1]
    r0, r1 = window.ranks.min(), window.ranks.max() + 1
    k0, k1 = window.indices.min(), min(window.indices.max() + 2, n_iter)
    box = np.asarray(ds[r0:r1, k0:k1, :], dtype=np.float64)
    rows = window.ranks - r0
    events = box[np.ix_(rows, window.indices - k0)]
    has_next = (window.indices + 1 < n_iter) & window.next_recorded
    next_first = latest_event(events)
    if has_next.any():
        following = box[np.ix_(rows, window.indices[has_next] + 1 - k0)]
        next_first[:, has_next] = first_event(following)
    hostnames = read_per_rank(f, "topology/hostname", "text")
    if hostnames is None:
        hostnames = ["?"] * ds.shape[0]
    return Timeline(events, names, window, window.iterations < 0, hostnames, next_first)


def first_event(events):
    """[p, n] first event that happened (in stored order) of each iteration; NaN if none."""
    happened = np.isfinite(events)
    idx = np.argmax(happened, axis=-1)[..., None]
    first = np.take_along_axis(events, idx, axis=-1)[..., 0]
    return np.where(happened.any(axis=-1), first, np.nan)


def latest_event(events):
    """[p, n] latest event time of each iteration; NaN if none happened."""
    happened = np.isfinite(events)
    return np.where(happened.any(axis=-1),
                    np.max(np.where(happened, events, -np.inf), axis=-1), np.nan)
