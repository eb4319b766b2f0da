#!/usr/bin/env bash
# The CUDA build (issue 17; docs/build_cuda.md): Kokkos 3.4 with its Cuda backend (CUDA 13
# patches of ci/patches/) and KokkosKernels into their own cache prefix, then desync, its tests
# and benchmarks compiled and linked with the preset cuda-release. Nothing runs: CI has no GPU.
#   ci/build_cuda.sh [TARGET...]   (default: everything)
# Environment as ci/install-deps.sh (DESYNC_CUDA_ARCH, DESYNC_JOBS, DESYNC_MPI, ...); nvcc on PATH or
# CUDA_ROOT. DESYNC_CUDA_PRESET: cuda-release (default, Open MPI) or cuda-mpich-release (MPICH: the
# GPU kit's build, ci/gpu_kit.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
t0=$SECONDS
# The toolkit's usual places when nvcc is not on PATH (a CI shell may not source the profile).
if ! command -v nvcc >/dev/null && [ -z "${CUDA_ROOT:-}" ]; then
  for d in "${CUDA_HOME:-}" /usr/local/cuda; do
    if [ -n "$d" ] && [ -x "$d/bin/nvcc" ]; then export PATH="$d/bin:$PATH"; break; fi
  done
fi
preset=${DESYNC_CUDA_PRESET:-cuda-release}
[ "$preset" = cuda-mpich-release ] && export DESYNC_MPI=mpich  # MPICH's packages and launcher flags
prefix_line=$(DESYNC_BACKEND=cuda ci/install-deps.sh | tail -n 1)
export "${prefix_line?}"
source ci/env.sh
cmake --preset "$preset" -DBUILD_TESTING=ON -DDESYNC_PYTHON="$DESYNC_PYTHON" >/dev/null
targets=()
for t in "$@"; do targets+=(--target "$t"); done
desync_build "$preset" ${targets[@]+"${targets[@]}"}
printf '[build_cuda] the CUDA build compiled and linked in %d s (deps included); no GPU here, nothing was run\n' \
  $((SECONDS - t0))
