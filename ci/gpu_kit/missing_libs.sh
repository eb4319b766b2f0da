#!/usr/bin/env bash
# Whether a kit's programs and libraries find every shared library they need inside the kit:
#   missing_libs.sh UNPACKED     (UNPACKED: a kit's payload unpacked: bin/, lib/)
# ldd on each, with the kit's lib/ (and, for the CUDA-aware UCX, lib/ucx-cuda/ in front) as the
# only library path the kit adds, as run_checks.sh runs them. Prints each "file: library" ldd
# cannot find, then a verdict; exits 1 when anything is missing besides what a GPU node's
# driver brings (libcuda.so.1, and NVML for UCX's CUDA module). Shipped in the kit beside
# run_checks.sh, which runs it where the kit runs; ci/gpu_kit/chroot_check.sh runs it in a bare
# chroot.
set -uo pipefail
[ $# -eq 1 ] && [ -d "$1/bin" ] || { echo "usage: missing_libs.sh UNPACKED_KIT (a folder with bin/ and lib/)" >&2; exit 2; }
cd "$1" || exit 2
kit=$(pwd)
missing=$(
  for f in bin/* lib/*.so* lib/ucx/*.so*; do
    [ -f "$f" ] || continue
    LD_LIBRARY_PATH=$kit/lib ldd "$f" 2>/dev/null | awk -v f="$f" '/not found/ {print f ": " $1}'
  done
  for f in lib/ucx-cuda/*.so* lib/ucx-cuda/ucx/*.so*; do
    [ -f "$f" ] || continue
    LD_LIBRARY_PATH=$kit/lib/ucx-cuda:$kit/lib ldd "$f" 2>/dev/null | awk -v f="$f" '/not found/ {print f ": " $1}'
  done
)
missing=$(printf '%s\n' "$missing" | grep -v '^$' | sort -u)
[ -n "$missing" ] && printf '%s\n' "$missing"
other=$(printf '%s\n' "$missing" | grep -v '^$' | grep -v ': libcuda.so.1$' | grep -v '^lib/ucx-cuda/ucx/libuct_cuda.so.0: libnvidia-ml.so.1$')
if [ -n "$other" ]; then
  echo "missing_libs: not the driver's, so missing from the kit: $(printf '%s\n' "$other" | wc -l) of them"
  exit 1
fi
if printf '%s' "$missing" | grep -q libcuda; then
  echo "every library resolves inside the kit but libcuda.so.1 (and NVML for UCX): the CUDA driver, a GPU node's"
else
  echo "every library resolves inside the kit"
fi
