"""Opening and reading desync HDF5 output files (the contract is docs/output.md).

open_output validates a file; decode/to_scalar turn the fixed-length, null-padded strings and
numpy scalars h5py returns into Python values; read/read_attr fetch a dataset or an attribute
decoded, with a default where it is absent; require fetches one a command cannot do without.

Bad input files (tools/README.md, "Bad input files"): open_output names what is wrong with a
file it cannot open (missing, empty, a directory, not HDF5, truncated, another program's); read,
require, read_per_rank and attr_int check what a command reads (kind, dimensions, rows) and name
the file, the dataset, what it holds and what was expected ("FILE: /topology/threads holds |S1
of shape (4,), expected numbers, 1 dimension(s), 4 row(s) (one per rank) (needed by summary)");
`f["x/y"]` on a file without it says "FILE: missing /x/y (needed by ...)". Any other exception
raised while the file is open (`with open_output(path) as f:`) leaves the block as one
DesyncError naming the file (InputFile, input_error), the original as its __cause__. guard.py
prints it as one line with exit status 2; set_reader names the subcommand in the messages.
"""

import os
import re
import sys

import numpy as np

import h5py

from .errors import DesyncError

FORMAT = "desync-output"
SUPPORTED_FORMAT_VERSION = 1

#: the command reading files now, named in "missing ... (needed by COMMAND)" (set_reader)
_reader = [None]
#: the paths open_output opened since set_reader (the inputs a command's error names)
_opened = []


def set_reader(name):
    """Name the command whose reads the messages of missing datasets mention (None: no name);
    forget the inputs opened so far."""
    _reader[0] = name
    del _opened[:]


def opened_inputs():
    """The paths open_output opened since the last set_reader, in order."""
    return list(_opened)


def _needed_by():
    return " (needed by %s)" % _reader[0] if _reader[0] else ""


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


class InputFile(h5py.File):
    """A desync output file opened by open_output. Missing objects raise DesyncError naming the
    file and the path; any other error raised while the file is open (in `with open_output(path)
    as f:`: reading, decoding, computing on what was read) leaves the block as one DesyncError
    naming the file (input_error)."""

    def __getitem__(self, name):
        try:
            return super().__getitem__(name)
        except KeyError as exc:
            if isinstance(name, str):
                raise MissingObject(input_error(self.desync_path, exc, name)) from None
            raise

    def __exit__(self, exc_type, exc, tb):
        super().__exit__(exc_type, exc, tb)
        if isinstance(exc, Exception) and not (isinstance(exc, DesyncError) and exc.path is not None):
            raise input_error(self.desync_path, exc) from exc
        return False


class MissingObject(DesyncError, KeyError):
    """A path the file lacks: a DesyncError naming it, and a KeyError for h5py's own get()."""

    def __init__(self, error):
        super().__init__(str(error), error.path)

    __str__ = Exception.__str__


def _one_line(text):
    return " ".join(str(text).split())


def _h5py_message(exc):
    """h5py's message without its call name: 'Unable to synchronously open object (object 'x'
    doesn't exist)' -> "object 'x' doesn't exist"."""
    text = _one_line(exc.args[0] if isinstance(exc, KeyError) and exc.args else exc)
    m = re.match(r"^[A-Z][^(]*\((.*)\)$", text)
    return m.group(1) if m else text


def input_error(path, exc, name=None):
    """The DesyncError of an exception raised while reading input file path: one line that names
    the file and what is missing or wrong; an error that names its file already is kept."""
    if isinstance(exc, DesyncError):
        if exc.path is not None:
            return exc
        text = _one_line(exc)
        return DesyncError(text if text.startswith(path) else "%s: %s" % (path, text), path)
    if isinstance(exc, KeyError):
        if name is not None:
            what = "/" + name.lstrip("/")
            return DesyncError("%s: missing %s%s" % (path, what, _needed_by()), path)
        return DesyncError("%s: missing %s%s" % (path, _h5py_message(exc), _needed_by()), path)
    if isinstance(exc, OSError):
        return DesyncError("%s: cannot read (a damaged or truncated file?): %s" % (path, _h5py_message(exc)), path)
    return DesyncError("%s: unexpected content (%s: %s)%s"
                       % (path, type(exc).__name__, _one_line(exc) or "no message", _needed_by()), path)


