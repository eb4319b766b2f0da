"""Opening and reading desync HDF5 output files (the contract is docs/output.md).

open_output validates a file; decode/to_scalar turn the fixed-length, null-padded strings and
numpy scalars h5py returns into Python values; read/read_attr fetch a dataset or an attribute
decoded, with a default where it is absent.
"""

import os
import sys

import numpy as np

import h5py

from .errors import DesyncError

FORMAT = "desync-output"
SUPPORTED_FORMAT_VERSION = 1


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


def open_output(path, note_incomplete=True):
    """Open a desync output file read-only; raise DesyncError if it is not one. An incomplete run
    (stopped early, or a flush of a run that was killed) is read as what ran, with a note on
    stderr unless note_incomplete is False (callers that report it themselves)."""
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
    if note_incomplete:
        why = incomplete_reason(root_attributes(f))
        if why:
            sys.stderr.write("note: %s is incomplete: %s\n" % (path, why))
    return f


def incomplete_reason(attrs):
    """None for a complete run; else what the file holds, in one phrase: a run stopped by a signal,
    or a flush written while the run ran (OUT.partial: the run was killed, or is still running)."""
    if int(attrs.get("complete", 1)) == 1:
        return None
    done = int(attrs.get("iterations", 0)) + int(attrs.get("warmup_iterations", 0))
    of = "%d of %s iterations (warm-up included)" % (done, attrs.get("iterations_planned", "?"))
    if int(attrs.get("flushed", 0)) == 1:
        return "written while the run ran: its first %s; the run was killed or is still running" % of
    return "stopped by %s after %s" % (attrs.get("stop_signal") or "a signal", of)


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
