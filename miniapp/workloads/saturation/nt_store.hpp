#pragma once
// Non-temporal ("streaming") stores for the triad_nt kernel: a(i) = b(i) + s * c(i) written with
// x86 SSE2 `_mm_stream_pd`, which bypasses the caches, so the store stream needs no
// write-allocate read of A (papers.md B.4: on Emmy NT stores halve the single-core bandwidth and
// move the saturation point out). Only compiled where the compiler targets SSE2 (every x86-64
// build) and only used when the default execution space runs on the host (OpenMP, Serial, ...);
// elsewhere `nt_stores_available` is false and a deck asking for "triad_nt" is refused.
#include <cstdint>
#include <type_traits>

#include "core/types.hpp"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace desync::saturation {

#if defined(__SSE2__)
inline constexpr bool nt_stores_compiled = true;
#else
inline constexpr bool nt_stores_compiled = false;
#endif

// The kernel can run: the instructions exist and the arrays live where host threads write them.
inline constexpr bool nt_stores_available =
    nt_stores_compiled && std::is_same<ExecSpace, Kokkos::DefaultHostExecutionSpace>::value;

// a[0..n) = b + s * c with streaming stores (normal stores for the few elements before A is
// 16-byte aligned and the odd last one), then a store fence so the data is globally visible
// before the caller's fence returns. Host code only.
inline void triad_nt_block(double* a, const double* b, const double* c, double s, Index n) {
  Index i = 0;
#if defined(__SSE2__)
  for (; i < n && (reinterpret_cast<std::uintptr_t>(a + i) & 15u) != 0; ++i) a[i] = b[i] + s * c[i];
  const __m128d vs = _mm_set1_pd(s);
  for (; i + 2 <= n; i += 2)
    _mm_stream_pd(a + i, _mm_add_pd(_mm_loadu_pd(b + i), _mm_mul_pd(vs, _mm_loadu_pd(c + i))));
  for (; i < n; ++i) a[i] = b[i] + s * c[i];
  _mm_sfence();
#else
  for (; i < n; ++i) a[i] = b[i] + s * c[i];  // never called: decks asking for triad_nt are refused
#endif
}

}  // namespace desync::saturation
