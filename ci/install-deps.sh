#!/usr/bin/env bash
# Installs everything desync needs on a fresh Debian (bookworm) machine:
#   1. Debian packages (compiler, CMake, OpenMPI, parallel HDF5, toml++, CLI11, fmt, hwloc,
#      GoogleTest, OpenBLAS, Python's numpy/h5py/matplotlib) -- only those that are missing;
#   2. Kokkos and KokkosKernels 3.4.01, taken from Debian's `trilinos` *source* package (Debian's
#      binary Kokkos is Serial-only), built with OpenMP+Serial, KokkosKernels with Debian's
#      OpenBLAS as its third-party BLAS, and installed into a cache prefix that is reused on the
#      next call.
# The script prints the prefix on its last line ("DESYNC_DEPS_PREFIX=...") for callers.
# With DESYNC_BACKEND=cuda it builds a CUDA Kokkos instead (Cuda + OpenMP + Serial, compiled by
# Kokkos' own bin/nvcc_wrapper, the CUDA 13 patches of ci/patches/ applied to the extracted
# source) and KokkosKernels without explicit instantiation and without TPLs, into a prefix of its
# own; the OpenMP prefix is never touched. See docs/build_cuda.md.
#
# Environment:
#   DESYNC_BACKEND      openmp (default: everything below as described above) or cuda
#   DESYNC_CUDA_ARCH    cuda only: the Kokkos 3.4 GPU architecture, Kokkos_ARCH_<VALUE> (default
#                       AMPERE80 = sm_80: Kokkos 3.4 knows no HOPPER90; sm_80 code runs on A100,
#                       on every sm_8x GPU and, through the embedded PTX, on H100). It must be
#                       one that the installed nvcc still accepts (CUDA 13: TURING75 or newer).
#                       The default prefix is $DESYNC_CACHE/kokkos-3.4.01-nvcc-<release>-<host
#                       compiler>-cuda-<arch, lower case>; the host compiler is the one
#                       nvcc_wrapper runs, NVCC_WRAPPER_DEFAULT_COMPILER (default g++), not CXX.
#   DESYNC_CACHE        cache root (default: $HOME/.cache/desync)
#   NVCC_APPEND_FLAGS   cuda only: nvcc's own variable, passed on; machine code it adds
#                       (-gencode=...,code=sm_NN) names the prefix (...-plus-smNN): ci/gpu_kit.sh
#   DESYNC_DEPS_PREFIX  install prefix for Kokkos/KokkosKernels (default: derived from the cache
#                       root, the Kokkos version, the compiler and DESYNC_ARCH)
#   DESYNC_ARCH         CPU the Kokkos/KokkosKernels kernels are compiled for (default: empty,
#                       portable): "native" adds -march=native -mtune=native, any other value
#                       -march=VALUE. The default prefix then ends in -VALUE (...-blas-native),
#                       so the portable cache is never overwritten, and the prefix records VALUE
#                       in .desync-arch for desync's build description. Pair it with desync_ARCH
#                       (preset openmp-native); see docs/build_native.md.
#   DESYNC_JOBS         parallel build jobs (default: nproc)
#   DESYNC_SKIP_APT=1   do not touch Debian packages (e.g. on a cluster with modules)
#   DESYNC_MPI          openmpi (default) or mpich: mpich also installs Debian's MPICH and its
#                       parallel HDF5 (libmpich-dev, libhdf5-mpich-dev) for the preset mpich-release
#   DESYNC_BLAS_DIR     directory holding the libopenblas.so KokkosKernels links (default: Debian's
#                       OpenMP build, /usr/lib/<multiarch>/openblas-openmp)
#   DESYNC_KOKKOS_CMAKE_ARGS, DESYNC_KK_CMAKE_ARGS
#                       extra CMake arguments for Kokkos / KokkosKernels (another backend set,
#                       other instantiations); use them with their own DESYNC_DEPS_PREFIX
#   (DESYNC_MPI, DESYNC_BLAS_DIR and the OpenBLAS TPL do not apply to DESYNC_BACKEND=cuda's
#   Kokkos build; DESYNC_ARCH does, for the host code.)
set -euo pipefail

