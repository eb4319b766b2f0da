# Sourced by the ci/ scripts: where the dependencies are and how mpiexec is called here.
# MPI launcher flags are configuration, never code. Open MPI (the default): root needs
# --allow-run-as-root, and more ranks than cores needs --oversubscribe. MPICH's Hydra launcher
# (DESYNC_MPI=mpich, preset mpich-release) runs as root and oversubscribes without flags, and
# rejects Open MPI's.
preflags=()
if [ "${DESYNC_MPI:-openmpi}" = openmpi ]; then
  preflags+=(--oversubscribe)
  [ "$(id -u)" -eq 0 ] && preflags+=(--allow-run-as-root)
fi
DESYNC_MPIEXEC_PREFLAGS=$(IFS=';'; echo "${preflags[*]}")
export DESYNC_MPIEXEC_PREFLAGS
# Open MPI opens its cm and ucx PMLs in every process's MPI_Init to see whether a fabric is there;
# cm's mtl components load libpsm2, whose start-up polls for an Omni-Path device for 0.2 s on a
# machine without one (strace: ~800 usleeps), so every `desync check` and every rank of a test
# paid 0.2 s of a 0.3 s start. Without an InfiniBand or Omni-Path device Open MPI selects ob1
# anyway (shared memory and TCP); naming it skips the probe: ctest's deck fuzzer and output
# estimate 149 s -> 75 s (docs/method.md section 31). Configuration of this kind of machine, never
# of the program; a value already set is kept, and a machine with a fabric is left alone.
if [ "${DESYNC_MPI:-openmpi}" = openmpi ] && ! ls /sys/class/infiniband/* /dev/hfi1* >/dev/null 2>&1; then
  export OMPI_MCA_pml=${OMPI_MCA_pml:-ob1}
fi
# The host presets as the ci/ scripts build them (the README's two commands, CI): up to 8 sources of
# a target compiled as one unit (CMAKE_UNITY_BUILD, as the CUDA presets always are), which pays
# the Kokkos, KokkosKernels, toml++ and fmt headers once per batch, not once per source: a build
# from an empty compiler cache takes 0.6-0.7 of the time (docs/method.md, section 31).
# DESYNC_UNITY=OFF: one unit per source, what `cmake --preset` alone gives a developer, whose edit
# then recompiles one source, not its batch, and which shows a source that lacks an #include its
# batch happened to provide. Every ci/ script passes the same value, so that one of them never
# reconfigures a build folder another has built.
DESYNC_UNITY=${DESYNC_UNITY:-ON}
# Kokkos' OpenMP backend warns without it; ranks may share cores here, so threads stay unbound.
export OMP_PROC_BIND=${OMP_PROC_BIND:-false}
DESYNC_PYTHON=${DESYNC_PYTHON:-/usr/bin/python3}

# A compiler cache for desync's own builds: ccache (a Debian package, ci/install-deps.sh), its
# files kept beside the dependencies ($DESYNC_CACHE/ccache), so that a machine which keeps the deps
# cache (CI's) recompiles only the sources a change touched. The clone's path does not enter the
# hash (base_dir, no hash_dir): a fresh clone elsewhere hits as well. nvcc reads NVCC_APPEND_FLAGS
# (the GPU kit's sm_90 code) from the environment, which ccache does not hash: it becomes the
# cache's namespace, so an object with other machine code is never taken. CMake (3.17 on) takes
# the launcher from the environment when a build folder is configured the first time.
# DESYNC_CCACHE=0: no compiler cache.
if [ "${DESYNC_CCACHE:-1}" != 0 ] && command -v ccache >/dev/null; then
  export CMAKE_CXX_COMPILER_LAUNCHER=ccache CMAKE_C_COMPILER_LAUNCHER=ccache
  export CCACHE_DIR=${CCACHE_DIR:-${DESYNC_CACHE:-$HOME/.cache/desync}/ccache}
  CCACHE_BASEDIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
  export CCACHE_BASEDIR CCACHE_NOHASHDIR=1 CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-3G}
  export CCACHE_NAMESPACE=${NVCC_APPEND_FLAGS:-}
fi

# The compiler cache's hit and miss counters, "HITS MISSES" (0 0 without the cache).
desync_ccache_counts() {
  [ -n "${CMAKE_CXX_COMPILER_LAUNCHER:-}" ] || { echo 0 0; return; }
  ccache --print-stats 2>/dev/null |
    awk -F'\t' '$1 ~ /^(direct|preprocessed)_cache_hit$/ {h += $2} $1 == "cache_miss" {m += $2} END {print h + 0, m + 0}'
}

# cmake --build --preset PRESET [ARGS...], then one line for CI's log: how many objects came from
# the compiler cache and how many were compiled.
desync_build() {
  local preset=$1 h0 m0 h1 m1
  read -r h0 m0 < <(desync_ccache_counts)
  cmake --build --preset "$@"
  read -r h1 m1 < <(desync_ccache_counts)
  [ -z "${CMAKE_CXX_COMPILER_LAUNCHER:-}" ] ||
    printf '[ccache] the %s build: %d objects from the compiler cache, %d compiled (%s)\n' "$preset" \
      $((h1 - h0)) $((m1 - m0)) "$CCACHE_DIR" >&2
}
