"""How the command lines fail (desync-view, desync-campaign; tools/README.md, "Bad input files").

run_guarded runs one subcommand so that whatever goes wrong ends as ONE line on stderr and an
exit status, never a Python traceback, and a failed command leaves no output behind:

  DesyncError         (a bad input file, a missing dataset, a bad argument, an empty window)
                      status 2; a message that names no file gets the input files read so far
                      (h5file.opened_inputs) in front
  OSError             raised outside the reading of an input (h5file.InputFile turns those into
                      DesyncError): an output that cannot be written, status 1
  any other Exception a file whose content the tools do not expect (or a bug of the tools):
                      status 2, the input files, the exception's type and message; with
                      DESYNC_TRACEBACK=1 in the environment the traceback is printed too

Outputs: the files the subcommand may write (-o, --json, ...) are looked at before it runs: one
that is an input file, or named twice, is refused (status 2) before anything is written; one that
exists is copied aside (up to KEEP_MAX bytes). When it fails, every output it created or changed
is removed and the copies are put back, so the files are as they were (not when only its
standard output was closed early: BrokenPipeError, status 1). Python warnings (numpy's
"Mean of empty slice", matplotlib's) are printed as one line "warning: ..." while it runs."""

import os
import shutil
import sys
import tempfile
import traceback
import warnings

from .errors import DesyncError
from .h5file import opened_inputs, set_reader

TRACEBACK_ENV = "DESYNC_TRACEBACK"


def _state(path):
    """What is at path now: None if nothing, else (inode, size, mtime) of a regular file, or "other"."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    if not os.path.isfile(path):
        return "other"
    return (st.st_ino, st.st_size, st.st_mtime_ns)


#: existing outputs up to this size are copied aside while a command runs (pictures, JSON); a
#: larger one is overwritten unprotected
KEEP_MAX = 256 * 1024 * 1024


def _same_file(a, b):
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.abspath(a) == os.path.abspath(b)


def _inside(path, folder):
    """path lies inside folder (both resolved: links, "..", relative names)."""
    try:
        p, d = os.path.realpath(path), os.path.realpath(folder)
    except OSError:
        return False
    return p != d and p.startswith(d.rstrip(os.sep) + os.sep)


def refuse_clashes(inputs, outputs):
    """An output that is one of the inputs (trace RUN.h5 -o RUN.h5 would destroy the run), a
    folder holding an input (otf2 RUN.h5 -o . --force would replace the folder), an existing file
    of an input folder (an OTF2 archive's anchor file; a new file beside it harms nothing), or
    that two options name: a DesyncError before anything runs."""
    outs = [p for p in outputs if p]
    for i, out in enumerate(outs):
        for src in inputs:
            if not src:
                continue
            if _same_file(out, src):
                raise DesyncError("%s: the output would replace the input file %s; choose another output name" % (out, src),
                                  path=out)
            if os.path.isdir(out) and _inside(src, out):
                raise DesyncError("%s: the output would replace the folder that holds the input %s; choose another "
                                  "output name" % (out, src), path=out)
            if os.path.isdir(src) and _inside(out, src) and os.path.exists(out):
                raise DesyncError("%s: the output would replace a file of the input %s; choose another output name"
                                  % (out, src), path=out)
        for other in outs[:i]:
            if _same_file(out, other):
                raise DesyncError("%s is named as two outputs; give each its own name" % out, path=out)


class Outputs:
    """The output paths of one command, what was at each before it ran, and copies of the files
    that existed (put back if the command fails)."""

    def __init__(self, paths):
        self.before = {p: _state(p) for p in dict.fromkeys(p for p in paths if p)}
        self.kept = {}
        for path, state in self.before.items():
            if isinstance(state, tuple) and state[1] <= KEEP_MAX:
                try:
                    fd, copy = tempfile.mkstemp(prefix=".%s." % os.path.basename(path), suffix=".keep",
                                                dir=os.path.dirname(os.path.abspath(path)))
                    os.close(fd)
                    shutil.copy2(path, copy)
                    self.kept[path] = copy
                except OSError:  # a directory we may not write to: the file stays unprotected
                    pass

    def release(self):
        """The command succeeded: drop the copies."""
        for copy in self.kept.values():
            try:
                os.remove(copy)
            except OSError:
                pass
        self.kept = {}

    def discard(self):
        """Remove every output file the command created or changed and put back the copies of
        those that existed; the removed paths (restored ones included)."""
        removed = []
        for path, before in self.before.items():
            now = _state(path)
            if now is None or now == before or now == "other":
                continue
            try:
                os.remove(path)
                removed.append(path)
            except OSError:
                pass
        for path, copy in self.kept.items():
            try:
                if path in removed or _state(path) is None:
                    os.replace(copy, path)
                else:
                    os.remove(copy)
            except OSError:
                pass
        self.kept = {}
        return removed


def one_line(text):
    return " ".join(str(text).split())


def _warning_line(message, category, filename, lineno, file=None, line=None):
    (file or sys.stderr).write("warning: %s\n" % one_line(message))


def _named(text, inputs):
    """text with the input files in front unless it names one of them already."""
    if not inputs or any(p in text for p in inputs):
        return text
    return "%s: %s" % (", ".join(inputs), text)


def failure(exc, inputs):
    """(exit status, one-line message) of an exception a command raised."""
    opened = opened_inputs() or [p for p in inputs if p]
    if isinstance(exc, DesyncError):
        text = one_line(exc)
        return 2, text if exc.path is not None else _named(text, opened_inputs())
    if isinstance(exc, OSError):
        return 1, one_line(exc)
    return 2, _named("cannot process this input (%s: %s); a damaged file, or a bug of the tools "
                     "(%s=1 prints the traceback)"
                     % (type(exc).__name__, one_line(exc) or "no message", TRACEBACK_ENV), opened)


def run_guarded(prog, func, args, inputs=(), outputs=(), reader=None, protected=()):
    """func(args)'s exit status, or, when it raises, the status of failure() after printing
    "PROG: error: MESSAGE" (one line) and removing the outputs it wrote. reader names the command
    in messages about missing datasets (h5file.set_reader); protected: further files no output may
    replace, not named in messages (a campaign's result files, which may be hundreds)."""
    try:
        refuse_clashes(list(inputs) + list(protected), list(outputs))
    except DesyncError as exc:
        sys.stderr.write("%s: error: %s\n" % (prog, one_line(exc)))
        return 2
    guard = Outputs(outputs)
    set_reader(reader)
    saved = warnings.showwarning
    warnings.showwarning = _warning_line
    try:
        status = func(args)
        guard.release()
        return status
    except (KeyboardInterrupt, SystemExit):
        guard.discard()
        raise
    except BrokenPipeError as exc:  # stdout closed early (| head): the outputs are whole, keep them
        guard.release()
        sys.stderr.write("%s: error: %s\n" % (prog, one_line(exc)))
        return 1
    except Exception as exc:  # noqa: BLE001 -- every failure ends as one line and a status
        guard.discard()
        code, text = failure(exc, list(inputs))
        cause = exc.__cause__ if isinstance(exc, DesyncError) else exc  # InputFile keeps the original
        if os.environ.get(TRACEBACK_ENV) and cause is not None and not isinstance(cause, DesyncError):
            traceback.print_exc()
        sys.stderr.write("%s: error: %s\n" % (prog, text))
        return code
    finally:
        warnings.showwarning = saved
        set_reader(None)
