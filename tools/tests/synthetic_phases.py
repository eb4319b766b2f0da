"""/phases of synthetic files (docs/output.md): what the C++ side writes, added to the files of
synthetic_files.py and synthetic_made_up.py."""

import h5py
import numpy as np


def fixed(strings, size=None):
    """Fixed-length, null-padded byte strings as the C++ side writes them."""
    data = np.char.encode(np.array(strings, dtype=str), "ascii")
    width = size or max(1, data.dtype.itemsize)
    return data.astype("S%d" % width)


def write_phases(f, description):
    """/phases (docs/output.md) of an open file: description = [(name, class, colour, label)],
    one row per phase of phase_names, as the C++ side writes it (fixed-length strings, units
    "text")."""
    g = f.require_group("phases")
    for k, key in enumerate(("name", "class", "colour", "label")):
        if key in g:
            del g[key]
        g.create_dataset(key, data=fixed([row[k] for row in description])).attrs["units"] = fixed("text")


def describe(path, description):
    """Add (or replace) /phases in an existing file (write_phases)."""
    with h5py.File(path, "r+") as f:
        write_phases(f, description)


def fallback_description(phase_names):
    """The /phases rows a file written today would hold for phases the tools always knew: their
    class, face colour and label from desync.phase_classes.FALLBACK (iteration: total)."""
    from desync.phase_classes import FALLBACK

    return [(n, FALLBACK[n]["class"], FALLBACK[n]["colour"], FALLBACK[n]["label"]) for n in phase_names]
