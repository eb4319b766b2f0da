#pragma once
// The compute phases of the triad experiment, as functors on the default execution space.
// Array values are a function of the global element index, so verification can recompute them
// without reading B, C or D (a corrupted input array is then caught too).
#include "core/types.hpp"
#include "kokkos_compat/math.hpp"

namespace desync::triad {

KOKKOS_INLINE_FUNCTION double init_b(Index g) { return 1.0 + 0.5 * static_cast<double>(g % 7); }
KOKKOS_INLINE_FUNCTION double init_c(Index g) { return 2.0 + 0.25 * static_cast<double>(g % 5); }
KOKKOS_INLINE_FUNCTION double init_d(Index g) { return 1.0 + static_cast<double>(g % 3); }

// Divisor of the core-bound kernel: close to one so values neither overflow nor vanish.
inline constexpr double divide_by = 1.000000119;

KOKKOS_INLINE_FUNCTION double divide_chain(double x, Index n) {
  for (Index k = 0; k < n; ++k) x = x / divide_by;
  return x;
}

struct Init {
  Vector a, b, c, d;
  Index offset;
  KOKKOS_INLINE_FUNCTION void operator()(Index i) const {
    const Index g = offset + i;
    a(i) = 0.0;
    b(i) = init_b(g);
    c(i) = init_c(g);
    if (d.extent(0) > 0) d(i) = init_d(g);
  }
};

// STREAM triad A = B + s*C: 2 flops, 3 streams.
struct Stream {
  Vector a, b, c;
  double s;
  KOKKOS_INLINE_FUNCTION void operator()(Index i) const { a(i) = b(i) + s * c(i); }
};

// Slow Schoenauer triad A = B + cos(C/D): 4 streams, a divide and a cosine per element, so a
// core needs longer per byte and the memory interface saturates at more cores.
struct Schoenauer {
  Vector a, b, c, d;
  KOKKOS_INLINE_FUNCTION void operator()(Index i) const { a(i) = b(i) + compat::cos(c(i) / d(i)); }
};

// Core-bound: a chain of dependent divisions per element, negligible memory traffic.
struct Divide {
  Vector a, b;
  Index n;
  KOKKOS_INLINE_FUNCTION void operator()(Index i) const { a(i) = divide_chain(b(i), n); }
};

}  // namespace desync::triad
