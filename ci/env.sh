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

# The compiler cache's hits and misses since the call with "start" (one line, for CI's log):
#   desync_ccache_report start; <build>; desync_ccache_report "the CUDA build"
desync_ccache_report() {
  [ -n "${CMAKE_CXX_COMPILER_LAUNCHER:-}" ] || return 0
  local hits misses
  read -r hits misses < <(ccache --print-stats 2>/dev/null |
    awk -F'\t' '$1 ~ /^(direct|preprocessed)_cache_hit$/ {h += $2} $1 == "cache_miss" {m += $2} END {print h + 0, m + 0}')
  if [ "$1" = start ]; then
    _desync_ccache_at=($hits $misses)
  else
    printf '[ccache] %s: %d objects from the compiler cache, %d compiled (%s)\n' "$1" \
      $((hits - ${_desync_ccache_at[0]:-0})) $((misses - ${_desync_ccache_at[1]:-0})) "$CCACHE_DIR" >&2
  fi
}