kokkos_version=3.4.01
cxx=${CXX:-g++}
cxx_id="$(basename "$cxx")-$("$cxx" -dumpfullversion 2>/dev/null || echo unknown)"
cache_root=${DESYNC_CACHE:-$HOME/.cache/desync}
arch=${DESYNC_ARCH:-}
# "-blas": KokkosKernels calls OpenBLAS; "-noeti": no explicit instantiation (below). A cache
# from before either has another name.
prefix=${DESYNC_DEPS_PREFIX:-$cache_root/kokkos-$kokkos_version-$cxx_id-openmp-blas-noeti${arch:+-$arch}}
jobs=${DESYNC_JOBS:-$(nproc)}
backend=${DESYNC_BACKEND:-openmp}
case "$backend" in
  openmp | cuda) ;;
  *) printf '[install-deps] DESYNC_BACKEND=%s: not openmp or cuda\n' "$backend" >&2; exit 1 ;;
esac

log() { printf '[install-deps] %s\n' "$*" >&2; }

# DESYNC_BACKEND=cuda: its own compiler identity and prefix. The compiler is Kokkos' nvcc_wrapper,
# which runs nvcc ($CUDA_ROOT/bin/nvcc, else the one on PATH) with NVCC_WRAPPER_DEFAULT_COMPILER
# (default g++) as host compiler, so the prefix names the CUDA release and that host compiler.
if [ "$backend" = cuda ]; then
  cuda_arch=$(printf '%s' "${DESYNC_CUDA_ARCH:-AMPERE80}" | tr '[:lower:]' '[:upper:]')
  nvcc_bin=nvcc
  [ -z "${CUDA_ROOT:-}" ] || nvcc_bin=$CUDA_ROOT/bin/nvcc
  command -v "$nvcc_bin" >/dev/null || { log "DESYNC_BACKEND=cuda: no $nvcc_bin (CUDA toolkit on PATH or CUDA_ROOT)"; exit 1; }
  nvcc_release=$("$nvcc_bin" --version | sed -n 's/.*release \([0-9][0-9.]*\),.*/\1/p')
  cxx=${NVCC_WRAPPER_DEFAULT_COMPILER:-g++}
  cxx_id="$(basename "$cxx")-$("$cxx" -dumpfullversion 2>/dev/null || echo unknown)"
  cuda_arch_lc=$(printf '%s' "$cuda_arch" | tr '[:upper:]' '[:lower:]')
  # NVCC_APPEND_FLAGS (nvcc's own variable) adding machine code, e.g. the GPU kit's
  # -gencode=arch=compute_90,code=sm_90 for Hopper, which Kokkos 3.4 cannot name: Kokkos' library
  # must carry it too (its start-up queries the architecture with a kernel of its own and refuses
  # compute 8.x code on a 9.x device), so such a build has its own prefix, ...-plus-sm90.
  extra_sm=$(printf '%s' "${NVCC_APPEND_FLAGS:-}" | { grep -o 'code=sm_[0-9]*' || true; } | sed 's/code=sm_/-plus-sm/' | tr -d '\n')
  prefix=${DESYNC_DEPS_PREFIX:-$cache_root/kokkos-$kokkos_version-nvcc-${nvcc_release:-unknown}-$cxx_id-cuda-$cuda_arch_lc$extra_sm${arch:+-$arch}}
fi

# Architecture flags for both builds. Kokkos 3.4 has no Kokkos_ARCH_NATIVE (it came with Kokkos
# 3.7; 3.4 leaves it unused), so the flags go through CMAKE_CXX_FLAGS: they compile
# Kokkos' and KokkosKernels' own libraries (the ETI kernels) but are not exported to users, who
# add theirs (desync: desync_ARCH). An explicit Kokkos_ARCH_<CPU> (e.g. SKX, ZEN2), which is
# exported, can be given through DESYNC_KOKKOS_CMAKE_ARGS instead.
# The options both KokkosKernels builds share: the Kokkos just installed, nothing but the library.
kk_common=(-DKokkos_ROOT="$prefix" -DKokkosKernels_ENABLE_TESTS=OFF -DKokkosKernels_ENABLE_EXAMPLES=OFF
           -DKokkosKernels_ENABLE_PERFTESTS=OFF)
