# desync's Spack recipe (docs/install.md). The repository it sits in is added with
# `spack repo add <checkout>/spack`; `desync@main` is built from the git checkout that holds
# this file (desync has no release tarball yet), so a user's own clone is what gets installed.
import os

from spack.package import *  # noqa: F401,F403  (version, variant, depends_on, conflicts, ...)

try:  # Spack >= 1.0 keeps the build-system classes in its builtin repository
    from spack_repo.builtin.build_systems.cmake import CMakePackage
    from spack_repo.builtin.build_systems.cuda import CudaPackage
except ImportError:  # Spack 0.x exports them from spack.package (imported above)
    pass

_checkout = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))


class Desync(CMakePackage, CudaPackage):
    """Performance-portable MPI+Kokkos mini-app that reproduces how parallel programs fall out of
    lock-step: idle waves, computational wavefronts, and their interaction with communication
    schemes (STREAM triad, SpMV, ChebFD, stencils, CG, collectives), with per-rank timelines in
    one HDF5 file and Python tools to analyse them."""

    homepage = "file://" + _checkout
    git = "file://" + _checkout

    version("main", branch="main")

    variant("openmp", default=True, description="Kokkos' OpenMP backend on the host (the default execution space without +cuda)")
    variant("simgrid", default=True, description="`desync simulate` on SimGrid (the simulation engine)")
    variant("tools", default=True, description="Python run dependencies of the analysis tools (desync-view, desync-campaign)")
    variant("benchmarks", default=False, description="Build the benchmarks in bench/ (not installed)")

    depends_on("cxx", type="build")
    depends_on("c", type="build")
    depends_on("cmake@3.20:", type="build")
    depends_on("pkgconfig", type="build")

    # Kokkos 3.4 (Debian's trilinos sources, desync's CI) and 4.x (what Spack provides) both work.
    depends_on("kokkos@3.4:")
    depends_on("kokkos+openmp", when="+openmp")
    depends_on("kokkos+serial")
    depends_on("kokkos+cuda+cuda_lambda+wrapper", when="+cuda")
    depends_on("kokkos-kernels@3.4:")
    depends_on("kokkos-kernels+openmp", when="+openmp")
    depends_on("kokkos-kernels+cuda", when="+cuda")
    depends_on("kokkos-kernels scalars=double,complex_double")
    for _arch in CudaPackage.cuda_arch_values:
        depends_on(f"kokkos cuda_arch={_arch}", when=f"+cuda cuda_arch={_arch}")

    depends_on("mpi")
    depends_on("hdf5+mpi")  # the run file is written collectively (parallel HDF5 is required)
    depends_on("hwloc")  # memory domains, cache sizes, binding checks (required)
    depends_on("tomlplusplus")
    depends_on("cli11")
    depends_on("fmt")
    depends_on("simgrid@3.32:", when="+simgrid")
    depends_on("jemalloc", when="+simgrid")  # the simulator's many small objects: 1.5x faster on it
    depends_on("googletest", type="test")

    depends_on("python@3.9:", type="run", when="+tools")
    for _py in ("py-numpy", "py-scipy", "py-h5py", "py-matplotlib", "py-scikit-learn"):
        depends_on(_py, type="run", when="+tools")

    def cmake_args(self):
        spec = self.spec
        args = [
            self.define("Kokkos_ROOT", spec["kokkos"].prefix),
            self.define("KokkosKernels_ROOT", spec["kokkos-kernels"].prefix),
            self.define_from_variant("desync_ENABLE_SIMGRID", "simgrid"),
            self.define_from_variant("desync_WITH_JEMALLOC", "simgrid"),
            self.define_from_variant("desync_ENABLE_BENCHMARKS", "benchmarks"),
            self.define("desync_REQUIRE_OPENMP", spec.satisfies("+openmp") and not spec.satisfies("+cuda")),
            self.define("BUILD_TESTING", self.run_tests),
        ]
        if spec.satisfies("+cuda"):
            # nvcc_wrapper, as Kokkos' CUDA build requires of its users
            args.append(self.define("CMAKE_CXX_COMPILER", spec["kokkos"].kokkos_cxx))
        if spec.satisfies("+tools"):
            args.append(self.define("DESYNC_PYTHON", spec["python"].command.path))
        return args
