"""Reading layer for desync HDF5 output files (the contract is docs/output.md).

Used by tools/desync_view.py. It opens and validates a file, decodes the fixed-length,
null-padded strings, selects a window of ranks x iterations and derives the phase intervals
(compute, delay, post, wait, barrier) from the raw /timeline/events timestamps.

Iteration numbers are indices along the recorded iteration axis of /timeline/events: the
warm-up iterations come first (0 .. warmup_iterations-1), the measured ones follow.
"""

import os

import numpy as np

try:
    import h5py
except ImportError as exc:  # pragma: no cover - depends on the interpreter
    raise SystemExit(
        "desync_view: error: this tool needs numpy and h5py (and matplotlib for 'timeline'); "
        "on Debian use /usr/bin/python3 (packages python3-h5py python3-matplotlib): %s" % exc
    )

FORMAT = "desync-output"
SUPPORTED_FORMAT_VERSION = 1

#: phases drawn/exported, in the order they happen inside an iteration
PHASES = ("compute", "delay", "post", "wait", "barrier")


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
    """Non-empty lines of a multi-line string attribute/dataset."""
    return [line for line in (text or "").splitlines() if line.strip()]


# --------------------------------------------------------------------------- windows


def parse_slice(text):
    """Parse 'A:B', 'A:B:S', ':B', 'A:' or a single index 'A' (-> A:A+1) into a slice."""
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
        return slice(a, a + 1 if a != -1 else None)
    if len(values) == 3 and values[2] is not None and values[2] <= 0:
        raise ValueError("the step must be positive in %r" % text)
    return slice(*values)


def slice_text(s):
    """Inverse of parse_slice, for messages/provenance."""
    out = "%s:%s" % ("" if s.start is None else s.start, "" if s.stop is None else s.stop)
    return out + (":%d" % s.step if s.step not in (None, 1) else "")


class Window:
    """The selected ranks and iterations (sorted index arrays)."""

    def __init__(self, ranks, iterations):
        self.ranks = np.asarray(ranks, dtype=np.int64)
        self.iterations = np.asarray(iterations, dtype=np.int64)


def select_window(f, ranks=slice(None), iterations=slice(None), include_warmup=False, stride=1):
    """Apply Python slice semantics to range(P) and range(N); drop warm-up unless asked.

    stride keeps every stride-th iteration of the selection.
    """
    if "timeline/events" not in f:
        raise DesyncError("the file has no /timeline/events dataset")
    n_ranks, n_iter = f["timeline/events"].shape[:2]
    rank_idx = np.arange(n_ranks)[ranks]
    iter_idx = np.arange(n_iter)[iterations]
    if not include_warmup:
        warm = warmup_mask(f)
        iter_idx = iter_idx[~warm[iter_idx]]
    iter_idx = iter_idx[::stride]
    if rank_idx.size == 0:
        raise DesyncError(
            "empty window: --ranks %s selects none of ranks 0..%d" % (slice_text(ranks), n_ranks - 1)
        )
    if iter_idx.size == 0:
        raise DesyncError(
            "empty window: --iterations %s selects no %siteration of 0..%d "
            "(warm-up iterations: %d%s)"
            % (
                slice_text(iterations),
                "" if include_warmup else "measured ",
                n_iter - 1,
                int(warmup_mask(f).sum()),
                "" if include_warmup else "; add --include-warmup to see them",
            )
        )
    return Window(rank_idx, iter_idx)


def warmup_mask(f):
    """Boolean [N]: True for warm-up iterations (from /timeline/warmup, else the attribute)."""
    n_iter = f["timeline/events"].shape[1]
    if "timeline/warmup" in f:
        return np.asarray(f["timeline/warmup"][()], dtype=bool).reshape(-1)[:n_iter]
    mask = np.zeros(n_iter, dtype=bool)
    mask[: int(to_scalar(f.attrs.get("warmup_iterations", 0)))] = True
    return mask


# --------------------------------------------------------------------------- timeline


class Timeline:
    """Events of a window: events[p, n, e] for window.ranks x window.iterations."""

    def __init__(self, events, event_names, window, warmup, hostnames):
        self.events = events
        self.event_names = event_names
        self.ranks = window.ranks
        self.iterations = window.iterations
        self.warmup = warmup
        self.hostnames = hostnames

    def event(self, name):
        """[p, n] timestamps of one event, or None if the workload does not record it."""
        if name not in self.event_names:
            return None
        return self.events[:, :, self.event_names.index(name)]


def read_timeline(f, window):
    """Read only the bounding box of the window from /timeline/events, then index it."""
    ds = f["timeline/events"]
    names = read_attr(f, "timeline/events", "event_names")
    if names is None:
        raise DesyncError("/timeline/events has no 'event_names' attribute")
    names = [str(n) for n in names]
    r0, r1 = window.ranks.min(), window.ranks.max() + 1
    k0, k1 = window.iterations.min(), window.iterations.max() + 1
    box = np.asarray(ds[r0:r1, k0:k1, :], dtype=np.float64)
    events = box[np.ix_(window.ranks - r0, window.iterations - k0)]
    hostnames = read(f, "topology/hostname")
    if hostnames is None:
        hostnames = ["?"] * ds.shape[0]
    return Timeline(events, names, window, warmup_mask(f)[window.iterations], hostnames)


def phase_intervals(tl):
    """{phase: (begin[p, n], end[p, n])} for the phases whose events the workload records.

    Follows docs/output.md: post starts at max(compute_end, delay_end) (a missing delay is
    ignored). Intervals with a NaN end point did not happen.
    """
    ev = tl.event
    out = {}

    def add(phase, begin, end):
        if begin is not None and end is not None:
            out[phase] = (begin, end)

    add("compute", ev("compute_begin"), ev("compute_end"))
    add("delay", ev("delay_begin"), ev("delay_end"))
    compute_end, delay_end = ev("compute_end"), ev("delay_end")
    if compute_end is not None and delay_end is not None:
        post_begin = np.fmax(compute_end, delay_end)  # fmax ignores NaN
    else:
        post_begin = compute_end if compute_end is not None else delay_end
    add("post", post_begin, ev("post_end"))
    add("wait", ev("post_end"), ev("wait_end"))
    add("barrier", ev("wait_end"), ev("barrier_end"))
    if not out:
        raise DesyncError(
            "no known events in /timeline/events (event_names: %s)" % ", ".join(tl.event_names)
        )
    return out


def valid(begin, end):
    """Mask of intervals that happened: both ends finite and a positive duration."""
    with np.errstate(invalid="ignore"):
        return np.isfinite(begin) & np.isfinite(end) & (end > begin)


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