# No explicit instantiation (both builds): the kernels desync calls are instantiated in its own
# translation units. The CUDA build adds its spaces' INST_* (build_kokkos_kernels_cuda).
kk_no_eti=(-DKokkosKernels_ADD_DEFAULT_ETI=OFF
           -DKokkosKernels_INST_DOUBLE=OFF -DKokkosKernels_INST_COMPLEX_DOUBLE=OFF
           -DKokkosKernels_INST_FLOAT=OFF -DKokkosKernels_INST_COMPLEX_FLOAT=OFF
           -DKokkosKernels_INST_LAYOUTLEFT=OFF -DKokkosKernels_INST_LAYOUTRIGHT=OFF
           -DKokkosKernels_INST_ORDINAL_INT=OFF -DKokkosKernels_INST_ORDINAL_INT64_T=OFF
           -DKokkosKernels_INST_OFFSET_SIZE_T=OFF -DKokkosKernels_INST_OFFSET_INT=OFF
           -DKokkosKernels_INST_EXECSPACE_OPENMP=OFF -DKokkosKernels_INST_EXECSPACE_SERIAL=OFF
           -DKokkosKernels_INST_MEMSPACE_HOSTSPACE=OFF)

arch_flags=()
case "$arch" in
  "") ;;
  native) arch_flags=("-DCMAKE_CXX_FLAGS=-march=native -mtune=native") ;;
  *) arch_flags=("-DCMAKE_CXX_FLAGS=-march=$arch") ;;
esac

# OpenBLAS: the OpenMP build (libopenblas-openmp-dev, pulling libopenblas0-openmp), not the
# pthread one that the libopenblas-dev metapackage would pick. desync runs Kokkos' OpenMP threads;
# OpenBLAS built on OpenMP shares libgomp's thread pool with them, takes omp_get_max_threads()
# threads at every call (OMP_NUM_THREADS, or the count Kokkos was given) and runs single-threaded
# inside a parallel region. The pthread build starts its own pool of one thread per core next to
# the OpenMP threads still spinning after a Kokkos kernel: oversubscription, and a second knob
# (OPENBLAS_NUM_THREADS) per run.
# libsimgrid-dev: SimGrid 3.32, the simulation engine of `desync simulate` (optional at build time).
# libjemalloc-dev: jemalloc, the desync binary's malloc (optional at build time): the simulator
# allocates a SimGrid object per simulated operation and runs 1.5-1.7x faster on it.
# iproute2, util-linux: the two emulated nodes of ci/two_nodes.sh (ip netns, unshare).
# ccache: the compiler cache of desync's own builds under the ci/ scripts (ci/env.sh).
# python3-otf2, otf2-tools: the OTF2 library's Python binding (desync-view otf2 and import) and
# otf2-print, which the tests read the exported archives with; python3-ijson: streaming JSON
# (desync-view import of Chrome traces too large to hold as Python objects).
apt_packages=(
  build-essential cmake ninja-build git pkg-config ca-certificates xz-utils dpkg-dev
  openmpi-bin libopenmpi-dev libhdf5-openmpi-dev
  libtomlplusplus-dev libcli11-dev libfmt-dev libhwloc-dev libgtest-dev libopenblas-openmp-dev
  libsimgrid-dev libjemalloc-dev iproute2 util-linux ccache
  python3 python3-numpy python3-scipy python3-h5py python3-matplotlib python3-sklearn python3-pip python3-setuptools
  python3-otf2 otf2-tools python3-ijson
)
# DESYNC_MPI=mpich (preset mpich-release): Debian's MPICH and the HDF5 built on it as well. Open MPI
# stays installed and stays the default `mpicc`/`mpiexec`; the preset names MPICH's wrappers.
# Kokkos does not depend on MPI, so the same Kokkos prefix serves both.
if [ "${DESYNC_MPI:-openmpi}" = mpich ]; then
  apt_packages+=(mpich libmpich-dev libhdf5-mpich-dev)
fi

