#!/usr/bin/env python3
"""The CUDA build compiles the TOML-reading files with the host compiler (nvcc cannot compile
toml++ 3.3's headers; cmake/DesyncTomlReaders.cmake, desync_toml_readers()). This holds only while

  1. exactly those translation units reach <toml++/...> through their includes (any other file,
     in miniapp/, tests/ or bench/, would go through nvcc and fail), and
  2. none of them reaches a Kokkos header (the host compiler without nvcc cannot compile Kokkos'
     CUDA headers).

  check_toml_host_only.py ROOT FILE...        (FILE: the listed sources, relative to ROOT/miniapp)
  check_toml_host_only.py ROOT --list LIST    (LIST: one absolute path a line, as the build writes it)

Follows quoted includes (resolved against miniapp/, backends/, the including file's folder and
tests/) recursively; exit 0 when both hold, 1 with the offending files otherwise.
"""
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.M)


def main():
    root = sys.argv[1]
    files = sys.argv[2:]
    if files[:1] == ["--list"]:
        with open(files[1], encoding="utf-8") as fh:
            files = [line.strip() for line in fh if line.strip()]
    listed = {os.path.normpath(os.path.join(root, "miniapp", f)) for f in files}
    search = [os.path.join(root, d) for d in ("miniapp", "backends", "tests")]
    memo = {}

    def reach(path, stack=()):
        """(reaches toml++, reaches Kokkos) for one file."""
        if path in memo:
            return memo[path]
        if path in stack:
            return (False, False)
        toml = kokkos = False
        with open(path, encoding="utf-8", errors="replace") as fh:
            text = fh.read()
        for kind, name in INCLUDE.findall(text):
            if kind == "<":
                toml |= name.startswith("toml++/")
                kokkos |= name.startswith("Kokkos") or name.startswith("KokkosBlas") or name.startswith("KokkosSparse")
                continue
            for base in [os.path.dirname(path)] + search:
                cand = os.path.normpath(os.path.join(base, name))
                if os.path.isfile(cand):
                    t, k = reach(cand, stack + (path,))
                    toml, kokkos = toml or t, kokkos or k
                    break
        memo[path] = (toml, kokkos)
        return memo[path]

    units = []
    for d in ("miniapp", "tests", "bench", "backends"):
        for dirpath, _, files in os.walk(os.path.join(root, d)):
            units += [os.path.normpath(os.path.join(dirpath, f)) for f in files if f.endswith(".cpp")]
    bad = []
    reaching = {u for u in units if reach(u)[0]}
    for u in sorted(reaching - listed):
        bad.append("%s includes toml++ but is not named by desync_toml_readers() (nvcc would compile it)" % os.path.relpath(u, root))
    for u in sorted(listed - reaching):
        bad.append("%s is named by desync_toml_readers() but does not include toml++ (drop it)" % os.path.relpath(u, root))
    for u in sorted(listed):
        if os.path.isfile(u) and reach(u)[1]:
            bad.append("%s is compiled host-only in the CUDA build but reaches a Kokkos header" % os.path.relpath(u, root))
    for line in bad:
        print("check_toml_host_only: " + line)
    print("check_toml_host_only: %d translation units, %d read TOML: %s" % (
        len(units), len(reaching), "ok" if not bad else "FAILED"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
