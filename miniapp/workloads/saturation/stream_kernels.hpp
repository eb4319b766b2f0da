#pragma once
// The STREAM kernels of the saturation sweep and the STREAM table, as functors over W workers:
// worker w of W owns the contiguous block [block_begin(n, W, w), block_begin(n, W, w + 1)) of
// every array and is the only one that touches it (first touch included), so with the OpenMP
// backend and a RangePolicy of W items in chunks of 1, exactly W threads stream.
//
// Every kernel writes A and only reads B, C, D, whose values are functions of the global element
// index g (init_b, init_c, init_d): small numbers whose sums and products are exact in double, so
// each result is checked exactly against its formula (expected()):
//   copy        a = b              16 B per element (STREAM counting: one read, one write;
//   scale       a = s b            16 B              the write-allocate read of A is not counted)
//   add         a = b + c          24 B
//   triad       a = b + s c        24 B
//   triad_nt    a = b + s c        24 B, non-temporal stores (nt_store.hpp: no write-allocate)
//   schoenauer  a = b + c d        32 B
// with s = 3 (STREAM's scalar).
#include "config/config.hpp"
#include "workloads/saturation/saturation_config.hpp"
#include "core/types.hpp"
#include "kokkos_compat/math.hpp"
#include "workloads/saturation/nt_store.hpp"