install_apt_packages() {
  local missing=()
  for p in "${apt_packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
  if ((${#missing[@]} == 0)); then
    log "Debian packages: all present"
    return
  fi
  log "Debian packages to install: ${missing[*]}"
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

# Writes one "deb-src" line per (URI, suite) found in the machine's own apt sources, both the
# one-line format and the deb822 (*.sources) format, so no mirror host is ever hard-coded.
write_deb_src_list() {
  local out=$1
  : >"$out"
  local f
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [ -f "$f" ] || continue
    awk '$1=="deb" {
           opts=""; i=2
           if ($2 ~ /^\[/) { while ($i !~ /\]$/) { opts=opts" "$i; i++ } opts=opts" "$i; i++ }
           line="deb-src" opts " " $i " " $(i+1)
           for (j=i+2; j<=NF; j++) line=line " " $j
           print line
         }' "$f" >>"$out"
  done
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] || continue
    awk 'function flush() {
           if (types ~ /(^| )deb( |$)/ && enabled != "no")
             for (u in uris) for (s in suites)
               print "deb-src" (signed != "" ? " [signed-by=" signed "]" : "") " " uris[u] " " suites[s] " " comps
           types=""; comps=""; signed=""; enabled=""; delete uris; delete suites
         }
         /^[[:space:]]*#/ { next }
         /^[[:space:]]*$/ { flush(); next }
         { key=$1; sub(/:$/, "", key); $1=""; sub(/^ /, "")
           if (key=="Types") types=$0
           else if (key=="URIs") { n=split($0, a, " "); for (k=1;k<=n;k++) uris[k]=a[k] }
           else if (key=="Suites") { n=split($0, a, " "); for (k=1;k<=n;k++) suites[k]=a[k] }
           else if (key=="Components") comps=$0
           else if (key=="Signed-By") signed=$0
           else if (key=="Enabled") enabled=$0 }
         END { flush() }' "$f" >>"$out"
  done
  [ -s "$out" ] || { log "no 'deb' entries found in the machine's apt sources"; return 1; }
}

# Fetches the trilinos source package with apt's own client through a private list, leaving the
# system's apt configuration and package lists untouched, then extracts only Kokkos and
# KokkosKernels.
fetch_kokkos_sources() {
  local work=$1
  local aptdir=$work/apt
  mkdir -p "$aptdir/lists/partial" "$work/download"
  write_deb_src_list "$aptdir/sources.list"
  local aptopts=(
    -o "Dir::Etc::SourceList=$aptdir/sources.list"
    -o "Dir::Etc::SourceParts=/dev/null"
    -o "Dir::State::Lists=$aptdir/lists"
    -o "Dir::Cache=$aptdir/cache"
    -o "APT::Sandbox::User=root"
  )
  log "fetching Debian's trilinos source package (private deb-src list)"
  apt-get "${aptopts[@]}" update -qq
  (cd "$work/download" && apt-get "${aptopts[@]}" source --download-only trilinos)
  local orig
  orig=$(ls "$work"/download/trilinos_*.orig.tar.* | head -n 1)
  log "extracting packages/kokkos and packages/kokkos-kernels from $(basename "$orig")"
  mkdir -p "$work/src"
  tar -xf "$orig" -C "$work/src" --strip-components=1 --wildcards \
    '*/packages/kokkos/*' '*/packages/kokkos-kernels/*'
  local v
  v=$(sed -n 's/^set(Kokkos_VERSION_MAJOR \([0-9]*\)).*/\1/p' "$work/src/packages/kokkos/CMakeLists.txt")
  log "Kokkos major version in the source: ${v:-unknown}"
}

# One CMake project configured, built and installed into $prefix with what every build here
# shares (Ninja, Release, C++17, shared libraries in lib/, DESYNC_ARCH's flags), then the
# caller's options (the DESYNC_*_CMAKE_ARGS last, so they win); logs in $work/NAME-configure.log
# and $work/NAME-build.log. NVCC_WRAPPER_DEFAULT_COMPILER is nvcc_wrapper's host compiler (the
# host builds ignore it).
#   cmake_project WORK NAME SOURCE_DIR CMAKE_OPTION...
cmake_project() {
  local work=$1 name=$2 src=$3
  shift 3
  NVCC_WRAPPER_DEFAULT_COMPILER=$cxx cmake -S "$src" -B "$work/build-$name" -G Ninja \
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_STANDARD=17 -DCMAKE_INSTALL_PREFIX="$prefix" \
    -DBUILD_SHARED_LIBS=ON -DCMAKE_INSTALL_LIBDIR=lib ${arch_flags[@]+"${arch_flags[@]}"} "$@" \
    >"$work/$name-configure.log"
  NVCC_WRAPPER_DEFAULT_COMPILER=$cxx cmake --build "$work/build-$name" -j "$jobs" >"$work/$name-build.log"
  cmake --install "$work/build-$name" >/dev/null
}

build_kokkos() {
  local work=$1
  log "building Kokkos into $prefix${arch:+ (DESYNC_ARCH=$arch: ${arch_flags[0]#-D})}"
  cmake_project "$work" kokkos "$work/src/packages/kokkos" \
    -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_INSTALL_RPATH="$prefix/lib" \
    -DKokkos_ENABLE_OPENMP=ON -DKokkos_ENABLE_SERIAL=ON \
    -DKokkos_ENABLE_TESTS=OFF -DKokkos_ENABLE_EXAMPLES=OFF ${DESYNC_KOKKOS_CMAKE_ARGS:-}
}

# Where Debian's OpenMP OpenBLAS lives: /usr/lib/<multiarch>/openblas-openmp (the multiarch
# triplet from dpkg, or from the compiler where dpkg-dev is absent).
blas_dir() {
  if [ -n "${DESYNC_BLAS_DIR:-}" ]; then
    echo "$DESYNC_BLAS_DIR"
    return
  fi
  local multiarch
  multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || "$cxx" -print-multiarch)
  echo "/usr/lib/$multiarch/openblas-openmp"
}

