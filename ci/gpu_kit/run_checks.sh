#!/usr/bin/env bash
# The GPU kit's checks (issue 32; docs/gpu_kit.md), run from inside a kit folder packed by
# ci/gpu_kit.sh, on a machine that has nothing of desync's dependencies:
#   run_checks.sh OUTDIR [--quick] [--only tests|decks|benches|info]...
# Writes into OUTDIR: logs/ (one log per item), h5/ (each deck run's file), items.tsv (one line
# per item: kind, name, ranks, variant, exit code, seconds, log, file) and report.json (pass/fail
# per item, the decks' fingerprints and their agreement with the kit's CPU reference, the
# benchmarks' ratios, device, driver, times; written by kit_report.py), and prints the report's
# summary. Exit code 0 when every item passed.
#   --quick  smaller benchmark sizes (the OpenMP twin in CI: only that they run, not their numbers)
# Environment: KIT_ITEM_TIMEOUT (default 180 s per item), KIT_PYTHON (default python3: a Python
# with numpy and h5py; without h5py the report lacks the decks' fingerprints).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
[ $# -ge 1 ] || { echo "usage: run_checks.sh OUTDIR [--quick] [--only tests|decks|benches|info]..." >&2; exit 2; }
out=$(mkdir -p "$1" && cd "$1" && pwd)
shift
quick=0
only=()
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) quick=1 ;;
    --only) only+=("$2"); shift ;;
    *) echo "run_checks.sh: unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done
