#pragma once
// Shared by the generator tests: streams every row of a MatrixGenerator in order and summarizes
// its pattern the way matrices.md §9's test vectors state it (rows, nonzeros, bandwidth, FNV-1a
// pattern hash), counting the rows that break §1's normal form instead of failing inside the loop.
#include <cstdint>
#include <vector>

#include "matrix/generator.hpp"

namespace desync::test {

struct MatrixSummary {
  GlobalIndex nr = 0, nnz = 0, bandwidth = 0;  // bandwidth: max |i - j| over stored entries
  std::uint64_t hash = fnv_offset;             // fnv1a_row over rows 0..nr-1
  GlobalIndex bad_rows = 0;  // rows unsorted, with a duplicate column, or a column outside [0, nr)
};

// Streams rows 0..nr-1 in order; calls on_entry(row, column, value) for every stored entry, so a
// test can add its own per-value checks (e.g. no stored zeros, real values).
template <class OnEntry>
MatrixSummary summarize(const MatrixGenerator& g, OnEntry&& on_entry) {
  MatrixSummary s;
  s.nr = g.rows();
  std::vector<GlobalIndex> cols(static_cast<std::size_t>(g.max_row_entries()));
  std::vector<Scalar> vals(cols.size());
  for (GlobalIndex r = 0; r < s.nr; ++r) {
    const int n = g.row(r, cols.data(), vals.data());
    bool ok = true;
    for (int i = 0; i < n; ++i) {
      const GlobalIndex c = cols[static_cast<std::size_t>(i)];
      if (c < 0 || c >= s.nr || (i > 0 && cols[static_cast<std::size_t>(i - 1)] >= c)) ok = false;
      const GlobalIndex d = c > r ? c - r : r - c;
      if (d > s.bandwidth) s.bandwidth = d;
      on_entry(r, c, vals[static_cast<std::size_t>(i)]);
    }
    if (!ok) ++s.bad_rows;
    s.nnz += n;
    s.hash = fnv1a_row(s.hash, r, cols.data(), n);
  }
  return s;
}

inline MatrixSummary summarize(const MatrixGenerator& g) {
  return summarize(g, [](GlobalIndex, GlobalIndex, const Scalar&) {});
}

}  // namespace desync::test
