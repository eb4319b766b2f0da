#!/usr/bin/env bash
# The README's first command: installs everything, builds desync, runs inputs/quickstart.toml on
# 4 ranks, measures its idle wave and draws it.
#   ci/quickstart.sh [DECK] [RANKS]
# Results land in results/: DECK.h5, DECK_heatmap.png (rank x iteration idle time: the wave is a
# diagonal), DECK_zoom.png (the timeline of iterations 17-27: the wave as a staircase) and
# DECK.png (the whole timeline).
set -euo pipefail
cd "$(dirname "$0")/.."
deck=${1:-inputs/quickstart.toml}
ranks=${2:-4}
prefix_line=$(ci/install-deps.sh | tail -n 1)
export "${prefix_line?}"
source ci/env.sh
cmake --preset openmp-release -DDESYNC_PYTHON="$DESYNC_PYTHON" -DCMAKE_UNITY_BUILD="$DESYNC_UNITY" >/dev/null
cmake --build --preset openmp-release --target desync
mkdir -p results
name=$(basename "$deck" .toml)
IFS=';' read -r -a flags <<<"$DESYNC_MPIEXEC_PREFLAGS"
OMP_NUM_THREADS=${OMP_NUM_THREADS:-1} mpiexec -n "$ranks" "${flags[@]}" \
  build/openmp-release/miniapp/desync run "$deck" -o "results/$name.h5" --force
"$DESYNC_PYTHON" tools/desync_view.py heatmap "results/$name.h5" -o "results/${name}_heatmap.png"
# The idle wave up close: the quickstart deck injects its delay at iteration 20.
"$DESYNC_PYTHON" tools/desync_view.py timeline "results/$name.h5" -o "results/${name}_zoom.png" --iterations 17:28
"$DESYNC_PYTHON" tools/desync_view.py timeline "results/$name.h5" -o "results/$name.png" --no-heatmap
"$DESYNC_PYTHON" tools/desync_view.py idlewave "results/$name.h5"  # exit 0 also when no wave stands out
echo "quickstart: results/$name.h5; pictures results/${name}_heatmap.png, results/${name}_zoom.png, results/$name.png"
