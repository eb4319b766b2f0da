"""Rank and iteration windows of a desync output file.

Iteration numbers are the deck's (`[[inject]] iteration = k`) and the C++ side's: measured
iteration 0 is the first iteration after warm-up, the measured ones are 0..M-1 and the W
warm-up iterations are -W..-1 (W = root attribute `warmup_iterations`). The rows of
/timeline/events are the recorded iterations in order; /timeline/iteration gives each row's
number (a run with `[record] window` / `stride` keeps a selection; files without the dataset keep
every iteration, k at row W + k). Windows take iteration numbers, not indices; a negative number
is a warm-up iteration, never a count from the end; numbers that were not recorded are skipped.
Rank windows are Python slices over range(P).
"""

import numpy as np

from .errors import DesyncError
from .h5file import attr_int, read, require_array


def parse_slice(text):
    """Parse 'A:B', 'A:B:S', ':B', 'A:' or a single index 'A' (-> A:A+1) into a slice.

    For Python indexing (ranks): a single -1 becomes -1: (the last element).
    """
    s = _parse_window(text)
    return slice(-1, None) if ":" not in text and s.start == -1 else s


def parse_iterations(text):
    """Parse an iteration window in deck numbering: like parse_slice, but the bounds are
    iteration numbers taken literally (a single K -> K:K+1, also for negative K)."""
    return _parse_window(text)


def _parse_window(text):
    parts = text.split(":")
    if len(parts) > 3:
        raise ValueError("expected A:B, A:B:S or A, got %r" % text)
    try:
        values = [int(p) if p.strip() else None for p in parts]
    except ValueError:
        raise ValueError("expected integers in A:B, got %r" % text)
    if len(values) == 1:
        (a,) = values
        if a is None:
            raise ValueError("empty window")
        return slice(a, a + 1)
    if len(values) == 3 and values[2] is not None and values[2] <= 0:
        raise ValueError("the step must be positive in %r" % text)
    return slice(*values)


def slice_text(s):
    """Inverse of parse_slice, for messages/provenance."""
    out = "%s:%s" % ("" if s.start is None else s.start, "" if s.stop is None else s.stop)
    return out + (":%d" % s.step if s.step not in (None, 1) else "")


class Window:
    """The selected ranks and iterations (sorted arrays).

    ranks: rank numbers; indices: positions along the recorded iteration axis (rows); iterations:
    the same iterations in deck numbering (default indices - warmup_iterations; warm-up < 0);
    next_recorded[n]: whether the row after indices[n] holds iteration iterations[n] + 1 (where
    an iteration's "next first event" can be read).
    """

    def __init__(self, ranks, indices, warmup_iterations=0, iterations=None, next_recorded=None):
        self.ranks = np.asarray(ranks, dtype=np.int64)
        self.indices = np.asarray(indices, dtype=np.int64)
        self.warmup_iterations = int(warmup_iterations)
        self.iterations = (self.indices - self.warmup_iterations if iterations is None
                           else np.asarray(iterations, dtype=np.int64))
        self.next_recorded = (np.ones(self.indices.shape, bool) if next_recorded is None
                              else np.asarray(next_recorded, dtype=bool))


def consecutive(window):
    """The window's iterations follow one another (no [record] stride or --stride gaps)."""
    it = np.asarray(window.iterations)
    return it.size < 2 or bool(np.all(np.diff(it) == 1))


def require_consecutive(window, what):
    """What sums time over iterations and measures spans (or samples instants) across them, the
    POP efficiencies and the concurrency, needs every iteration between the first and the last:
    over every s-th ([record] stride) it would count 1/s of the time in the whole span."""
    if not consecutive(window):
        it = np.asarray(window.iterations)
        raise DesyncError("%s needs consecutive iterations, but the file (or the selection) keeps one iteration in %d "
                          "([record] stride); use a run recorded with stride = 1"
                          % (what, int(np.min(np.diff(it)))))


def iteration_range_text(n_iter, warmup):
    """'measured iterations 0..17, warm-up -2..-1' for messages."""
    measured = n_iter - warmup
    text = "measured iterations 0..%d" % (measured - 1) if measured > 0 else "no measured iterations"
    return text + (", warm-up -%d..-1" % warmup if warmup > 0 else ", no warm-up")