def _tmp_hint(path):
    if path.endswith(".tmp"):
        return " (a .tmp file is what a run writes before renaming it; this run did not finish writing it)"
    return ""


def open_output(path, note_incomplete=True):
    """Open a desync output file read-only (an InputFile); raise DesyncError if it is not one. An
    incomplete run (stopped early, or a flush of a run that was killed) is read as what ran, with a
    note on stderr unless note_incomplete is False (callers that report it themselves)."""
    if not os.path.exists(path):
        raise DesyncError("%s: no such file" % path, path)
    if os.path.isdir(path):
        raise DesyncError("%s: is a directory, not a desync output file" % path, path)
    try:
        is_hdf5 = h5py.is_hdf5(path)
    except OSError as exc:
        raise DesyncError("%s: cannot read: %s" % (path, _one_line(exc)), path)
    if not is_hdf5:
        what = "an empty file" if os.path.getsize(path) == 0 else "not an HDF5 file"
        raise DesyncError("%s: %s, so not a desync output file%s" % (path, what, _tmp_hint(path)), path)
    try:
        f = InputFile(path, "r")
    except OSError as exc:
        text = _h5py_message(exc)
        cut = re.search(r"truncated file: eof = (\d+).*stored_eof = (\d+)", text)
        what = ("truncated: %s of its %s bytes are there" % cut.groups()) if cut else \
            "cannot open (a damaged or truncated file?): %s" % text
        raise DesyncError("%s: %s%s" % (path, what, _tmp_hint(path)), path)
    f.desync_path = path
    if path not in _opened:
        _opened.append(path)
    try:
        _check_format(f, path, note_incomplete)
    except Exception as exc:  # noqa: BLE001 -- any problem of the file's root attributes
        f.close()
        raise input_error(path, exc) from exc
    return f


def _check_format(f, path, note_incomplete):
    fmt = to_scalar(f.attrs["format"]) if "format" in f.attrs else None
    if fmt != FORMAT:
        raise DesyncError(
            "%s: not a desync output file (root attribute 'format' is %r, expected %r)%s"
            % (path, fmt, FORMAT, _tmp_hint(path)), path)
    version = to_scalar(f.attrs.get("format_version", SUPPORTED_FORMAT_VERSION))
    if isinstance(version, int) and version > SUPPORTED_FORMAT_VERSION:
        sys.stderr.write("warning: %s has format_version %d, this tool knows version %d; "
                         "some numbers may be misread\n" % (path, version, SUPPORTED_FORMAT_VERSION))
    if note_incomplete:
        why = incomplete_reason(root_attributes(f))
        if why:
            sys.stderr.write("note: %s is incomplete: %s\n" % (path, why))


def incomplete_reason(attrs):
    """None for a complete run; else what the file holds, in one phrase: a run stopped by a signal,
    or a flush written while the run ran (OUT.partial: the run was killed, or is still running)."""
    if attr_int(attrs, "complete", 1) == 1:
        return None
    done = attr_int(attrs, "iterations", 0) + attr_int(attrs, "warmup_iterations", 0)
    of = "%d of %s iterations (warm-up included)" % (done, attrs.get("iterations_planned", "?"))
    if attr_int(attrs, "flushed", 0) == 1:
        return "written while the run ran: its first %s; the run was killed or is still running" % of
    return "stopped by %s after %s" % (attrs.get("stop_signal") or "a signal", of)


def attr_int(attrs, name, default=None):
    """Root attribute name (of root_attributes' dict, or of an h5py .attrs) as an int; default if
    absent; DesyncError if it holds something else (a string, an array)."""
    if name not in attrs:
        return default
    value = attrs[name]
    value = to_scalar(value) if not isinstance(attrs, dict) else value
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != int(value):
        raise DesyncError("root attribute %s = %r is not an integer" % (name, _short(value)))
    return int(value)


def _short(value):
    text = repr(value)
    return value if len(text) <= 40 else text[:37] + "..."


def root_attributes(f):
    """All root attributes, decoded to Python scalars/str."""
    return {name: to_scalar(f.attrs[name]) for name in f.attrs}


