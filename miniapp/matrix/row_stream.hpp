#pragma once
// Streams generated rows on the host in parallel. Rows are cut into chunks; each chunk runs on
// one host thread with its own scratch, allocated once per chunk (not per row), so a chunk's
// rows are generated allocation-free.
#include <Kokkos_Core.hpp>
#include <vector>

#include "matrix/generator.hpp"

namespace desync {

inline constexpr GlobalIndex row_chunk = 4096;

inline GlobalIndex chunk_count(GlobalIndex begin, GlobalIndex end) { return (end - begin + row_chunk - 1) / row_chunk; }

// Calls f(chunk, row, cols, vals, n) for every row of [begin, end); `chunk` numbers the chunks
// of this call from 0 so callers can keep per-chunk results without locks.
template <class F>
void for_each_row(const MatrixGenerator& g, GlobalIndex begin, GlobalIndex end, const std::string& label, F&& f) {
  const GlobalIndex chunks = chunk_count(begin, end);
  const int width = g.max_row_entries();
  using Host = Kokkos::DefaultHostExecutionSpace;
  Kokkos::parallel_for(label, Kokkos::RangePolicy<Host, Kokkos::IndexType<GlobalIndex>, Kokkos::Schedule<Kokkos::Dynamic>>(0, chunks),
                       [&](GlobalIndex c) {
                         std::vector<GlobalIndex> cols(static_cast<std::size_t>(width));
                         std::vector<Scalar> vals(static_cast<std::size_t>(width));
                         const GlobalIndex first = begin + c * row_chunk;
                         const GlobalIndex last = std::min(end, first + row_chunk);
                         for (GlobalIndex r = first; r < last; ++r) {
                           const int n = g.row(r, cols.data(), vals.data());
                           f(c, r, cols.data(), vals.data(), n);
                         }
                       });
  Kokkos::fence();
}

}  // namespace desync
