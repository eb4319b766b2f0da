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

}  // namespace desync::compat
