#!/usr/bin/env python3
"""The layout check catches what it claims to: a real run's file passes tools/check_output_layout.py,
and copies of it, each with one thing added or taken away, fail it with the problem named.

    output_layout_mutations.py DOC FILE WORKDIR

The copies: a root attribute, a group and an attribute of a dataset that docs/output.md does not
have (added); a root attribute, the first documented dataset of every section present in the
file, and every optional row that names the file's workload and nothing else (taken away).
Exit status 0 when the file passes and every copy fails with its problem listed, 1 otherwise."""
import contextlib
import io
import os
import shutil
import sys

import h5py

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
import check_output_layout as layout  # noqa: E402


def problems_of(doc, path):
    """(exit status, printed lines) of the check on path."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = layout.main(doc, path)
    return status, out.getvalue().splitlines()


def mutations(doc, path):
    """(what, change(f), the problem line's text) for the file at path."""
    rows = list(layout.documented(doc))
    with h5py.File(path, "r") as f:
        workload = None if "simulated" in f.attrs else layout.file_workload(f)
        present = [f"{g}/{n}".strip("/") for g, names, _, _ in rows if g for n in names
                   if f"{g}/{n}".strip("/") in f and isinstance(f[f"{g}/{n}".strip("/")], h5py.Dataset)]
        required_rows = [f"{g}/{n}".strip("/") for g, names, row, opt in rows if g and opt == "row"
                         and workload in layout.required_for(row) for n in names]
        sections = sorted({g.strip("/") for g, _, _, _ in rows if g and g.strip("/") in f})
    out = [("an undocumented root attribute", lambda f: f.attrs.create("not_in_the_doc", 1),
            "root attribute not_in_the_doc is in the file"),
           ("an undocumented group", lambda f: f.create_group("not_in_the_doc"), "group /not_in_the_doc"),
           ("a root attribute taken away", lambda f: f.attrs.__delitem__("iterations_planned"),
            "root attribute iterations_planned missing")]
    if present:
        out.append(("an undocumented attribute of a dataset",
                    lambda f, p=present[0]: f[p].attrs.create("not_in_the_doc", 1),
                    f"attribute not_in_the_doc of /{present[0]}"))
    for s in sections:  # the first documented dataset of each section the file has
        first = next((p for p in present if p.rsplit("/", 1)[0] == s), None)
        if first and first != "timeline/events":  # events give sizes: its loss is said otherwise
            out.append((f"/{first} taken away", lambda f, p=first: f.__delitem__(p), f"/{first} missing"))
    for p in required_rows:
        if p in present:
            out.append((f"/{p} taken away ({workload})", lambda f, p=p: f.__delitem__(p), f"/{p} missing"))
    return out


def main(argv):
    if len(argv) != 3:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    doc, path, work = argv
    status, lines = problems_of(doc, path)
    if status != 0:
        print("the intact file fails the check:\n  " + "\n  ".join(lines))
        return 1
    os.makedirs(work, exist_ok=True)
    failed = 0
    cases = mutations(doc, path)
    for i, (what, change, expect) in enumerate(cases):
        copy = os.path.join(work, f"mutant_{i}.h5")
        shutil.copyfile(path, copy)
        with h5py.File(copy, "r+") as f:
            change(f)
        status, lines = problems_of(doc, copy)
        if status != 1 or not any(expect in line for line in lines):
            failed += 1
            print(f"not caught: {what} (exit {status}; expected a line with {expect!r})")
        os.remove(copy)
    print(f"{len(cases) - failed} of {len(cases)} changes caught by the layout check")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
