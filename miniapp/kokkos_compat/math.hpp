#pragma once
// Math functions callable in kernels: Kokkos::cos etc. exist from 3.7, only
// Kokkos::Experimental:: before (removed in 4.3).
#include <Kokkos_Core.hpp>

namespace desync::compat {

#if KOKKOS_VERSION >= 30700
using Kokkos::cos;
using Kokkos::exp;
using Kokkos::fabs;
using Kokkos::sqrt;
#else
using Kokkos::Experimental::cos;
using Kokkos::Experimental::exp;
using Kokkos::Experimental::fabs;
using Kokkos::Experimental::sqrt;
#endif

// A quiet NaN usable in kernels: std::numeric_limits<double>::quiet_NaN() is a host constexpr
// function that nvcc refuses in device code (without --expt-relaxed-constexpr); the builtin is
// folded to a constant by GCC, Clang and nvcc alike (Kokkos' own numeric traits use it).
KOKKOS_INLINE_FUNCTION constexpr double quiet_nan() { return __builtin_nan(""); }

}  // namespace desync::compat
