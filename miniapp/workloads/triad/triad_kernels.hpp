#pragma once
// The compute phases of the triad experiment, as functors on the default execution space.
// Array values are a function of the global element index, so verification can recompute them
// without reading B, C or D (a corrupted input array is then caught too).
#include <string>

#include "core/types.hpp"
#include "kokkos_compat/math.hpp"
#include "kokkos_compat/staging_space.hpp"

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

// How a streaming kernel's elements are spread over a space's threads, chosen at compile time by
// its memory (tests force either): an element per thread (host: OpenMP's static schedule hands
// each thread one contiguous stretch), or on a GPU four elements per thread, ceil(n/4) apart.
// Kokkos 3.4's CUDA range launch of an element per thread (64-thread blocks, the smallest of
// full theoretical occupancy) moved 2.5 TB/s on an H200, 0.63 of deep_copy's 4.0; four per
// thread moved 4.16 (bench_triad's launch shapes, docs/method.md section 28).
enum class StreamShape { element_per_thread, four_per_thread };
template <class Space>
inline constexpr StreamShape stream_shape_for =
    compat::host_accessible<Space> ? StreamShape::element_per_thread : StreamShape::four_per_thread;

// f(i) for i in [0, n), four per work item: i, i + q, i + 2q, i + 3q with q = ceil(n / 4), so
// each of the four accesses of a warp stays one coalesced run.
template <class F>
struct FourPerThread {
  F f;
  Index n, q;
  KOKKOS_INLINE_FUNCTION void operator()(Index i) const {
    for (Index j = i; j < n; j += q) f(j);
  }
};

// Runs the element kernel f on [0, n) with the space's shape.
template <class Space = ExecSpace, StreamShape S = stream_shape_for<Space>, class F>
void stream_for(const std::string& label, Index n, const F& f) {
  using Policy = Kokkos::RangePolicy<Space, Kokkos::IndexType<Index>>;
  if constexpr (S == StreamShape::four_per_thread) {
    const Index q = (n + 3) / 4;
    Kokkos::parallel_for(label, Policy(0, q), FourPerThread<F>{f, n, q});
  } else {
    Kokkos::parallel_for(label, Policy(0, n), f);
  }
}

}  // namespace desync::triad
