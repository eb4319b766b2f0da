"""Reading layer for desync HDF5 output files (the contract is docs/output.md).

Used by tools/desync_view.py. It opens and validates a file, decodes the fixed-length,
null-padded strings, selects a window of ranks x iterations and derives the phase intervals
from the raw /timeline/events timestamps by the rule of docs/output.md (section /timeline), the
same for every workload: an event named "<phase>_end" ends phase <phase>, which began at the
latest earlier event of the same iteration that happened (events are stored in the order they
are taken); "iteration" spans from an iteration's first event to the next iteration's first
event (the last recorded iteration: to its latest event).

Iteration numbers are the deck's (`[[inject]] iteration = k`) and the C++ side's: measured
iteration 0 is the first iteration after warm-up, the measured ones are 0..M-1 and the W
warm-up iterations are -W..-1 (W = root attribute `warmup_iterations`). Along the recorded
iteration axis of /timeline/events (warm-up first) iteration k sits at index W + k. Windows
take iteration numbers, not indices; a negative number is a warm-up iteration, never a count
from the end. Rank windows are Python slices over range(P).
"""

import os
import sys

import numpy as np

import h5py

FORMAT = "desync-output"
SUPPORTED_FORMAT_VERSION = 1

#: an event named "<phase>_end" ends phase <phase>
END_SUFFIX = "_end"


class DesyncError(Exception):
    """An error the user can fix (bad file, bad window): printed without a traceback."""


# --------------------------------------------------------------------------- decoding


def decode(value):
    """Decode a string value as h5py returns it: bytes, numpy bytes, str, or arrays of them.

    Fixed-length strings are null-padded; everything from the first NUL on is dropped.
    Arrays come back as (nested) lists of str.
    """
    if isinstance(value, np.ndarray):
        if value.ndim == 0:
            return decode(value[()])
        return [decode(v) for v in value]
    if isinstance(value, (list, tuple)):
        return [decode(v) for v in value]
    if isinstance(value, (bytes, bytearray, np.bytes_)):
        value = bytes(value).decode("utf-8", errors="replace")
    if isinstance(value, str):
        return value.split("\x00", 1)[0]
    return value


def to_scalar(value):
    """Python scalar from a numpy scalar or a one-element array (strings are decoded)."""
    if isinstance(value, np.ndarray) and value.size == 1:
        value = value.reshape(-1)[0]
    if isinstance(value, np.generic) and not isinstance(value, (np.bytes_, np.str_)):
        return value.item()
    return decode(value)


# --------------------------------------------------------------------------- file access


def open_output(path):
    """Open a desync output file read-only; raise DesyncError if it is not one."""
    if not os.path.exists(path):
        raise DesyncError("%s: no such file" % path)
    if os.path.isdir(path):
        raise DesyncError("%s: is a directory, not a desync output file" % path)
    try:
        is_hdf5 = h5py.is_hdf5(path)
    except OSError as exc:
        raise DesyncError("%s: cannot read: %s" % (path, exc))
    if not is_hdf5:
        raise DesyncError("%s: not an HDF5 file, so not a desync output file" % path)
    try:
        f = h5py.File(path, "r")
    except OSError as exc:
        raise DesyncError("%s: cannot open: %s" % (path, exc))
    fmt = to_scalar(f.attrs["format"]) if "format" in f.attrs else None
    if fmt != FORMAT:
        f.close()
        raise DesyncError(
            "%s: not a desync output file (root attribute 'format' is %r, expected %r)"
            % (path, fmt, FORMAT)
        )
    version = to_scalar(f.attrs.get("format_version", SUPPORTED_FORMAT_VERSION))
    if isinstance(version, int) and version > SUPPORTED_FORMAT_VERSION:
        sys.stderr.write("warning: %s has format_version %d, this tool knows version %d; "
                         "some numbers may be misread\n" % (path, version, SUPPORTED_FORMAT_VERSION))
    return f


def root_attributes(f):
    """All root attributes, decoded to Python scalars/str."""
    return {name: to_scalar(f.attrs[name]) for name in f.attrs}


def read(f, path, default=None):
    """A dataset decoded (scalar -> Python value, strings -> str), or default if absent."""
    if path not in f:
        return default
    ds = f[path]
    if ds.shape == ():
        return to_scalar(ds[()])
    data = ds[()]
    if data.dtype.kind in "SUO":
        return decode(data)
    return data


def read_attr(f, path, name, default=None):
    """An attribute of an object, decoded; default if the object or attribute is absent."""
    if path not in f or name not in f[path].attrs:
        return default
    value = f[path].attrs[name]
    if isinstance(value, np.ndarray) and value.ndim > 0:
        return decode(value) if value.dtype.kind in "SUO" else value
    return to_scalar(value)


def lines(text):
    """Non-empty lines of a multi-line string attribute/dataset (or of a list of strings)."""
    if isinstance(text, (list, tuple)):
        text = "\n".join(str(t) for t in text)
    return [line for line in (text or "").splitlines() if line.strip()]


