#!/usr/bin/env bash
# The GPU run kit (issue 32; docs/gpu_kit.md): desync's CUDA build packed into one folder that runs
# on a bare x86-64 GPU node (only the NVIDIA driver and CUDA runtime there), with its checks in
# one script, run_checks.sh. The same script packs an OpenMP twin from the MPICH build, which runs
# the same checks here; its deck results are the kit's CPU reference.
#
#   ci/gpu_kit.sh [cuda|openmp|both] [--out DIR] [--no-build] [--all-targets] [--chroot]
#     cuda     the CUDA kit: preset cuda-mpich-release, sm_80 + sm_90 machine code, into DIR/cuda
#     openmp   the OpenMP twin: preset mpich-release, into DIR/openmp
#     both     (default) the twin, then the kit, the twin's reference copied into the kit
#     --out    where the kits go (default: gpu-kit/ in the repository root, ignored by git)
#     --no-build  pack what the build folders hold
#     --all-targets  build every target of both presets, not only the kit's (CI: the whole CUDA
#              build stays compile-checked)
#     --chroot proof without a GPU (item 3 of the issue): a bare Debian chroot (debootstrap
#              --variant=minbase, cached) in which both kits' libraries must resolve (ldd: nothing
#              missing but the CUDA driver), and in which the twin's run_checks.sh must produce a
#              complete, green report; its deck results become the kit's reference.
#
# Environment: as ci/install-deps.sh (DESYNC_JOBS, DESYNC_CACHE, DESYNC_SKIP_APT); nvcc on PATH,
# in CUDA_HOME or /usr/local/cuda. DESYNC_KIT_MAX_MIB (default 48): the size a kit may have.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
t0=$SECONDS
what=both out=$root/gpu-kit build=1 chroot=0 all=0
while [ $# -gt 0 ]; do
  case "$1" in
    cuda | openmp | both) what=$1 ;;
    --out) out=$(realpath -m "$2"); shift ;;
    --no-build) build=0 ;;
    --all-targets) all=1 ;;
    --chroot) chroot=1 ;;
    *) printf 'gpu_kit.sh: unknown argument %s (see the header of ci/gpu_kit.sh)\n' "$1" >&2; exit 2 ;;
  esac
  shift
done
max_mib=${DESYNC_KIT_MAX_MIB:-48}
log() { printf '[gpu_kit] %s\n' "$*" >&2; }

# What the kit holds: desync, the test programs that run device code (kernels, device views,
# staging of device buffers) and the benchmarks of run_checks.sh. Keep in step with the TESTS
# table of ci/gpu_kit/run_checks.sh.
tests=(test_triad_kernels test_triad_run test_spmv test_local_matrix test_sell_matrix test_sell_mapping test_chebfd_elements test_chebfd test_chebfd_bounds
       test_stencil test_cg test_comm_options test_gpu_aware test_symmsquarecube test_ssc_projection test_collective_workloads test_labels
       test_h5_roundtrip)
benches=(bench_triad bench_spmv bench_chebfd bench_stencil bench_comm bench_halo)
# The decks run_checks.sh runs (small ones, seconds each at 1 and 2 ranks).
decks=(inputs/triad/core_bound.toml inputs/spmv/hhq_small_pe.toml inputs/spmv/spin_nonsplit_barrier.toml
       inputs/chebfd/spin_small.toml inputs/chebfd/topi_sell_small.toml inputs/stencil/base_512.toml
       inputs/stencil/ca_512.toml inputs/cg/minife_small.toml inputs/matvec2d/small.toml
       inputs/symmsquarecube/small.toml)

