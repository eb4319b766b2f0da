#!/usr/bin/env python3
"""Static checks of desync's Spack recipe (spack/packages/desync/package.py) without Spack:
it is valid Python, its directives load against a stand-in `spack.package`, every package it
depends on is one Spack has (names checked against Spack's builtin repository, listed below with
the variants desync asks of them), every `when=` names a variant the recipe declares, and
cmake_args() gives the expected definitions for the OpenMP and the CUDA build.
Usage: check_spack_recipe.py RECIPE   (exit 1 with the problems on stderr)
       check_spack_recipe.py --self-test RECIPE   (a misspelt dependency must be caught)"""
import ast
import re
import sys
import types

# Spack package names (builtin repository, var/spack/repos/builtin/packages/<name>; virtuals
# marked) and the variants of each that desync's recipe may request.
SPACK_PACKAGES = {
    "c": set(), "cxx": set(),  # language virtuals (Spack >= 0.23)
    "cmake": set(), "pkgconfig": set(),  # pkgconfig: virtual (pkgconf, pkg-config)
    "kokkos": {"openmp", "serial", "cuda", "cuda_lambda", "wrapper", "cuda_arch"},
    "kokkos-kernels": {"openmp", "cuda", "scalars"},
    "mpi": set(),  # virtual (openmpi, mpich, intel-oneapi-mpi, cray-mpich, mvapich2, ...)
    "hdf5": {"mpi"}, "hwloc": set(), "tomlplusplus": set(), "cli11": set(), "fmt": set(),
    "simgrid": set(), "jemalloc": set(), "googletest": set(), "python": set(),
    "py-numpy": set(), "py-scipy": set(), "py-h5py": set(), "py-matplotlib": set(), "py-scikit-learn": set(),
}
CUDA_ARCHS = ["60", "70", "80", "90", "100"]

problems = []
calls = {"version": [], "variant": [], "depends_on": [], "conflicts": []}


def directive(kind):
    def record(*args, **kwargs):
        calls[kind].append((args, kwargs))
    return record


class Define:
    def define(self, name, value):
        v = ("ON" if value else "OFF") if isinstance(value, bool) else str(value)
        return f"-D{name}={v}"

    def define_from_variant(self, name, variant):
        return self.define(name, self.spec.satisfies("+" + variant))


class CMakePackage(Define):
    pass


class CudaPackage:
    cuda_arch_values = CUDA_ARCHS


stub = types.ModuleType("spack.package")
for kind in calls:
    setattr(stub, kind, directive(kind))
for name in ("patch", "license", "maintainers", "requires", "provides", "resource"):
    setattr(stub, name, lambda *a, **k: None)
stub.CMakePackage, stub.CudaPackage = CMakePackage, CudaPackage
stub.__all__ = [n for n in vars(stub) if not n.startswith("_")]
sys.modules["spack"] = types.ModuleType("spack")
sys.modules["spack.package"] = stub


def names_in(spec):
    """Package names of a spec string ('kokkos+cuda cuda_arch=90 ^cuda@12:' -> kokkos, cuda)."""
    out = []
    for token in re.split(r"[\s^]+", spec.strip()):
        if token and "=" not in token and token[0] not in "+~@%":
            out.append(re.split(r"[@+~%]", token, maxsplit=1)[0])
    return out


def variants_in(spec):
    return re.findall(r"\+(\w+)", spec) + re.findall(r"~(\w+)", spec) + re.findall(r"(\w+)=", spec)


def main(path, source):
    ast.parse(source, path)
    module = {"__file__": path, "__name__": "desync_recipe"}
    exec(compile(source, path, "exec"), module)
    cls = module.get("Desync")
    if cls is None:
        problems.append("no class Desync")
        return
    declared = {args[0] for args, _ in calls["variant"]} | {"cuda", "cuda_arch"}  # CudaPackage's
    if not calls["version"]:
        problems.append("no version()")
    for args, kwargs in calls["depends_on"]:
        spec = args[0]
        names = names_in(spec)
        if not names:
            problems.append(f"depends_on({spec!r}): no package name")
        for n in names:
            if n not in SPACK_PACKAGES:
                problems.append(f"depends_on({spec!r}): {n!r} is not a Spack package this check knows")
        for v in variants_in(spec):
            if names and v not in SPACK_PACKAGES.get(names[0], set()):
                problems.append(f"depends_on({spec!r}): variant {v!r} of {names[0]} not known")
        when = kwargs.get("when", "")
        for v in variants_in(when):
            if v not in declared:
                problems.append(f"depends_on({spec!r}, when={when!r}): undeclared variant {v!r}")
        kind = kwargs.get("type")
        if kind and kind not in ("build", "link", "run", "test") and not isinstance(kind, tuple):
            problems.append(f"depends_on({spec!r}): bad type {kind!r}")

    class Spec:
        def __init__(self, on):
            self.on = on

        def satisfies(self, s):
            return all(v in self.on for v in re.findall(r"\+(\w+)", s))

        def __getitem__(self, name):
            dep = types.SimpleNamespace(prefix=f"/spack/{name}", kokkos_cxx="/spack/kokkos/bin/nvcc_wrapper")
            dep.command = types.SimpleNamespace(path="/spack/python/bin/python3")
            return dep

    for on, expect, absent in (({"openmp", "simgrid", "tools"}, ["-Ddesync_REQUIRE_OPENMP=ON", "-Ddesync_ENABLE_SIMGRID=ON",
                                                                 "-DDESYNC_PYTHON=/spack/python/bin/python3"],
                                ["-DCMAKE_CXX_COMPILER"]),
                               ({"cuda"}, ["-DCMAKE_CXX_COMPILER=/spack/kokkos/bin/nvcc_wrapper", "-Ddesync_REQUIRE_OPENMP=OFF",
                                           "-Ddesync_ENABLE_SIMGRID=OFF"], [])):
        pkg = cls.__new__(cls)
        pkg.spec, pkg.run_tests = Spec(on), False
        args = pkg.cmake_args()
        for e in expect:
            if e not in args:
                problems.append(f"cmake_args() with {sorted(on)}: {e} missing in {args}")
        for a in absent:
            if any(x.startswith(a) for x in args):
                problems.append(f"cmake_args() with {sorted(on)}: unexpected {a}")


if __name__ == "__main__":
    if sys.argv[1] == "--self-test":
        text = open(sys.argv[2]).read()
        if 'depends_on("cli11")' not in text:
            sys.exit("self-test: the recipe has no depends_on(\"cli11\") to misspell")
        main(sys.argv[2], text.replace('depends_on("cli11")', 'depends_on("cli-11")'))
        caught = any("'cli-11' is not a Spack package" in p for p in problems)
        print("self-test: misspelt dependency " + ("caught" if caught else "NOT caught"))
        sys.exit(0 if caught else 1)
    main(sys.argv[1], open(sys.argv[1]).read())
    for p in problems:
        print("spack recipe: " + p, file=sys.stderr)
    if not problems:
        print(f"spack recipe: {len(calls['depends_on'])} dependencies, {len(calls['variant'])} variants: ok")
    sys.exit(1 if problems else 0)
