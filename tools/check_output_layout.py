#!/usr/bin/env python3
"""Check that a desync output file matches docs/output.md, and the doc matches the file.

    check_output_layout.py docs/output.md run.h5

Every root attribute and every dataset the document lists must exist with the documented shape
and a `units` attribute, and every root attribute, dataset and group in the file must be
documented, as must every attribute of a group or dataset (its name in backticks anywhere in the
document). A row marked optional is required where its text names the file's workload and no
further condition ("optional, stencil: ..." in a real stencil run), and the rows of an optional
section are required where its group is in the file. Shapes are written
in the document as `[P, N, E]` (symbols: P ranks, N recorded iterations, E events, T threads,
F phases, K offsets, H distinct node topologies, M message events, S message sizes and Q pairs of the pingpong workload,
R residual norms of the cg workload, B sizes, O operations and D parts of the collbench
workload, C collective events, X kernels and W values of N of the saturation workload, G memory
domains of a simulated run;
digits are literal) or `scalar`. Types are checked too: a row that names
`int`, `int32`, `int64` or `uint8` must hold integers (counts are never stored as float64), one
that names `float64` or a unit of time/bandwidth must hold floats, and string attributes must
be printable text (no NUL bytes). Exit status 0 if all holds, 1 otherwise, with one line per
problem. A file that cannot be checked at all (missing, empty, a directory, not HDF5, truncated,
not a desync output file, an imported trace; the document unreadable) gives one line on stderr and exit status 2,
never a traceback; a dataset or attribute the sizes come from that is missing or malformed is a
problem like the others (the shapes that need its size are then not checked).
"""
import os
import re
import sys

import h5py

SECTION = re.compile(r"^## (?:`(/[^`]*)`|Root attributes)(\s*\(optional\))?\s*$")
NAMES = re.compile(r"`([A-Za-z_][A-Za-z0-9_]*)`")
SHAPE = re.compile(r"\[([A-Z0-9, ]+)\]")


def documented(doc_path):
    """Yield (group, names, row_text, optional) for each table row; group None = root.

    A section headed "## `/group` (optional)" (optional "section") or a row whose text says
    "optional" (optional "row") may be absent from a file (it belongs to some workloads only);
    optional "" : required."""
    group = "?"
    optional_section = False
    active = False  # inside a table whose first column is "dataset" or "attribute"
    with open(doc_path, encoding="utf-8") as fh:
        text = fh.readlines()
    for line in text:
        m = SECTION.match(line.strip())
        if m:
            group = m.group(1)  # None for "Root attributes"
            optional_section = m.group(2) is not None
            continue
        if line.startswith("## "):
            group = "?"
            continue
        if line.startswith("| ") and not line.startswith("| `"):
            active = line.split("|")[1].strip() in ("dataset", "attribute")
            continue
        if group == "?" or not active or not line.startswith("| `"):
            continue
        first_cell = line.split("|")[1]
        optional = "row" if "optional" in line else "section" if optional_section else ""
        yield group, NAMES.findall(first_cell), line, optional


def expected_shape(row, sizes):
    m = SHAPE.search(row)
    if not m:
        return ()
    dims = []
    for tok in m.group(1).split(","):
        tok = tok.strip()
        dims.append(int(tok) if tok.isdigit() else sizes[tok])
    return None if None in dims else tuple(dims)  # None: a size the file does not give


INT_WORDS = re.compile(r"\b(int|int32|int64|uint8)\b")
FLOAT_WORDS = re.compile(r"\bfloat64\b")


def type_problem(where, row, dtype):
    """The documented kind of value (integer or float) against the stored dtype."""
    cells = [c.strip() for c in row.split("|")[1:-1]]
    typ = cells[1] if len(cells) > 1 else ""  # "int", "[P] int32", "[P, N, E] float64", or a unit
    wants_int = bool(INT_WORDS.search(typ)) or "int64 count" in row
    wants_float = bool(FLOAT_WORDS.search(typ))
    kind = dtype.kind
    if wants_int and kind not in "iu":
        return f"{where}: documented as an integer, stored as {dtype}"
    if wants_float and kind != "f":
        return f"{where}: documented as float64, stored as {dtype}"
    return None


