#pragma once
// The SELL-C-sigma kernel of the SpMV schemes (matrix/sell_matrix.hpp): y = A_local x for the
// rows of one chunk per work item. The C lane sums are independent, so the loads of a chunk
// column feed C multiply-adds at once; CRS (spmv_kernels.hpp) chains one row's additions, which
// on a CPU costs an addition latency per nonzero (docs/method.md, section 15). Each row's sum
// is bitwise the CRS sum: the same entries in the same order, padding adding 0 * x(0).
#include <string>

#include "core/types.hpp"
#include "matrix/sell_matrix.hpp"

namespace desync::spmv {

template <int C>
struct SellProduct {
  RowOffsets chunk_ptr;
  LocalColumns row_of, col;
  Values<double> val;
  Vector x, y;
  KOKKOS_INLINE_FUNCTION void operator()(std::int32_t c) const {
    const std::size_t o = chunk_ptr(c), width = (chunk_ptr(c + 1) - o) / C;
    double acc[C];
    for (int l = 0; l < C; ++l) acc[l] = 0.0;
    for (std::size_t j = 0; j < width; ++j)
      for (int l = 0; l < C; ++l) acc[l] += val(o + j * C + l) * x(col(o + j * C + l));
    for (int l = 0; l < C; ++l) {
      const std::int32_t r = row_of(static_cast<std::size_t>(c) * C + l);
      if (r >= 0) y(r) = acc[l];
    }
  }
};

// The GPU mapping (GHOST's): one work item per row of a chunk, lane l of chunk c = item c * C + l.
// Consecutive items read consecutive entries of the column-major chunk (coalesced), a warp spans
// 32 / C chunks; each row's sum is the same sequence of additions as above, so y is bitwise the
// same under either mapping.
template <int C>
struct SellRowProduct {
  RowOffsets chunk_ptr;
  LocalColumns row_of, col;
  Values<double> val;
  Vector x, y;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const {
    const std::int64_t c = i / C;
    const int l = static_cast<int>(i % C);
    const std::size_t o = chunk_ptr(c), width = (chunk_ptr(c + 1) - o) / C;
    double acc = 0.0;
    for (std::size_t j = 0; j < width; ++j) acc += val(o + j * C + l) * x(col(o + j * C + l));
    const std::int32_t r = row_of(static_cast<std::size_t>(i));
    if (r >= 0) y(r) = acc;
  }
};

// Chunks [begin, end) of y = A x, chunk height C (a.chunk) fixed at compile time.
// Space: the default execution space; the benchmarks also pass a one-thread host space.
template <int C, class Space = ExecSpace, SellMapping M = sell_mapping_for<Space>>
void sell_product_c(const SellMatrix<double>& a, const Vector& x, const Vector& y, std::int64_t begin, std::int64_t end) {
  if constexpr (M == SellMapping::row_per_item) {
    using Policy = Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>;
    // Built once: Kokkos takes a label as const std::string&, a literal is a new string per launch.
    static const std::string local_sell_rows_label = "desync::spmv::local_sell_rows";
    Kokkos::parallel_for(local_sell_rows_label, Policy(begin * C, end * C),
                         SellRowProduct<C>{a.chunk_ptr, a.row_of, a.col, a.val, x, y});
  } else {
    using Policy = Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int32_t>>;
    // Built once: Kokkos takes a label as const std::string&, a literal is a new string per launch.
    static const std::string local_sell_label = "desync::spmv::local_sell";
    Kokkos::parallel_for(local_sell_label, Policy(static_cast<std::int32_t>(begin), static_cast<std::int32_t>(end)),
                         SellProduct<C>{a.chunk_ptr, a.row_of, a.col, a.val, x, y});
  }
}

// The same, its chunk height chosen from a.chunk at this call: for tests and benchmarks, which
// call it once per measurement; the workload chooses sell_product_c<C> once (spmv_state.cpp).
template <class Space = ExecSpace, SellMapping M = sell_mapping_for<Space>>
void sell_product(const SellMatrix<double>& a, const Vector& x, const Vector& y, std::int64_t begin, std::int64_t end) {
  with_chunk(a.chunk, [&](auto c) { sell_product_c<decltype(c)::value, Space, M>(a, x, y, begin, end); });
}

}  // namespace desync::spmv
