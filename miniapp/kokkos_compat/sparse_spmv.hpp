#pragma once
// KokkosSparse::spmv, included through here. KokkosKernels is built without explicit
// instantiation (ci/install-deps.sh), so its SpMV kernels are instantiated in desync's own units,
// where GCC 12, once it has inlined KokkosKernels 3.4's transpose functors, cannot prove one of
// their members (rows_per_team) set and warns (-Wmaybe-uninitialized) in the library's header:
// silenced for the header's lines only, so desync's own code keeps the warning.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <KokkosSparse_spmv.hpp>
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