# --------------------------------------------------------------------------- windows


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

    ranks: rank numbers; indices: positions along the recorded iteration axis; iterations:
    the same iterations in deck numbering (indices - warmup_iterations; warm-up < 0).
    """

    def __init__(self, ranks, indices, warmup_iterations=0):
        self.ranks = np.asarray(ranks, dtype=np.int64)
        self.indices = np.asarray(indices, dtype=np.int64)
        self.warmup_iterations = int(warmup_iterations)
        self.iterations = self.indices - self.warmup_iterations


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
    if "timeline/events" not in f:
        raise DesyncError("the file has no /timeline/events dataset")
    n_ranks, n_iter = f["timeline/events"].shape[:2]
    warmup = warmup_count(f)
    rank_idx = np.arange(n_ranks)[ranks]
    numbers = iteration_numbers(iterations, -warmup, n_iter - warmup, include_warmup)
    numbers = numbers[::stride]
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
            % (slice_text(iterations), iteration_range_text(n_iter, warmup), hint)
        )
    return Window(rank_idx, numbers + warmup, warmup)


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
        w = int(to_scalar(f.attrs["warmup_iterations"]))
    elif "timeline/warmup" in f:
        w = int(np.asarray(f["timeline/warmup"][()], dtype=bool).sum())
    else:
        w = 0
    return min(max(w, 0), n_iter)


# --------------------------------------------------------------------------- timeline


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
    ds = f["timeline/events"]
    names = read_attr(f, "timeline/events", "event_names")
    if names is None:
        raise DesyncError("/timeline/events has no 'event_names' attribute")
    names = [str(n) for n in names]
    n_iter = ds.shape[1]
    r0, r1 = window.ranks.min(), window.ranks.max() + 1
    k0, k1 = window.indices.min(), min(window.indices.max() + 2, n_iter)
    box = np.asarray(ds[r0:r1, k0:k1, :], dtype=np.float64)
    rows = window.ranks - r0
    events = box[np.ix_(rows, window.indices - k0)]
    has_next = window.indices + 1 < n_iter
    next_first = latest_event(events)
    if has_next.any():
        following = box[np.ix_(rows, window.indices[has_next] + 1 - k0)]
        next_first[:, has_next] = first_event(following)
    hostnames = read(f, "topology/hostname")
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
            follows = np.flatnonzero(np.diff(tl.indices) == 1)
            end[:, follows] = first_event(ev[:, follows + 1])
        out["iteration"] = (first_event(ev), end)
    return out


def valid(begin, end):
    """Mask of intervals that happened: both ends finite and a positive duration."""
    with np.errstate(invalid="ignore"):
        return np.isfinite(begin) & np.isfinite(end) & (end > begin)


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


# --------------------------------------------------------------------------- formatting


def rank_ranges(ranks):
    """Compact rank list: [0,1,2,3,5] -> '0-3,5'."""
    ranks = sorted(int(r) for r in ranks)
    parts, start = [], None
    for i, r in enumerate(ranks):
        if start is None:
            start = r
        if i + 1 == len(ranks) or ranks[i + 1] != r + 1:
            parts.append(str(start) if start == r else "%d-%d" % (start, r))
            start = None
    return ",".join(parts)


def format_time(seconds):
    """Seconds with a readable unit: '1.234 ms'; '-' for NaN/None."""
    if seconds is None or not np.isfinite(seconds):
        return "-"
    a = abs(seconds)
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("us", 1e-6)):
        if a >= scale:
            return "%.4g %s" % (seconds / scale, unit)
    return "%.4g ns" % (seconds / 1e-9) if a > 0 else "0 s"


def format_si(value, unit):
    """1.5e10, 'B/s' -> '15 GB/s'; '-' for NaN/None."""
    if value is None or not np.isfinite(value):
        return "-"
    for prefix, scale in (("T", 1e12), ("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if abs(value) >= scale:
            return "%.4g %s%s" % (value / scale, prefix, unit)
    return "%.4g %s" % (value, unit)


def format_quantity(value, units):
    """A metric by its units attribute: 's' -> '1.2 ms', 'B' and 'B/s' with SI prefixes, '1'
    plain (integers without a decimal point), anything else plain with the unit appended."""
    if isinstance(value, str):
        return value
    if value is None or not np.isfinite(value):
        return "-"
    if units == "s":
        return format_time(value)
    if units in ("B", "B/s"):
        return format_si(value, units)
    if float(value).is_integer() and abs(value) < 1e15:
        text = "%d" % value
    else:
        text = "%.4g" % value
    return text if units in ("1", "", None) else "%s %s" % (text, units)


def format_bytes(value):
    """8192 -> '8192 B (8 KiB)'."""
    if value is None or value < 0:
        return "-"
    value = int(value)
    for prefix, scale in (("Gi", 2**30), ("Mi", 2**20), ("Ki", 2**10)):
        if value >= scale:
            return "%d B (%.4g %sB)" % (value, value / scale, prefix)
    return "%d B" % value