class Unreadable(Exception):
    """The file or the document cannot be checked at all: one line, exit status 2."""


def one_line(text):
    return " ".join(str(text).split())


def open_checked(h5_path):
    """The file opened read-only, or Unreadable saying why it cannot be checked."""
    if not os.path.exists(h5_path):
        raise Unreadable(f"{h5_path}: no such file")
    if os.path.isdir(h5_path):
        raise Unreadable(f"{h5_path}: is a directory, not a desync output file")
    if os.path.getsize(h5_path) == 0:
        raise Unreadable(f"{h5_path}: an empty file, not a desync output file")
    try:
        if not h5py.is_hdf5(h5_path):
            raise Unreadable(f"{h5_path}: not an HDF5 file, so not a desync output file")
        f = h5py.File(h5_path, "r")
    except OSError as exc:
        cut = re.search(r"truncated file: eof = (\d+).*stored_eof = (\d+)", str(exc))
        if cut:
            raise Unreadable(f"{h5_path}: truncated: {cut.group(1)} of its {cut.group(2)} bytes are there")
        raise Unreadable(f"{h5_path}: cannot open (a damaged or truncated file?): {one_line(exc)}")
    try:
        fmt = f.attrs["format"] if "format" in f.attrs else None
    except (OSError, KeyError, TypeError, ValueError):
        fmt = "(unreadable)"
    fmt = fmt.decode("utf-8", "replace") if isinstance(fmt, bytes) else fmt
    if not isinstance(fmt, str) or fmt.split("\0")[0] != "desync-output":
        f.close()
        raise Unreadable(f"{h5_path}: not a desync output file (root attribute 'format' is {fmt!r})")
    if "imported" in f.attrs:
        f.close()
        raise Unreadable(f"{h5_path}: an imported trace (root attribute imported = 1, desync-view import): its "
                         "layout is docs/output.md's section \"Imported traces\", which this check does not cover")
    return f


def guarded(problems, what, get, default=None):
    """get(), or default with a problem naming what when the file does not give it."""
    try:
        return get()
    except Exception as exc:  # noqa: BLE001 -- a missing or malformed object is a problem to list
        problems.append(f"{what}: {exc.__class__.__name__}: {one_line(exc)}")
        return default


#: size symbol -> (dataset, axis) for the datasets of some workloads only (0 when absent)
OPTIONAL_SIZES = {"M": ("messages/peer", 1), "S": ("pingpong/bytes", 0), "Q": ("pingpong/bandwidth", 1),
                  "R": ("cg/residual", 0), "B": ("collbench/bytes", 0), "O": ("collbench/op", 0),
                  "D": ("collbench/post_time", 3), "C": ("collectives/kind", 1), "X": ("saturation/kernel", 0),
                  "W": ("saturation/n", 0), "G": ("simulation/b1", 0)}


def file_sizes(f, problems):
    """{symbol: size} of the file; None (and a problem) where the file does not give it."""
    def size(symbol, what, get):
        return guarded(problems, f"size {symbol} unknown ({what}; shapes with {symbol} not checked)",
                       lambda: int(get()))
    sizes = {
        "P": size("P", "root attribute ranks", lambda: f.attrs["ranks"]),
        "N": size("N", "/timeline/events", lambda: f["timeline/events"].shape[1]),
        "E": size("E", "/timeline/events event_names", lambda: len(f["timeline/events"].attrs["event_names"])),
        "T": size("T", "/topology/thread_cpuset", lambda: f["topology/thread_cpuset"].shape[1]),
        "F": size("F", "/summary/phase_stats phase_names", lambda: len(f["summary/phase_stats"].attrs["phase_names"])),
        "K": size("K", "/comm/send_partner", lambda: f["comm/send_partner"].shape[1]),
        # The distinct node topologies: as many as the ranks' indices into them name.
        "H": size("H", "/topology/hwloc_xml_index",
                  lambda: max([-1] + [int(i) for i in f["topology/hwloc_xml_index"][()]]) + 1),
    }
    for symbol, (path, axis) in OPTIONAL_SIZES.items():
        sizes[symbol] = size(symbol, "/" + path, lambda path=path, axis=axis: f[path].shape[axis] if path in f else 0)
    return sizes


