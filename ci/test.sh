#!/usr/bin/env bash
# The README's second command: installs what is missing, builds desync with its tests, runs ctest.
#   ci/test.sh [PRESET [CTEST ARGUMENTS...]]
#   PRESET: openmp-release (default), openmp-debug (ASan + UBSan), mpich-release (Debian's MPICH
#   and its parallel HDF5 instead of Open MPI; sets DESYNC_MPI=mpich). E.g. the MPI tests on
#   MPICH: ci/test.sh mpich-release -L mpi
set -euo pipefail
cd "$(dirname "$0")/.."
preset=${1:-openmp-release}
[ $# -gt 0 ] && shift
[ "$preset" = mpich-release ] && export DESYNC_MPI=mpich
prefix_line=$(ci/install-deps.sh | tail -n 1)
export "${prefix_line?}"
source ci/env.sh
cmake --preset "$preset" -DBUILD_TESTING=ON -DDESYNC_PYTHON="$DESYNC_PYTHON" -DCMAKE_UNITY_BUILD="$DESYNC_UNITY" >/dev/null
desync_build "$preset"
ctest --preset "$preset" -j "$(nproc)" "$@"