# A CUDA-aware UCX from PyPI for the direct (GPU-aware) halo exchange: RAPIDS' libucx-cu13 wheel,
# UCX 1.22 built with CUDA 13 (transports cuda_copy and cuda_ipc beside the host ones). Debian's
# MPICH is built on UCX (ch4:ucx) and hands a contiguous buffer to UCX as it is, so with this UCX in
# front of Debian's 1.13 (the same libucp.so.0 ABI) and MPICH's own shared-memory path off, MPI
# moves device memory (docs/gpu_kit.md, "GPU-aware MPI from the registries"). Pinned by hash;
# downloaded once into the cache; the kit carries it in lib/ucx-cuda/ next to Debian's UCX.
ucx_cuda_wheel="libucx-cu13==1.22.0"
ucx_cuda_sha256=c6e0aaa82dc6e49dc3ddaac465b530e014f48b6c1c6b5ae74fbdd199d824351b
fetch_ucx_cuda() {
  local dir=${DESYNC_CACHE:-$HOME/.cache/desync}/${ucx_cuda_wheel/==/-}
  if [ ! -f "$dir/.complete" ]; then
    log "fetching $ucx_cuda_wheel from PyPI (a CUDA-aware UCX; pinned by its sha256)"
    rm -rf "$dir"
    mkdir -p "$dir/wheel"
    printf '%s --hash=sha256:%s\n' "$ucx_cuda_wheel" "$ucx_cuda_sha256" > "$dir/requirements.txt"
    python3 -m pip download --quiet --no-deps --only-binary=:all: --require-hashes -r "$dir/requirements.txt" \
      -d "$dir/wheel" >&2
    python3 -m zipfile -e "$dir"/wheel/*.whl "$dir/unpacked"
    touch "$dir/.complete"
  fi
  ucx_cuda_dir=$dir/unpacked
}

find_nvcc() {
  command -v nvcc >/dev/null && return 0
  for d in "${CUDA_HOME:-}" /usr/local/cuda; do
    if [ -n "$d" ] && [ -x "$d/bin/nvcc" ]; then export PATH="$d/bin:$PATH"; return 0; fi
  done
  log "no nvcc: the CUDA kit needs the CUDA toolkit (PATH, CUDA_HOME or /usr/local/cuda)"
  exit 1
}

# Configure and build one preset's kit targets (every target with --all-targets).
build_preset() {
  local preset=$1 backend=$2
  local targets=()
  if [ "$all" = 0 ]; then
    for t in desync "${tests[@]}" "${benches[@]}"; do targets+=("$t"); done
  fi
  if [ "$backend" = cuda ]; then
    # Hopper machine code next to Kokkos' sm_80 + compute_80: Kokkos 3.4 cannot name sm_90, and
    # nvcc_wrapper refuses a second -arch/-gencode, but nvcc reads NVCC_APPEND_FLAGS itself. It
    # must be compute_90 source, not compute_80 PTX compiled to sm_90: Kokkos' start-up runs a
    # kernel that returns __CUDA_ARCH__ and aborts on "compute capability 8.0 on a 9.0 device".
    # Kokkos' own library gets the same code (install-deps.sh gives it the prefix ...-plus-sm90).
    NVCC_APPEND_FLAGS="-gencode=arch=compute_90,code=sm_90" DESYNC_MPI=mpich DESYNC_CUDA_PRESET=$preset \
      ci/build_cuda.sh ${targets[@]+"${targets[@]}"} >&2
  else
    local prefix_line
    prefix_line=$(DESYNC_MPI=mpich ci/install-deps.sh | tail -n 1)
    (
      export "${prefix_line?}"
      DESYNC_MPI=mpich source ci/env.sh
      cmake --preset "$preset" -DBUILD_TESTING=ON -DDESYNC_PYTHON="$DESYNC_PYTHON" -DCMAKE_UNITY_BUILD="$DESYNC_UNITY" >/dev/null
      local args=()
      for t in ${targets[@]+"${targets[@]}"}; do args+=(--target "$t"); done
      desync_build "$preset" ${args[@]+"${args[@]}"} >&2
    )
  fi
}

# The shared libraries a kit must carry: everything the programs load beyond glibc and the CUDA
# driver (libcuda comes with the driver and must match it).
is_system_lib() {
  case "$(basename "$1")" in
    linux-vdso.so* | ld-linux-x86-64.so* | libc.so.* | libm.so.* | libdl.so.* | libpthread.so.* | librt.so.* | \
      libresolv.so.* | libutil.so.* | libcuda.so.* | libnvidia-*) return 0 ;;
  esac
  return 1
}

copy_closure() {
  local lib=$1 file
  # Each program's and library's dependencies as ldd resolves them here, copied under their soname.
  while read -r name _ path _; do
    # before the "not found" test: UCX's CUDA module needs the driver's libcuda and NVML, which
    # only a GPU node has
    is_system_lib "$name" && continue
    [ "$path" = "not" ] && { log "ldd here cannot resolve $name (needed by a kit program)"; exit 1; }
    [ -n "$path" ] && [ -f "$path" ] || continue
    case "$path" in "$lib"/*) continue ;; esac  # already in the kit (lib/ucx-cuda's own libraries)
    [ -e "$lib/$name" ] || cp -L "$path" "$lib/$name"
  done < <(ldd "${@:2}" 2>/dev/null | awk '/=>/ {print $1, $2, $3, $4}')
}

# A kit folder: run_checks.sh, missing_libs.sh, kit_report.py, KIT_INFO, MANIFEST, ref/ and payload.tar.xz, which
# holds bin/, lib/ and decks/. The payload is one xz stream with a 512 MiB dictionary: the programs
# share most of their bytes (desync_core and its device code are linked into each), and a window
# that spans all of them stores those bytes about once (333 MB of CUDA programs become 7 MB).
# Preset 1 (xz's fast match finder), not 6: the window does the work; preset 6 took 110 s for the
# twin and 103 s for the CUDA kit, preset 1 takes 29 s and 20 s (docs/method.md, section 31).
# run_checks.sh unpacks it (tar, else Python's tarfile) into a folder of its own.
pack() {
  local backend=$1 bdir=$2 kit=$out/$1
  local stage
  # The staging folder holds about 400 MB for a moment; it goes whether the pack succeeds or not.
  stage=$(mktemp -d "${TMPDIR:-/tmp}/desync-kit.XXXXXX")
  trap "rm -rf '$stage'" EXIT
  log "packing the $backend kit from $bdir into $kit"
  rm -rf "$kit"
  mkdir -p "$kit/ref" "$stage/bin" "$stage/lib" "$stage/decks"
  cp "$bdir/miniapp/desync" "$stage/bin/"
  for t in "${tests[@]}"; do cp "$bdir/tests/$t" "$stage/bin/"; done
  for b in "${benches[@]}"; do cp "$bdir/bench/$b" "$stage/bin/"; done
  # MPICH's Hydra launcher: two programs; mpiexec.hydra starts hydra_pmi_proxy from its own folder.
  cp -L /usr/bin/mpiexec.hydra "$stage/bin/mpiexec"
  cp -L /usr/bin/hydra_pmi_proxy "$stage/bin/"
  strip --strip-unneeded "$stage"/bin/* 2>/dev/null || true
  copy_closure "$stage/lib" "$stage"/bin/*
  # UCX (MPICH's ch4 device) loads its transports from <folder of libucs>/ucx: the shared-memory
  # and TCP ones are built into libuct; cma (cross-memory attach) is a module. InfiniBand's need
  # verbs, which a node without InfiniBand lacks: left out.
  if [ -f "$stage/lib/libucs.so.0" ]; then
    local ucxdir
    ucxdir=$(dirname "$(readlink -f "$(ldconfig -p | awk '/libucs.so.0 / {print $NF; exit}')")")/ucx
    mkdir -p "$stage/lib/ucx"
    [ -f "$ucxdir/libuct_cma.so.0" ] && cp -L "$ucxdir/libuct_cma.so.0" "$stage/lib/ucx/"
    copy_closure "$stage/lib" "$stage"/lib/ucx/*.so*
  fi
  # The CUDA-aware UCX (fetch_ucx_cuda) in lib/ucx-cuda/, its modules (CUDA, cross-memory attach)
  # in lib/ucx-cuda/ucx/, the CUDA runtime its CUDA module was linked with beside it, and its
  # ucx_info (which transports UCX finds on the node); run_checks.sh puts the folder in front of
  # lib/ for the direct-exchange runs only.
  local ux=$ucx_cuda_dir/libucx
  mkdir -p "$stage/lib/ucx-cuda/ucx"
  for l in libucp libucs libuct libucm; do cp -L "$ux/lib/$l.so.0" "$stage/lib/ucx-cuda/"; done
  for l in libuct_cuda libucm_cuda libuct_cma; do cp -L "$ux/lib/ucx/$l.so.0" "$stage/lib/ucx-cuda/ucx/"; done
  cp -L "$ucx_cuda_dir"/libucx_cu13.libs/libcudart-*.so.* "$stage/lib/ucx-cuda/"
  cp -L "$ux/bin/ucx_info" "$stage/bin/ucx_info"
  chmod +x "$stage/bin/ucx_info"
  LD_LIBRARY_PATH="$stage/lib/ucx-cuda" copy_closure "$stage/lib" "$stage"/lib/ucx-cuda/ucx/*.so* "$stage"/lib/ucx-cuda/*.so*
  strip --strip-unneeded "$stage"/lib/*.so* "$stage"/lib/ucx/*.so* "$stage"/lib/ucx-cuda/*.so* \
    "$stage"/lib/ucx-cuda/ucx/*.so* 2>/dev/null || true
  for d in "${decks[@]}"; do cp "$d" "$stage/decks/$(echo "${d#inputs/}" | tr / _)"; done
  (cd "$stage" && find bin lib decks -type f -printf '%s %p\n' | sort -k2) > "$kit/MANIFEST"
  log "compressing $(du -sm "$stage" | cut -f1) MiB (xz, one stream)"
  local t_xz=$SECONDS
  tar -C "$stage" -cf - bin lib decks | xz -T1 --lzma2=preset=1,dict=512MiB > "$kit/payload.tar.xz"
  log "compressed in $((SECONDS - t_xz)) s"
  rm -rf "$stage"
  trap - EXIT
  cp ci/gpu_kit/run_checks.sh ci/gpu_kit/missing_libs.sh ci/gpu_kit/kit_report.py "$kit/"
  chmod +x "$kit/run_checks.sh" "$kit/missing_libs.sh"
  {
    echo "backend=$backend"
    echo "commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet 2>/dev/null || echo +changes)"
    echo "built=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "build=$(sed -n 's/.*desync_build_description = "\(.*\)";/\1/p' "$bdir/generated/desync/build_info.hpp")"
    echo "cuda_code=$([ "$backend" = cuda ] && echo 'sm_80 and sm_90 machine code (compute_80 and compute_90 sources), compute_80 PTX' || echo none)"
  } > "$kit/KIT_INFO"
  local mib
  mib=$(du -sm "$kit" | cut -f1)
  log "$backend kit: $(wc -l < "$kit/MANIFEST") files packed, $mib MiB (at most $max_mib)"
  if [ "$mib" -gt "$max_mib" ]; then
    log "the $backend kit is $mib MiB, over the $max_mib MiB it may have; largest packed files:"
    sort -n "$kit/MANIFEST" | tail -n 8 >&2
    exit 1
  fi
}

fetch_ucx_cuda
if [ "$what" = openmp ] || [ "$what" = both ]; then
  [ "$build" = 0 ] || build_preset mpich-release openmp
  pack openmp build/mpich-release
fi
if [ "$what" = cuda ] || [ "$what" = both ]; then
  [ "$build" = 0 ] || build_preset cuda-mpich-release cuda
  pack cuda build/cuda-mpich-release
fi
if [ "$chroot" = 1 ]; then
  ci/gpu_kit/chroot_check.sh "$out"
fi
if [ -f "$out/openmp/ref/reference.json" ] && [ -d "$out/cuda" ]; then
  cp "$out/openmp/ref/reference.json" "$out/cuda/ref/reference.json"
  log "the twin's deck results are the CUDA kit's reference (cuda/ref/reference.json)"
fi
if [ -d "$out/cuda" ] && [ ! -f "$out/cuda/ref/reference.json" ]; then
  log "NOTE: the CUDA kit has no CPU reference (its decks will not be compared): ci/gpu_kit.sh both --chroot makes one"
fi
log "done in $((SECONDS - t0)) s; on the GPU node: <kit>/run_checks.sh OUTDIR"