# No explicit instantiation (ETI), as for CUDA below: the few translation units of desync that
# call KokkosKernels (the SpMV's kokkoskernels kernel, desync::gemm, three benchmarks)
# instantiate what they call. The ETI of just double and complex<double>, int ordinals, size_t
# offsets, LayoutLeft and OpenMP took 290 of the 306 s of this build on 2 cores (a fresh CI
# machine, docs/method.md section 31) for kernels desync mostly never calls; instantiated where
# they are called they add a few seconds to each of those units. The BLAS and LAPACK TPLs do not depend
# on it: their specializations are headers, their host wrappers in the library.
# BLAS and LAPACK: OpenBLAS (it holds both), named by its directory rather than found by CMake's
# FindBLAS, which would take /usr/lib/<multiarch>/libblas.so, a Debian alternative that may
# point at the reference BLAS or at OpenBLAS' pthread build. The directory is also in the
# library's RPATH, so the OpenMP build is the one loaded at run time whatever the alternative
# says. F77_BLAS_MANGLE is given (OpenBLAS exports dgemm_, lower case with one underscore) so
# that KokkosKernels does not need a Fortran compiler to find it out.
build_kokkos_kernels() {
  local work=$1
  local blas
  blas=$(blas_dir)
  [ -e "$blas/libopenblas.so" ] || { log "no libopenblas.so in $blas (set DESYNC_BLAS_DIR)"; return 1; }
  log "building KokkosKernels into $prefix (no ETI; BLAS: $blas)"
  cmake_project "$work" kk "$work/src/packages/kokkos-kernels" "${kk_common[@]}" \
    -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_INSTALL_RPATH="$prefix/lib;$blas" "${kk_no_eti[@]}" \
    -DKokkosKernels_ENABLE_TPL_BLAS=ON -DBLAS_LIBRARIES=openblas -DBLAS_LIBRARY_DIRS="$blas" \
    -DKokkosKernels_ENABLE_TPL_LAPACK=ON -DLAPACK_LIBRARIES=openblas -DLAPACK_LIBRARY_DIRS="$blas" \
    "-DF77_BLAS_MANGLE=(name,NAME) name ## _" ${DESYNC_KK_CMAKE_ARGS:-}
  if grep -q 'undef KOKKOSKERNELS_ENABLE_TPL_BLAS' "$prefix/include/KokkosKernels_config.h"; then
    log "KokkosKernels was configured without its BLAS TPL (see $work/kk-configure.log)"
    return 1
  fi
}

