#pragma once
// SELL-C-sigma (Kreutzer et al., SIAM J. Sci. Comput. 36(5), 2014; papers.md A.3.4, GHOST): the
// rows in chunks of C, every chunk stored column-major and padded to its longest row, rows sorted
// by length inside windows of sigma rows first, so that the rows of a chunk have similar lengths.
// Lane l of chunk column j of chunk c is entry chunk_ptr(c) + j*C + l: one load of C consecutive
// values feeds C independent sums (SIMD lanes on a CPU, threads of a warp on a GPU), where CRS
// sums one row after the other in a dependent chain.
//
// Only the rows are permuted: columns keep their local numbering, so x, the halo plan and the
// messages are those of CRS, and every kernel writes row row_of(c*C + l) of y. Inside a row the
// entries keep their CRS order, so each row's sum is bitwise the CRS sum (padding adds 0 * x(0)).
#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/types.hpp"
#include "kokkos_compat/staging_space.hpp"

namespace desync {

// The chunk heights the kernels are compiled for (the lane loop is unrolled by the compiler).
inline constexpr int sell_chunks[] = {1, 2, 4, 8, 16, 32};

template <class T>
struct SellMatrix {
  int chunk = 1, sigma = 1;
  std::int32_t rows = 0, chunks = 0;
  std::int64_t nnz = 0;     // entries of the CRS matrix it was built from
  std::int64_t stored = 0;  // entries stored, padding included: chunks' C x width
  RowOffsets chunk_ptr;     // chunks + 1: first stored entry of each chunk
  LocalColumns row_of;      // chunks * C: the row lane l of chunk c computes; -1 for padding lanes
  LocalColumns col;         // stored: local column (0 in padding)
  Values<T> val;            // stored: value (0 in padding)

  // Fill-in ratio beta = nnz / stored (1: no padding; Kreutzer et al.'s definition).
  double beta() const { return stored > 0 ? static_cast<double>(nnz) / static_cast<double>(stored) : 1.0; }
};

// SELL-C-sigma of a CRS matrix with `rows` rows (views in MemSpace). chunk must be one of
// sell_chunks, sigma 1 or a multiple of chunk (the deck loader checks both).
template <class T>
SellMatrix<T> make_sell(const RowOffsets& row_ptr, const LocalColumns& col, const Values<T>& val, std::int32_t rows,
                        int chunk, int sigma, const char* label);

// The row order of SELL-C-sigma: rows sorted by descending length inside each window of sigma
// rows (stable: equal lengths keep their order). lengths[i] is row i's entry count.
std::vector<std::int32_t> sell_row_order(const std::vector<std::int32_t>& lengths, int sigma);

// Entries SELL-C-sigma stores (padding included) for rows with these entry counts, and its beta,
// without building it (desync plan).
std::int64_t sell_stored(const std::vector<std::int32_t>& lengths, int chunk, int sigma);
double sell_beta(const std::vector<std::int32_t>& lengths, int chunk, int sigma);

// Bytes of a SELL-C-sigma copy of rows with nnz entries of scalar_bytes each, for the memory
// preflights (which see sampled row counts, not every row's length): entries padded to an
// assumed beta of sell_beta_assumed (desync plan prints the actual beta), a 4-byte row index per
// lane and an 8-byte offset per chunk.
inline constexpr double sell_beta_assumed = 1.25;
inline double sell_bytes_estimate(double rows, double nnz, double scalar_bytes, int chunk) {
  return nnz * sell_beta_assumed * (scalar_bytes + 4.0) + rows * 4.0 + rows / chunk * 8.0;
}

// Which work mapping a SELL kernel runs on a space, fixed at compile time: a work item per row of a
// chunk where memory is not the host's (a GPU: consecutive items read consecutive entries of the
// column-major chunk), a chunk per work item on the host (SIMD lanes, independent add chains;
// ChebFD at nb = 2 to 64 runs a row's block columns in the lanes, chebfd_sell_kernels.hpp).
// The SpMV and ChebFD kernels both take it; tests force either one on any space.
enum class SellMapping { chunk_per_item, row_per_item };
template <class Space>
inline constexpr SellMapping sell_mapping_for =
    compat::host_accessible<Space> ? SellMapping::chunk_per_item : SellMapping::row_per_item;

// Calls f(std::integral_constant<int, C>{}) for the runtime chunk height: the kernel's lane
// count becomes a compile-time constant, chosen once per launch.
template <class F>
void with_chunk(int chunk, F&& f) {
  switch (chunk) {
    case 1: f(std::integral_constant<int, 1>{}); break;
    case 2: f(std::integral_constant<int, 2>{}); break;
    case 4: f(std::integral_constant<int, 4>{}); break;
    case 8: f(std::integral_constant<int, 8>{}); break;
    case 16: f(std::integral_constant<int, 16>{}); break;
    default: f(std::integral_constant<int, 32>{}); break;  // the loader allows nothing else
  }
}

}  // namespace desync
