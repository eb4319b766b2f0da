#!/usr/bin/env bash
# The README's second command: installs what is missing, builds desync with its tests, runs ctest.
#   ci/test.sh [PRESET]     PRESET: openmp-release (default) or openmp-debug (ASan + UBSan)
set -euo pipefail
cd "$(dirname "$0")/.."
preset=${1:-openmp-release}
prefix_line=$(ci/install-deps.sh | tail -n 1)
export "${prefix_line?}"
source ci/env.sh
cmake --preset "$preset" -DBUILD_TESTING=ON -DDESYNC_PYTHON="$DESYNC_PYTHON" >/dev/null
cmake --build --preset "$preset"
ctest --preset "$preset" -j "$(nproc)"