wanted() { [ ${#only[@]} -eq 0 ] && return 0; local o; for o in "${only[@]}"; do [ "$o" = "$1" ] && return 0; done; return 1; }
# The payload (bin/, lib/, decks/; ci/gpu_kit.sh) unpacked once into a folder of its own:
# KIT_UNPACK_DIR, default OUTDIR/kit. tar with xz where the node has it, else Python's tarfile.
kit=${KIT_UNPACK_DIR:-$out/kit}
if [ ! -x "$kit/bin/desync" ]; then
  mkdir -p "$kit"
  if ! (command -v xz >/dev/null && tar -C "$kit" -xJf "$here/payload.tar.xz"); then
    ${KIT_PYTHON:-python3} -c 'import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])' \
      "$here/payload.tar.xz" "$kit" || { echo "run_checks: cannot unpack $here/payload.tar.xz" >&2; exit 2; }
  fi
fi
cp "$here/KIT_INFO" "$kit/KIT_INFO"
item_timeout=${KIT_ITEM_TIMEOUT:-180}
python=${KIT_PYTHON:-python3}
mkdir -p "$out/logs" "$out/h5"
: > "$out/items.tsv"
t_start=$(date +%s)

# The kit's programs find the kit's libraries; nothing else (Python, nvidia-smi) sees them, since a
# foreign libstdc++ or HDF5 in LD_LIBRARY_PATH could break those.
kitenv() {
  LD_LIBRARY_PATH="$kit/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" PATH="$kit/bin:$PATH" \
    OMP_PROC_BIND=false OMP_NUM_THREADS=${OMP_NUM_THREADS:-2} "$@"
}
# Hydra on one node: fork, no ssh; each rank one OpenMP thread unless the item says otherwise.
kmpirun() { local np=$1; shift; kitenv "$kit/bin/mpiexec" -launcher fork -n "$np" "$@"; }
# The direct exchange's runs (GPU-aware MPI from the registries; docs/gpu_kit.md): the kit's
# CUDA-aware UCX (lib/ucx-cuda, PyPI's libucx-cu13) in front of Debian's, and MPICH's own
# shared-memory path off (MPIR_CVAR_NOLOCAL=1: its copies would read a device pointer with the
# CPU), so every message goes through UCX, whose cuda_copy and cuda_ipc transports move device
# memory. MPICH then sees every rank as a node of its own (desync's node layout too).
kitenv_ucx() {
  LD_LIBRARY_PATH="$kit/lib/ucx-cuda:$kit/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" PATH="$kit/bin:$PATH" \
    MPIR_CVAR_NOLOCAL=1 OMP_PROC_BIND=false OMP_NUM_THREADS=${OMP_NUM_THREADS:-2} "$@"
}
kmpirun_ucx() { local np=$1; shift; kitenv_ucx "$kit/bin/mpiexec" -launcher fork -n "$np" "$@"; }
# item runs commands under timeout, in a new bash: the helpers and the kit folder go with it.
export kit
export -f kitenv kmpirun kitenv_ucx kmpirun_ucx

# item KIND NAME RANKS VARIANT H5 -- COMMAND...: runs the command under a time limit, logs it.
item() {
  local kind=$1 name=$2 np=$3 variant=$4 h5=$5
  shift 6
  local logf="logs/${kind}_${name}_np${np}${variant:+_$variant}.log"
  local t0 rc
  t0=$(date +%s.%N)
  printf '%-8s %-34s np=%s %-10s ' "$kind" "$name" "$np" "$variant"
  (cd "$out" && timeout -k 10 "$item_timeout" bash -c '"$@"' item "$@") > "$out/$logf" 2>&1
  rc=$?
  local dt
  dt=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN {printf "%.2f", b - a}')
  [ $rc -eq 124 ] && echo "run_checks: killed after ${item_timeout} s" >> "$out/$logf"
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$kind" "$name" "$np" "$variant" "$rc" "$dt" "$logf" "$h5" >> "$out/items.tsv"
  if [ $rc -eq 0 ]; then echo "ok ($dt s)"; else echo "FAILED rc=$rc ($dt s): $logf"; fi
}

# The machine: what the report names (device, driver); nvidia-smi is the driver's, if present.
{
  echo "kit: $(tr '\n' ' ' < "$kit/KIT_INFO")"
  echo "host: $(uname -n) $(uname -r) $(nproc) cpus"
  command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version,memory.total,pci.bus_id,uuid --format=csv,noheader
} > "$out/machine.txt" 2>&1

if wanted info; then
  item info desync_info 1 "" "" -- kitenv "$kit/bin/desync" info
  # Self-containment where it runs: every library of every program resolves (the CUDA driver's
  # libcuda comes from the node); "not found" for anything else fails the item.
  item info libraries 1 "" "" -- "$here/missing_libs.sh" "$kit"
  # The transports the kit's CUDA-aware UCX finds here: cuda_copy and cuda_ipc on a GPU node.
  item info ucx_cuda_transports 1 "" "" -- kitenv_ucx "$kit/bin/ucx_info" -d
fi

# Test programs (gtest) and the rank counts they run at here, 1 and 2 where the test allows them
# (tests/CMakeLists.txt registers the same programs at these and more counts).
TESTS="test_triad_kernels:1 test_triad_run:1,2 test_spmv:1,2 test_local_matrix:1,2 test_sell_matrix:1 test_sell_mapping:1 test_chebfd_elements:1 test_chebfd:1,2
test_chebfd_bounds:1,2 test_stencil:1,2 test_cg:1,2 test_comm_options:1,2 test_gpu_aware:1,2 test_symmsquarecube:1 test_ssc_projection:1
test_collective_workloads:2 test_labels:1 test_h5_roundtrip:1,2"
if wanted tests; then
  for t in $TESTS; do
    name=${t%%:*}
    for np in ${t#*:}; do
      np=${np//,/ }
      for n in $np; do
        OMP_NUM_THREADS=1 item test "$name" "$n" "" "" -- kmpirun "$n" "$kit/bin/$name" --gtest_color=no
      done
    done
  done
fi

# Every deck at its rank counts, with [comm] gpu_aware_mpi = "off" (device buffers staged through
# pinned host memory) and "auto" (device pointers to MPI when the library says it can take them;
# Debian's MPICH says it cannot, so "auto" is staged), the halo exchanges also "ucx_off"/"ucx_on";
# the triad's messages are host memory, so it runs once, as the deck says ("default"). A deck's
# own process grid is set to fit the rank count (the stencil's px, py automatic; CG's box grid).
DECKS="triad_core_bound.toml:1,2 spmv_hhq_small_pe.toml:1,2 spmv_spin_nonsplit_barrier.toml:1,2
spmv_hhq_small_pe.toml@sell:1,2 chebfd_spin_small.toml:1,2 chebfd_topi_sell_small.toml:1,2 stencil_base_512.toml:1,2
stencil_ca_512.toml:1,2 cg_minife_small.toml:1,2 matvec2d_small.toml:1,4 symmsquarecube_small.toml:1,8"
# Point-to-point halo exchanges only: MPICH reduces a collective's device buffers on the CPU.
UCX_DECKS="spmv_hhq_small_pe chebfd_spin_small stencil_base_512 cg_minife_small"
if wanted decks; then
  for d in $DECKS; do
    spec=${d%%:*}
    deck=${spec%%@*}
    tag=${deck%.toml}
    [ "$spec" != "$deck" ] && tag=${tag}_${spec#*@}
    for np in ${d#*:}; do
      np=${np//,/ }
      for n in $np; do
        extra=()
        [ "${spec#*@}" = sell ] && extra+=(--set matrix.format=sell)
        case "$tag" in
          stencil_*) extra+=(--set stencil.px=0 --set stencil.py=0) ;;
          cg_*) extra+=(--set "matrix.minife.grid=[$n, 1, 1]") ;;
        esac
        variants="off auto"
        case "$tag" in triad_*) variants=default ;; esac
        # the halo-exchange workloads at 2 ranks also through the CUDA-aware UCX (kmpirun_ucx):
        # staged (ucx_off) against direct (ucx_on, device buffers handed to MPI), side by side
        case " $UCX_DECKS " in *" $tag "*) [ "$n" = 2 ] && variants="$variants ucx_off ucx_on" ;; esac
        for g in $variants; do
          h5="h5/${tag}_np${n}_${g}.h5"
          gset=() run=kmpirun
          case "$g" in
            default) ;;
            ucx_*) gset=(--set comm.gpu_aware_mpi=${g#ucx_}) run=kmpirun_ucx ;;
            *) gset=(--set comm.gpu_aware_mpi=$g) ;;
          esac
          OMP_NUM_THREADS=1 item deck "$tag" "$n" "$g" "$h5" -- $run "$n" "$kit/bin/desync" run "$kit/decks/$deck" \
            "${gset[@]}" "${extra[@]}" -o "$h5" --force
        done
      done
    done
  done
fi

# Benchmarks: the device triad is the roofline; SpMV (CRS and SELL), the fused ChebFD step and the
# stencil sweep are printed against it by each benchmark itself; the exchange layer against raw MPI.
if wanted benches; then
  if [ "$quick" = 1 ]; then
    item bench bench_triad 1 "" "" -- kmpirun 1 "$kit/bin/bench_triad" --size 2000000 --reps 3
    item bench bench_spmv 1 stencil5 "" -- kmpirun 1 "$kit/bin/bench_spmv" --grid 300 --reps 2
    item bench bench_spmv 1 topi "" -- kmpirun 1 "$kit/bin/bench_spmv" --matrix topi --size 6 --chunk 4 --sigma 16 --reps 2
    item bench bench_chebfd 1 "" "" -- kmpirun 1 "$kit/bin/bench_chebfd" --bytes 2000000 --reps 2 --launch-sweep 1
    item bench bench_stencil 1 "" "" -- kmpirun 1 "$kit/bin/bench_stencil" --n 64 --steps 3 --ca-n 48
    item bench bench_comm 2 "" "" -- kmpirun 2 "$kit/bin/bench_comm" --exchanges 50 --rounds 2
    item bench bench_halo 2 staged "" -- kmpirun 2 "$kit/bin/bench_halo" --exchanges 20 --rounds 2 --max-bytes 65536 --direct 0
    item bench bench_halo 2 ucx "" -- kmpirun_ucx 2 "$kit/bin/bench_halo" --exchanges 20 --rounds 2 --max-bytes 65536
  else
    item bench bench_triad 1 "" "" -- kmpirun 1 "$kit/bin/bench_triad" --size 100000000 --reps 20
    item bench bench_spmv 1 stencil5 "" -- kmpirun 1 "$kit/bin/bench_spmv" --reps 20
    item bench bench_spmv 1 topi "" -- kmpirun 1 "$kit/bin/bench_spmv" --matrix topi --reps 20
    # C = 32: a warp per chunk under the row-per-item mapping (docs/gpu_kit.md)
    item bench bench_spmv 1 stencil5_c32 "" -- kmpirun 1 "$kit/bin/bench_spmv" --chunk 32 --sigma 128 --reps 20
    item bench bench_spmv 1 topi_c32 "" -- kmpirun 1 "$kit/bin/bench_spmv" --matrix topi --chunk 32 --sigma 128 --reps 20
    item bench bench_chebfd 1 c32 "" -- kmpirun 1 "$kit/bin/bench_chebfd" --chunk 32 --sigma 128 --reps 10
    # --launch-sweep: the element mapping's launch shapes side by side (team size, waves, elements in flight)
    item bench bench_chebfd 1 "" "" -- kmpirun 1 "$kit/bin/bench_chebfd" --reps 10 --launch-sweep 1
    item bench bench_stencil 1 "" "" -- kmpirun 1 "$kit/bin/bench_stencil" --n 4096
    item bench bench_comm 2 "" "" -- kmpirun 2 "$kit/bin/bench_comm"
    # device buffers exchanged staged against direct, 8 KiB - 8 MiB: the direct path through the
    # kit's CUDA-aware UCX (kmpirun_ucx); Debian's MPICH alone times the staged path only
    item bench bench_halo 2 staged "" -- kmpirun 2 "$kit/bin/bench_halo" --direct 0
    item bench bench_halo 2 ucx "" -- kmpirun_ucx 2 "$kit/bin/bench_halo"
  fi
fi

echo "run_checks: $(($(date +%s) - t_start)) s in all; report:"
"$python" "$here/kit_report.py" --kit "$here" --out "$out" --seconds $(($(date +%s) - t_start))