# DESYNC_BACKEND=cuda. Kokkos 3.4 predates CUDA 12 and 13: the patches in ci/patches/ (unified
# diffs against the extracted trilinos tree, applied in name order; docs/build_cuda.md says why
# each is needed) make it compile with nvcc 13 and keep it compiling with older ones. Then
# nvcc_wrapper's default GPU architecture, sm_35, which nvcc 13 rejects ("nvcc fatal :
# Unsupported gpu architecture 'sm_35'", already at CMake's compiler check), is set to the one
# of DESYNC_CUDA_ARCH: the wrapper's own customisation point ("Default settings: change those
# according to your machine"), so the installed <prefix>/bin/nvcc_wrapper compiles for the same
# GPU as Kokkos also where no Kokkos target passes -arch (CMake's compiler checks).
prepare_cuda_sources() {
  local work=$1
  local kokkos=$work/src/packages/kokkos
  local patch_dir p
  patch_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/patches
  for p in "$patch_dir"/*.patch; do
    [ -e "$p" ] || { log "no patches in $patch_dir"; return 1; }
    log "applying $(basename "$p")"
    patch -p1 --forward --batch --quiet -d "$work/src" <"$p"
  done
  local sm
  sm=$(sed -n "s/^CHECK_CUDA_ARCH($cuda_arch  *\(sm_[0-9]*\))/\1/p" "$kokkos/cmake/kokkos_arch.cmake")
  if [ -z "$sm" ]; then
    log "DESYNC_CUDA_ARCH=$cuda_arch is no GPU architecture of Kokkos $kokkos_version; it knows:" \
      "$(sed -n 's/^CHECK_CUDA_ARCH(\([A-Z0-9]*\) .*/\1/p' "$kokkos/cmake/kokkos_arch.cmake" | tr '\n' ' ')"
    return 1
  fi
  if ! "$nvcc_bin" --list-gpu-code | grep -qx "$sm"; then
    log "DESYNC_CUDA_ARCH=$cuda_arch ($sm): not accepted by nvcc $nvcc_release, which knows:" \
      "$("$nvcc_bin" --list-gpu-code | tr '\n' ' ')"
    return 1
  fi
  sed -i "s/^default_arch=\"sm_[0-9]*\"$/default_arch=\"$sm\"/" "$kokkos/bin/nvcc_wrapper"
  grep -qx "default_arch=\"$sm\"" "$kokkos/bin/nvcc_wrapper" ||
    { log "could not set default_arch in $kokkos/bin/nvcc_wrapper"; return 1; }
  log "GPU architecture: Kokkos_ARCH_$cuda_arch ($sm), also nvcc_wrapper's default"
}

# Cuda as the device space, OpenMP as the host parallel space, Serial; CUDA_LAMBDA for
# KOKKOS_LAMBDA on the device. CMAKE_CXX_COMPILER is the (patched) nvcc_wrapper of the source
# tree; Kokkos installs it as <prefix>/bin/nvcc_wrapper, the compiler of the cuda-release preset.
build_kokkos_cuda() {
  local work=$1
  local kokkos=$work/src/packages/kokkos t0=$SECONDS
  log "building Kokkos (Cuda $nvcc_release, Kokkos_ARCH_$cuda_arch, OpenMP, Serial) into $prefix${arch:+ (DESYNC_ARCH=$arch: ${arch_flags[0]#-D})}"
  cmake_project "$work" kokkos "$kokkos" \
    -DCMAKE_CXX_COMPILER="$kokkos/bin/nvcc_wrapper" -DCMAKE_INSTALL_RPATH="$prefix/lib" \
    -DKokkos_ENABLE_CUDA=ON -DKokkos_ENABLE_CUDA_LAMBDA=ON -DKokkos_ARCH_"$cuda_arch"=ON \
    -DKokkos_ENABLE_OPENMP=ON -DKokkos_ENABLE_SERIAL=ON \
    -DKokkos_ENABLE_TESTS=OFF -DKokkos_ENABLE_EXAMPLES=OFF ${DESYNC_KOKKOS_CMAKE_ARGS:-}
  echo "$cuda_arch" >"$prefix/.desync-cuda-arch"
  log "Kokkos configured, built and installed in $((SECONDS - t0)) s"
}