namespace desync::saturation {

inline constexpr double scalar = 3.0;

KOKKOS_INLINE_FUNCTION double init_b(Index g) { return 1.0 + 0.5 * static_cast<double>(g % 7); }
KOKKOS_INLINE_FUNCTION double init_c(Index g) { return 2.0 + 0.25 * static_cast<double>(g % 5); }
KOKKOS_INLINE_FUNCTION double init_d(Index g) { return 1.0 + static_cast<double>(g % 3); }

// What kernel k leaves in A at global index g.
KOKKOS_INLINE_FUNCTION double expected(SaturationKernel k, Index g) {
  switch (k) {
    case SaturationKernel::copy: return init_b(g);
    case SaturationKernel::scale: return scalar * init_b(g);
    case SaturationKernel::add: return init_b(g) + init_c(g);
    case SaturationKernel::triad:
    case SaturationKernel::triad_nt: return init_b(g) + scalar * init_c(g);
    case SaturationKernel::schoenauer: return init_b(g) + init_c(g) * init_d(g);
  }
  return 0.0;
}

// First element of worker w's block when n elements are split over `workers` (the first
// n mod workers blocks one longer).
KOKKOS_INLINE_FUNCTION Index block_begin(Index n, Index workers, Index w) {
  return n / workers * w + (w < n % workers ? w : n % workers);
}

// The arrays of one set of workers: A (result), B, C, D (inputs; C and D empty when no kernel
// of the run reads them), n elements each, global indices offset .. offset + n - 1.
struct Arrays {
  Vector a, b, c, d;
  Index n = 0, offset = 0, workers = 1;
};

// First touch: every worker writes its own block of every array (A gets NaN).
struct Init {
  Arrays x;
  KOKKOS_INLINE_FUNCTION void operator()(Index w) const {
    const Index lo = block_begin(x.n, x.workers, w), hi = block_begin(x.n, x.workers, w + 1);
    const bool has_c = x.c.extent(0) > 0, has_d = x.d.extent(0) > 0;
    for (Index i = lo; i < hi; ++i) {
      const Index g = x.offset + i;
      x.a(i) = compat::quiet_nan();
      x.b(i) = init_b(g);
      if (has_c) x.c(i) = init_c(g);
      if (has_d) x.d(i) = init_d(g);
    }
  }
};

// A = NaN before a kernel's sweeps, so a kernel that wrote nothing cannot pass on the previous
// kernel's result (triad and triad_nt leave the same values).
struct Poison {
  Arrays x;
  KOKKOS_INLINE_FUNCTION void operator()(Index w) const {
    const Index hi = block_begin(x.n, x.workers, w + 1);
    for (Index i = block_begin(x.n, x.workers, w); i < hi; ++i) x.a(i) = compat::quiet_nan();
  }
};

// Plain loops over raw restrict pointers, so the compiler vectorizes them. Copy adds 0.0: it
// keeps normal stores (the loop is not turned into memcpy, which in glibc switches to
// non-temporal stores for large blocks) and is exact (no -0.0 among the values).
struct Copy {
  static constexpr const char* label = "desync::saturation::copy";
  Arrays x;
  KOKKOS_INLINE_FUNCTION void operator()(Index w) const {
    double* KOKKOS_RESTRICT a = x.a.data();
    const double* KOKKOS_RESTRICT b = x.b.data();
    const Index hi = block_begin(x.n, x.workers, w + 1);
    for (Index i = block_begin(x.n, x.workers, w); i < hi; ++i) a[i] = b[i] + 0.0;
  }
};

struct Scale {
  static constexpr const char* label = "desync::saturation::scale";
  Arrays x;
  KOKKOS_INLINE_FUNCTION void operator()(Index w) const {
    double* KOKKOS_RESTRICT a = x.a.data();
    const double* KOKKOS_RESTRICT b = x.b.data();
    const Index hi = block_begin(x.n, x.workers, w + 1);
    for (Index i = block_begin(x.n, x.workers, w); i < hi; ++i) a[i] = scalar * b[i];
  }
};

struct Add {
  static constexpr const char* label = "desync::saturation::add";
  Arrays x;
  KOKKOS_INLINE_FUNCTION void operator()(Index w) const {
    double* KOKKOS_RESTRICT a = x.a.data();
    const double* KOKKOS_RESTRICT b = x.b.data();
    const double* KOKKOS_RESTRICT c = x.c.data();
    const Index hi = block_begin(x.n, x.workers, w + 1);
    for (Index i = block_begin(x.n, x.workers, w); i < hi; ++i) a[i] = b[i] + c[i];
  }
};

struct Triad {
  static constexpr const char* label = "desync::saturation::triad";
  Arrays x;
  KOKKOS_INLINE_FUNCTION void operator()(Index w) const {
    double* KOKKOS_RESTRICT a = x.a.data();
    const double* KOKKOS_RESTRICT b = x.b.data();
    const double* KOKKOS_RESTRICT c = x.c.data();
    const Index hi = block_begin(x.n, x.workers, w + 1);
    for (Index i = block_begin(x.n, x.workers, w); i < hi; ++i) a[i] = b[i] + scalar * c[i];
  }
};

// Host only (nt_stores_available): dispatched on the host execution space.
struct TriadNt {
  Arrays x;
  void operator()(Index w) const {
    const Index lo = block_begin(x.n, x.workers, w), hi = block_begin(x.n, x.workers, w + 1);
    triad_nt_block(x.a.data() + lo, x.b.data() + lo, x.c.data() + lo, scalar, hi - lo);
  }
};

struct Schoenauer {
  static constexpr const char* label = "desync::saturation::schoenauer";
  Arrays x;
  KOKKOS_INLINE_FUNCTION void operator()(Index w) const {
    double* KOKKOS_RESTRICT a = x.a.data();
    const double* KOKKOS_RESTRICT b = x.b.data();
    const double* KOKKOS_RESTRICT c = x.c.data();
    const double* KOKKOS_RESTRICT d = x.d.data();
    const Index hi = block_begin(x.n, x.workers, w + 1);
    for (Index i = block_begin(x.n, x.workers, w); i < hi; ++i) a[i] = b[i] + c[i] * d[i];
  }
};

// Elements of A that differ from expected(k, offset + i), NaN and Inf included.
struct CountWrong {
  Vector a;
  Index offset;
  SaturationKernel k;
  KOKKOS_INLINE_FUNCTION void operator()(Index i, Index& wrong) const {
    if (!(a(i) == expected(k, offset + i))) ++wrong;
  }
};

}  // namespace desync::saturation
