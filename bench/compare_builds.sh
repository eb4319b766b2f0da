#!/usr/bin/env bash
# The ratios of bench_spmv, bench_chebfd, bench_comm and bench_stencil of two builds, side by side
# in one run (issue 33: a restructuring must leave them unchanged within noise). Each bench runs
# old, new, old, new, so a slow moment of the machine hits both; each prints its own ratios
# against its own reference, which is what is compared (never absolute times).
#   bench/compare_builds.sh OLD_BIN_DIR NEW_BIN_DIR     (folders holding the bench_* binaries)
# Environment: MPIEXEC (default mpiexec), MPIEXEC_PREFLAGS (e.g. "--oversubscribe --allow-run-as-root").
set -euo pipefail
old=$1 new=$2
mpi=(${MPIEXEC:-mpiexec} ${MPIEXEC_PREFLAGS:-})
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-1} OMP_PROC_BIND=${OMP_PROC_BIND:-false}
run() {  # label command...
  local label=$1; shift
  printf '%s\n' "--- $label"
  "$@" 2>&1 | grep -Ei 'ratio|/triad|roof|fused/|^ +[0-9]+ +[0-9]+ ' || true
}
for round in 1 2; do
  for side in old new; do
    dir=$old; [ "$side" = new ] && dir=$new
    run "bench_spmv ($side, round $round)" "$dir/bench_spmv" --grid 1500 --reps 5
    run "bench_chebfd ($side, round $round)" "$dir/bench_chebfd" --bytes 20000000 --reps 3
    run "bench_comm ($side, round $round)" "${mpi[@]}" -n 2 "$dir/bench_comm" --exchanges 2000 --rounds 3
    run "bench_stencil ($side, round $round)" "${mpi[@]}" -n 2 "$dir/bench_stencil" --n 512 --steps 20 --ca-n 256
  done
done