def check_iterations(f, sizes, problems):
    """Every recorded iteration, or the [record] window/stride's selection of them."""
    recorded = int(f.attrs["iterations"]) + int(f.attrs["warmup_iterations"])
    if int(f["timeline"].attrs.get("recorded_iterations", recorded)) != recorded:
        problems.append("/timeline recorded_iterations differs from iterations + warmup_iterations")
    if "timeline/iteration" in f and f["timeline"].attrs.get("record_stride", 1) == 1 \
            and sizes["N"] == recorded and list(f["timeline/iteration"][()]) != list(range(-int(f.attrs["warmup_iterations"]), int(f.attrs["iterations"]))):
        problems.append("/timeline/iteration does not number every iteration")
    if sizes["N"] is not None and sizes["N"] > recorded:
        problems.append("timeline longer than iterations + warmup_iterations")


def check_root_attribute(f, name, row, problems):
    v = f.attrs[name]
    if isinstance(v, (bytes, str)):
        text = v.decode("utf-8", "replace") if isinstance(v, bytes) else v
        if "\0" in text:
            problems.append(f"root attribute {name} holds a NUL byte")
    elif hasattr(v, "dtype"):
        p = type_problem(f"root attribute {name}", row, v.dtype)
        if p:
            problems.append(p)


def check_dataset(f, path, row, sizes, problems):
    ds = f[path]
    if not isinstance(ds, h5py.Dataset):
        problems.append(f"/{path}: a group, documented as a dataset")
        return
    want = expected_shape(row, sizes)
    if want is not None and ds.shape != want:
        problems.append(f"/{path}: shape {ds.shape}, documented {want}")
    if "units" not in ds.attrs:
        problems.append(f"/{path}: no units attribute")
    p = type_problem(f"/{path}", row, ds.dtype)
    if p:
        problems.append(p)


#: the document's words for workloads in "optional, <who>: ..." rows
WORKLOAD_WORDS = {"spmv": ["spmv"], "chebfd": ["chebfd"], "cg": ["cg"], "stencil": ["stencil"],
                  "collbench": ["collbench"], "matvec2d": ["matvec2d"], "symmsquarecube": ["symmsquarecube"],
                  "saturation": ["saturation"], "pingpong": ["pingpong"], "triad": ["triad"], "toy": ["toy"],
                  "collective workloads": ["collbench", "matvec2d", "symmsquarecube"]}
QUALIFIER = re.compile(r"optional, ([^:;(`]*?):")


def required_for(row):
    """The workloads for which an optional row is required: those its qualifier names when it is
    nothing but a list of workloads ("optional, SpMV, chebfd and cg:"); empty for any condition
    beyond the workload ("with ...", "mode ...", "real or simulated")."""
    cells = row.split("|")
    m = QUALIFIER.search("|".join(cells[2:]))
    if not m:
        return set()
    who = set()
    for part in re.split(r",\s*|\s+and\s+", m.group(1).strip()):
        part = part.strip().lower()
        part = part[:-len(" only")] if part.endswith(" only") else part
        if part not in WORKLOAD_WORDS:
            return set()  # a condition, not a workload: stays optional
        who.update(WORKLOAD_WORDS[part])
    return who


def file_workload(f):
    """[run] workload of the file's resolved deck, or None."""
    try:
        text = f["config/resolved"][()]
        text = text.decode("utf-8") if isinstance(text, bytes) else str(text)
    except Exception:  # noqa: BLE001 -- no workload known: no row becomes required
        return None
    try:
        import tomllib
        return tomllib.loads(text).get("run", {}).get("workload")
    except ImportError:  # Python < 3.11: the one line it needs, as desync writes it
        m = re.search(r"^\[run\][^\[]*?^workload = ['\"](\w+)['\"]", text, re.M | re.S)
        return m.group(1) if m else None
    except Exception:  # noqa: BLE001
        return None