def select_window(f, ranks=slice(None), iterations=slice(None), include_warmup=False, stride=1):
    """Select ranks (Python slice over range(P)) and iterations (deck numbering).

    iterations is a half-open slice of iteration numbers taken literally: 5:15 is measured
    iterations 5..14, -3:4 is warm-up -3..-1 plus measured 0..3 (negative numbers never count
    from the end). Bounds outside -W..M-1 are clipped. A missing start is 0, or -W with
    include_warmup; a missing stop is the end. stride keeps every stride-th iteration of the
    selection.
    """
    n_ranks, n_iter = events_dataset(f).shape[:2]
    warmup = warmup_count(f)
    recorded = recorded_iterations(f)
    rank_idx = np.arange(n_ranks)[ranks]
    last = int(recorded[-1]) + 1 if recorded.size else 0
    # A run stopped (or flushed) in its warm-up recorded its first rows of a longer one: they are
    # numbered from the planned -W, below -warmup_iterations.
    first = min(-warmup, int(recorded[0])) if recorded.size else -warmup
    numbers = iteration_numbers(iterations, first, last, include_warmup)
    numbers = numbers[np.isin(numbers, recorded)][::stride]
    if rank_idx.size == 0:
        raise DesyncError(
            "empty window: --ranks %s selects none of ranks 0..%d" % (slice_text(ranks), n_ranks - 1)
        )
    if numbers.size == 0:
        hint = ""
        if iterations.start is None and not include_warmup and warmup > 0:
            hint = "; add --include-warmup to see the warm-up iterations"
        raise DesyncError(
            "empty window: --iterations %s selects none of the recorded iterations (%s; "
            "numbered as in the deck)%s"
            % (slice_text(iterations), recorded_text(recorded, n_iter, warmup), hint)
        )
    rows = np.searchsorted(recorded, numbers)
    following = np.append(recorded[1:] == recorded[:-1] + 1, False)
    return Window(rank_idx, rows, warmup, numbers, following[rows])


def events_dataset(f):
    """/timeline/events, checked to be a [P, N, E] array of numbers (DesyncError naming the file)."""
    return require_array(f, "timeline/events", 3)


def recorded_iterations(f):
    """Deck number of every row of /timeline/events: /timeline/iteration, or (older files, every
    iteration kept) row - W."""
    n_iter = f["timeline/events"].shape[1]
    if "timeline/iteration" in f:
        numbers = np.asarray(read(f, "timeline/iteration", kind="number", ndim=1), dtype=np.int64)
        if numbers.shape == (n_iter,):
            return numbers
    return np.arange(n_iter, dtype=np.int64) - warmup_count(f)


def recorded_text(recorded, n_iter, warmup):
    """iteration_range_text, plus the selection a [record] window/stride made."""
    if recorded.size == n_iter and (recorded.size == 0 or recorded[-1] - recorded[0] + 1 == recorded.size):
        return iteration_range_text(n_iter, warmup)
    return ("recorded: %d of the iterations between %d and %d ([record] window/stride)"
            % (recorded.size, recorded[0], recorded[-1]))


def iteration_numbers(window, first, end, include_warmup=False):
    """Deck numbers in first..end-1 selected by the half-open slice window (literal bounds)."""
    step = window.step or 1
    if step <= 0:
        raise DesyncError("the step of an iteration window must be positive")
    start = window.start if window.start is not None else (first if include_warmup else 0)
    stop = window.stop if window.stop is not None else end
    if start < first:  # clip, keeping the phase of the step
        start += -(-(first - start) // step) * step
    return np.arange(start, min(stop, end), step, dtype=np.int64)


def warmup_count(f):
    """W: root attribute warmup_iterations (else the count of /timeline/warmup), within 0..N."""
    n_iter = f["timeline/events"].shape[1]
    if "warmup_iterations" in f.attrs:
        w = attr_int(f.attrs, "warmup_iterations")
    elif "timeline/warmup" in f:
        w = int(np.asarray(read(f, "timeline/warmup", kind="number", ndim=1), dtype=bool).sum())
    else:
        w = 0
    return min(max(w, 0), n_iter)
