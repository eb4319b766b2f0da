#!/usr/bin/env bash
# The collective-overlap study (papers.md E, IPDPS 2019) simulated on platforms/stampede2.toml
# (issue 28; docs/method.md section 34): the collective micro-benchmark of Figs. 4-6 (4 nodes:
# blocking, nonblocking N_DUP 4, 4-PPN), SymmSquareCube Table I (three matrices x Algs. 3-5),
# Table II (1hsg_70, N_DUP 1-6), Table III (1hsg_70, PPN 1-8 x N_DUP 1 and 4) and Table V (the
# 2.5D algorithm on five meshes x N_DUP 1 and 4). Prints the
# numbers the section's tables hold; about 5 minutes on one core.
#   bench/simulate_collective_study.sh BUILD_DIR
# A SymmSquareCube rank of the study computes with MKL on its node's 48 cores (E.3): the platform
# is given one domain of 48 cores and each rank 48 / PPN threads, so that the products take the
# study's time (core.gemm_flops from E.4).
set -euo pipefail
build=$1
root=$(cd "$(dirname "$0")/.." && pwd)
desync="$build/miniapp/desync"
platform="$root/platforms/stampede2.toml"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
node48=(--pset node.sockets=1 --pset node.domains=1 --pset node.cores_per_domain=48)

echo "== collbench, 4 nodes (Figs. 4-6): bandwidth 2 (p - 1) n / p / time [MB/s]"
for mode in blocking nonblocking 4ppn; do
  "$desync" simulate "$root/inputs/paper/ipdps_collbench_$mode.toml" --platform "$platform" --ranks 16 \
    --pset placement.ranks_per_node=4 --pset placement.threads_per_rank=1 -o "$work/cb.h5" -f 2>&1 \
    | sed -n '/^collbench:/,$p' | sed "s/^/$mode: /"
done

call() {  # deck, ranks, extra args: prints "TFlop/s call-ms"
  "$desync" simulate "$root/inputs/paper/$1" --platform "$platform" --ranks "$2" "${node48[@]}" "${@:3}" \
    -o "$work/ssc.h5" -f 2>&1 | sed -n 's/.*call \([0-9.]*\) ms.*, \([0-9.]*\) TFlop\/s.*/\2 TFlop\/s (call \1 ms)/p'
}
echo "== SymmSquareCube Table I: 64 nodes, 1 PPN, 4 x 4 x 4, N_DUP 4 (optimized)"
for m in 1hsg45 1hsg60 1hsg70; do
  for a in original baseline optimized; do
    printf '%s %-9s %s\n' "$m" "$a" "$(call "ipdps_ssc_${m}_$a.toml" 64 --pset placement.threads_per_rank=48)"
  done
done
echo "== SymmSquareCube Table II: 1hsg_70, optimized, N_DUP 1-6"
for d in 1 2 3 4 5 6; do
  printf 'N_DUP %s %s\n' "$d" "$(call ipdps_ssc_1hsg70_optimized.toml 64 --pset placement.threads_per_rank=48 --set comm.communicators=$d)"
done
echo "== SymmSquareCube Table III: 1hsg_70, optimized, PPN x N_DUP (p^3 ranks, 48 / PPN threads each)"
for row in "1 4" "2 5" "4 6" "6 7" "8 8"; do
  set -- $row
  for d in 1 4; do
    printf 'PPN %s mesh %s^3 N_DUP %s %s\n' "$1" "$2" "$d" "$(call ipdps_ssc_1hsg70_optimized.toml $(($2 * $2 * $2)) \
      --pset placement.ranks_per_node=$1 --pset placement.threads_per_rank=$((48 / $1)) --set comm.communicators=$d)"
  done
done
echo "== SymmSquareCube Table V: 1hsg_70, 2.5D, mesh q x q x c, PPN x N_DUP"
for row in "8x8x2 2" "9x9x3 4" "4x4x4 1" "8x8x4 4" "16x16x2 8"; do
  set -- $row
  q=${1%%x*} c=${1##*x}
  for d in 1 4; do
    printf '%s PPN %s N_DUP %s %s\n' "$1" "$2" "$d" "$(call "ipdps_ssc_1hsg70_25d_$1.toml" $((q * q * c)) \
      --pset placement.ranks_per_node=$2 --pset placement.threads_per_rank=$((48 / $2)) --set comm.communicators=$d)"
  done
done