def documented_names(doc_path):
    with open(doc_path, encoding="utf-8") as fh:
        return set(NAMES.findall(fh.read()))


def undocumented_objects(f, rows, doc_path):
    """Root attributes, groups and attributes of groups and datasets that the document lacks."""
    problems = []
    root_attrs = {name for group, names, _, _ in rows if group is None for name in names}
    problems += [f"root attribute {a} is in the file but not in {doc_path}" for a in f.attrs if a not in root_attrs]
    sections = {group.strip("/") for group, _, _, _ in rows if group}
    known_groups = set()
    for g in sections:
        parts = g.split("/")
        known_groups.update("/".join(parts[:i + 1]) for i in range(len(parts)))
    words = documented_names(doc_path)
    datasets = {f"{group}/{name}".strip("/") for group, names, _, _ in rows if group for name in names}

    def visit(name, obj):
        if isinstance(obj, h5py.Group) and name not in known_groups and name not in datasets:
            problems.append(f"group /{name} is in the file but not in {doc_path}")
        for a in obj.attrs:
            if a != "units" and a not in words:
                problems.append(f"attribute {a} of /{name} is in the file but not in {doc_path}")
    f.visititems(visit)
    return problems


def main(doc_path, h5_path):
    """Check h5_path against doc_path: print the problems, return 1 if there are any, else 0.
    Unreadable if either cannot be read at all."""
    try:
        rows = list(documented(doc_path))
    except (OSError, UnicodeDecodeError) as exc:
        raise Unreadable(f"{doc_path}: cannot read the document: {one_line(exc)}")
    if not any(group is None for group, _, _, _ in rows):
        raise Unreadable(f"{doc_path}: not desync's docs/output.md (no table of root attributes in it)")
    problems = []
    with open_checked(h5_path) as f:
        sizes = file_sizes(f, problems)
        workload = None if "simulated" in f.attrs else file_workload(f)  # rows for real runs
        guarded(problems, "iteration counts not checked", lambda: check_iterations(f, sizes, problems))
        seen = set()
        for group, names, row, optional in rows:
            if optional == "row" and workload in required_for(row):
                optional = ""  # "optional, <this workload>: ..."
            if optional == "section" and group.strip("/") in f:
                optional = ""  # the group is there: all of it
            for name in names:
                if group is None:
                    if name not in f.attrs:
                        if not optional:
                            problems.append(f"root attribute {name} missing")
                        continue
                    guarded(problems, f"root attribute {name}", lambda: check_root_attribute(f, name, row, problems))
                    continue
                path = f"{group}/{name}".lstrip("/")
                seen.add(path)
                if path not in f:
                    if not optional:
                        problems.append(f"/{path} missing")
                    continue
                guarded(problems, f"/{path}", lambda: check_dataset(f, path, row, sizes, problems))
        problems += undocumented_objects(f, rows, doc_path)
        undocumented = []
        f.visititems(lambda n, o: undocumented.append(n) if isinstance(o, h5py.Dataset) and n not in seen else None)
        problems += [f"/{n} is in the file but not in {doc_path}" for n in undocumented]
    for p in problems:
        print(p)
    print(f"{len(seen) - len([p for p in problems if 'missing' in p])} documented datasets checked, "
          f"{len(problems)} problem(s)")
    return 1 if problems else 0


def run(argv):
    """The command line: check_output_layout.py DOC FILE; the exit status (module docstring)."""
    prog = "check_output_layout.py"
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    try:
        return main(argv[0], argv[1])
    except Unreadable as exc:
        print(f"{prog}: error: {exc}", file=sys.stderr)
    except Exception as exc:  # noqa: BLE001 -- never a traceback: one line naming the file
        print(f"{prog}: error: {argv[1]}: cannot check ({exc.__class__.__name__}: {one_line(exc)})", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(run(sys.argv[1:]))