# No explicit instantiation at all (ADD_DEFAULT_ETI and every INST_* OFF): each kernel desync calls
# is instantiated in desync's own translation units, for Cuda as for the host spaces, so the
# library holds only KokkosKernels' few non-template sources. No TPLs: cuBLAS and cuSPARSE
# (ON by default with CUDA) and the host BLAS/LAPACK stay off.
build_kokkos_kernels_cuda() {
  local work=$1 t0=$SECONDS
  log "building KokkosKernels into $prefix (no ETI, no TPLs)"
  cmake_project "$work" kk "$work/src/packages/kokkos-kernels" "${kk_common[@]}" \
    -DCMAKE_CXX_COMPILER="$prefix/bin/nvcc_wrapper" -DCMAKE_INSTALL_RPATH="$prefix/lib" "${kk_no_eti[@]}" \
    -DKokkosKernels_INST_EXECSPACE_CUDA=OFF \
    -DKokkosKernels_INST_MEMSPACE_CUDASPACE=OFF -DKokkosKernels_INST_MEMSPACE_CUDAUVMSPACE=OFF \
    -DKokkosKernels_ENABLE_TPL_CUBLAS=OFF -DKokkosKernels_ENABLE_TPL_CUSPARSE=OFF \
    -DKokkosKernels_ENABLE_TPL_BLAS=OFF -DKokkosKernels_ENABLE_TPL_LAPACK=OFF ${DESYNC_KK_CMAKE_ARGS:-}
  log "KokkosKernels configured, built and installed in $((SECONDS - t0)) s"
}

main() {
  [ "${DESYNC_SKIP_APT:-0}" = 1 ] || install_apt_packages
  # The cache's name holds the compiler's version, read above before the packages were there: on
  # a machine that had no compiler it reads "unknown", and the next run (compiler present) would
  # miss that cache. Start again now that the compiler is installed.
  if [[ $cxx_id == *-unknown ]] && command -v "$cxx" >/dev/null 2>&1 && [ "${DESYNC_DEPS_REREAD:-0}" != 1 ]; then
    log "compiler $cxx installed: naming the cache after its version"
    DESYNC_SKIP_APT=1 DESYNC_DEPS_REREAD=1 exec bash "$0" "$@"
  fi
  if [ -f "$prefix/.desync-complete" ]; then
    # One DESYNC_DEPS_PREFIX serves one backend: exported for the OpenMP build and then seen by
    # the CUDA build (ci/gpu_kit.sh builds both), the OpenMP Kokkos' compiler stood in for
    # nvcc_wrapper and CMake's first test program failed ("Unsupported gpu architecture
    # 'sm_35'"), far from the cause. Kokkos' own configuration says which backend it was built for.
    local built=openmp
    grep -q '^#define KOKKOS_ENABLE_CUDA\b' "$prefix/include/KokkosCore_config.h" 2>/dev/null && built=cuda
    if [ "$built" != "$backend" ]; then
      log "DESYNC_DEPS_PREFIX=$prefix holds Kokkos built for $built, not for DESYNC_BACKEND=$backend:" \
        "unset DESYNC_DEPS_PREFIX (each backend has its own default prefix) or give this build a prefix of its own"
      exit 1
    fi
    log "Kokkos $kokkos_version + KokkosKernels: cached in $prefix"
  else
    local work
    work=$(mktemp -d "${TMPDIR:-/tmp}/desync-deps.XXXXXX")
    trap 'log "failed; logs kept in '"$work"'"' ERR
    local t0=$SECONDS
    fetch_kokkos_sources "$work"
    if [ "$backend" = cuda ]; then
      prepare_cuda_sources "$work"
      build_kokkos_cuda "$work"
      build_kokkos_kernels_cuda "$work"
    else
      build_kokkos "$work"
      build_kokkos_kernels "$work"
    fi
    [ -z "$arch" ] || echo "$arch" >"$prefix/.desync-arch"
    date -u +%FT%TZ >"$prefix/.desync-complete"
    log "Kokkos + KokkosKernels built in $((SECONDS - t0)) s"
    trap - ERR
    rm -rf "$work"
  fi
  echo "DESYNC_DEPS_PREFIX=$prefix"
}

main "$@"
