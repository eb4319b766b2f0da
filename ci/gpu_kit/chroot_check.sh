#!/usr/bin/env bash
# The kit proven without a GPU (issue 32, item 3; docs/gpu_kit.md): in a bare Debian chroot
# (debootstrap --variant=minbase, plus the Python with numpy and h5py that a GPU node has; none of
# desync's dependencies), every library of both kits resolves inside the kit (ldd: nothing missing
# but the CUDA driver's libcuda.so.1, which only a GPU node has), and the OpenMP twin's
# run_checks.sh produces a complete, green report there. That run's deck results become the
# CUDA kit's reference (KITS/openmp/ref/reference.json, copied by ci/gpu_kit.sh).
#   ci/gpu_kit/chroot_check.sh KITS     (KITS: the folder holding openmp/ and, if packed, cuda/)
# Needs root (chroot, mounts) and Debian's debootstrap; the chroot is cached in
# $DESYNC_CACHE/chroot-bookworm-minbase (about 250 MB) and reused, by one check at a time (a lock
# file beside it); mounts are undone on exit.
set -euo pipefail
kits=$(realpath "$1")
cache=${DESYNC_CACHE:-$HOME/.cache/desync}
root=$cache/chroot-bookworm-minbase
log() { printf '[chroot_check] %s\n' "$*" >&2; }
[ "$(id -u)" -eq 0 ] || { log "needs root (chroot and bind mounts)"; exit 1; }
# One check at a time per cached chroot: two at once (a local run beside CI) removed each other's
# /kits and /out and unmounted each other's /proc.
mkdir -p "$cache"
exec 9>"$cache/chroot-bookworm-minbase.lock"
flock 9 || { log "cannot lock $cache/chroot-bookworm-minbase.lock"; exit 1; }
command -v debootstrap >/dev/null || {
  [ "${DESYNC_SKIP_APT:-0}" = 1 ] && { log "no debootstrap (apt-get install debootstrap)"; exit 1; }
  apt-get install -y -qq debootstrap >/dev/null
}
if [ ! -f "$root/.desync-complete" ]; then
  log "making the bare Debian 12 chroot (debootstrap --variant=minbase) in $root"
  rm -rf "$root"
  mirror=${DESYNC_DEBIAN_MIRROR:-http://deb.debian.org/debian}
  debootstrap --variant=minbase --include=python3-minimal,python3-numpy,python3-h5py bookworm "$root" "$mirror" >/dev/null
  touch "$root/.desync-complete"
fi
# Nothing of desync's own dependencies may be in the chroot: no MPI, no parallel HDF5, no Kokkos.
for bad in libmpich.so.12 libmpi.so.40 libhdf5_mpich.so.103 libhdf5_openmpi.so.103 libkokkoscore.so libfmt.so.9 \
           libhwloc.so.15 libopenblas.so.0 libgomp.so.1 libucp.so.0; do
  if chroot "$root" ldconfig -p | grep -q " $bad "; then log "the chroot has $bad: not bare"; exit 1; fi
done

mounts=()
cleanup() {
  local i
  for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do umount -l "${mounts[$i]}" 2>/dev/null || true; done
  rm -rf "$root/kits" "$root/out"
}
trap cleanup EXIT
for m in proc sys dev dev/shm; do
  mkdir -p "$root/$m"
  mount --bind "/$m" "$root/$m"
  mounts+=("$root/$m")
done
rm -rf "$root/kits" "$root/out"
mkdir -p "$root/kits" "$root/out"
cp -a "$kits/openmp" "$root/kits/openmp"
[ -d "$kits/cuda" ] && cp -a "$kits/cuda" "$root/kits/cuda"

status=0
for k in openmp cuda; do
  [ -d "$root/kits/$k" ] || continue
  mkdir -p "$root/kits/$k-unpacked"
  tar -C "$root/kits/$k-unpacked" -xJf "$root/kits/$k/payload.tar.xz"
  # the CUDA driver's libcuda (and, for UCX's CUDA module, its NVML) come with a GPU node's driver
  if verdict=$(chroot "$root" "/kits/$k/missing_libs.sh" "/kits/$k-unpacked" 2>&1); then
    log "$k kit, in the bare chroot: $(printf '%s\n' "$verdict" | tail -n 1)"
  else
    log "$k kit: libraries missing in the bare chroot:"
    printf '  %s\n' "$verdict" >&2
    status=1
  fi
done

log "the OpenMP twin's run_checks.sh in the chroot"
if chroot "$root" /bin/bash -c "OMP_NUM_THREADS=1 KIT_PYTHON=/usr/bin/python3 /kits/openmp/run_checks.sh /out --quick"; then
  log "twin report: green"
else
  log "twin report: NOT green (report and logs in $kits/openmp-chroot-report)"
  status=1
fi
rm -rf "$kits/openmp-chroot-report"
cp -a "$root/out" "$kits/openmp-chroot-report"
# The twin's deck results are the CPU reference the CUDA kit's report compares against.
python3 - "$kits/openmp-chroot-report/report.json" "$kits/openmp/ref/reference.json" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
json.dump({"from": "the OpenMP twin (preset mpich-release) in a bare chroot", "kit": r["kit"], "decks": r["decks"]},
          open(sys.argv[2], "w"), indent=1)
EOF
exit $status