def read(f, path, default=None, kind=None, ndim=None, rows=None, row_of=None):
    """A dataset decoded (scalar -> Python value, strings -> str), or default if absent.

    Checks, each optional: kind "number" or "text" (what the values are), ndim (dimensions; 0 is a
    scalar), rows (entries along the first axis, e.g. the rank count; row_of names what a row is
    for the message, e.g. "rank"). A dataset that fails one, or a group where a dataset should be,
    raises DesyncError naming the file, the path, what it holds and what was expected (and the
    command, set_reader)."""
    if path not in f:
        return default
    ds = dataset(f, path, kind, ndim, rows, row_of)
    if ds.shape == ():
        return to_scalar(ds[()])
    data = ds[()]
    if data.dtype.kind in "SUO":
        return decode(data)
    return data


#: dtype kinds of each value kind of read()'s checks
KINDS = {"number": "iufb", "text": "SUO"}


def dataset(f, path, kind=None, ndim=None, rows=None, row_of=None):
    """The h5py dataset at path (not read), checked as read() describes; DesyncError if absent."""
    where = "%s: /%s" % (_name(f), path.lstrip("/"))
    if path not in f:
        raise DesyncError("%s: missing dataset /%s%s" % (_name(f), path.lstrip("/"), _needed_by()), _name(f))
    ds = f[path]
    if not isinstance(ds, h5py.Dataset):
        raise DesyncError("%s is a group, expected a dataset%s" % (where, _needed_by()), _name(f))
    shape = ds.shape
    if shape is None:  # an HDF5 null dataspace
        raise DesyncError("%s holds no dataspace, expected a dataset with values%s" % (where, _needed_by()), _name(f))
    bad_kind = kind is not None and ds.dtype.kind not in KINDS[kind]
    bad_ndim = ndim is not None and len(shape) != ndim
    bad_rows = rows is not None and (len(shape) == 0 or shape[0] != rows)
    if bad_kind or bad_ndim or bad_rows:
        wanted = [{"number": "numbers", "text": "text"}[kind]] if kind else []
        if ndim is not None:
            wanted.append("a scalar" if ndim == 0 else "%d dimension(s)" % ndim)
        if rows is not None:
            wanted.append("%d row(s)%s" % (rows, " (one per %s)" % row_of if row_of else ""))
        raise DesyncError("%s holds %s of shape %s, expected %s%s"
                          % (where, ds.dtype, shape, ", ".join(wanted), _needed_by()), _name(f))
    return ds


def require(f, path, kind=None, ndim=None, rows=None, row_of=None):
    """The dataset at path decoded (as read, with its checks) for a command that cannot do
    without it; DesyncError naming the file, the path and the command if it is absent."""
    dataset(f, path, kind, ndim, rows, row_of)
    return read(f, path, None, kind, ndim, rows, row_of)


def require_array(f, path, ndim):
    """The h5py dataset at path (not read), an array of ndim dimensions of numbers (DesyncError)."""
    return dataset(f, path, "number", ndim)


def rank_count(f):
    """P: the rows of /timeline/events, else root attribute ranks; None if the file gives neither."""
    ds = f.get("timeline/events")
    if isinstance(ds, h5py.Dataset) and ds.shape:
        return ds.shape[0]
    try:
        return attr_int(f.attrs, "ranks")
    except DesyncError:
        return None


def read_per_rank(f, path, kind="number", ndim=1):
    """A dataset of one row per rank ([P] or [P, ...], P = rank_count), checked as read() does;
    None if absent."""
    return read(f, path, None, kind, ndim, rank_count(f), "rank")


def require_per_rank(f, path, kind="number", ndim=1):
    """read_per_rank for a dataset a command cannot do without (DesyncError if absent)."""
    return require(f, path, kind, ndim, rank_count(f), "rank")


def read_text(f, path, default=None):
    """A text dataset (a scalar string) as str, or default if absent (DesyncError if not text)."""
    return read(f, path, default, kind="text", ndim=0)


def read_attr_text(f, path, name, default=""):
    """A text attribute (str, or a list of str joined by newlines); DesyncError if it is a number."""
    value = read_attr(f, path, name, default)
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return "\n".join(value)
    if not isinstance(value, str):
        raise DesyncError("%s: attribute %s of /%s is %r, expected text%s"
                          % (_name(f), name, path.lstrip("/"), _short(value), _needed_by()), _name(f))
    return value


def _name(f):
    """The path a file was opened by (open_output), else h5py's file name."""
    return getattr(f, "desync_path", None) or f.filename


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
    if text is not None and not isinstance(text, str):
        raise DesyncError("expected text, found %r" % (_short(text),))
    return [line for line in (text or "").splitlines() if line.strip()]
