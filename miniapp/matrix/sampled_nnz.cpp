#include "matrix/sampled_nnz.hpp"

#include <algorithm>
#include <vector>

#include "matrix/row_partition.hpp"

namespace desync {

double sampled_nnz(const MatrixGenerator& g, GlobalIndex begin, GlobalIndex end, int samples) {
  const GlobalIndex n = end - begin;
  if (n <= 0) return 0.0;
  const GlobalIndex k = std::min<GlobalIndex>(n, samples);
  std::vector<GlobalIndex> cols(static_cast<std::size_t>(g.max_row_entries()));
  std::vector<Scalar> vals(cols.size());
  double sum = 0.0;
  // One row from each of k equal strata, at a position inside it that moves from stratum to
  // stratum (the fractional parts of i x the golden ratio): evenly spaced rows, one stride
  // apart, alias with a lattice whose period divides the stride (minife 63^3: every sample on
  // the x = 0 face, the estimate 33 % low).
  constexpr double golden = 0.6180339887498949;
  for (GlobalIndex i = 0; i < k; ++i) {
    const double x = static_cast<double>(i) * golden, offset = x - static_cast<double>(static_cast<GlobalIndex>(x));
    const auto r = begin + static_cast<GlobalIndex>((static_cast<double>(i) + offset) * static_cast<double>(n) / static_cast<double>(k));
    sum += g.row(std::min(r, end - 1), cols.data(), vals.data());
  }
  return sum / static_cast<double>(k) * static_cast<double>(n);
}

RankShare rank_share(const MatrixGenerator& g, PartitionKind kind, int rank, int size) {
  RankShare s;
  s.total_rows = static_cast<double>(g.rows());
  if (kind == PartitionKind::rows) {
    const RowPartition p = partition_by_rows(g.rows(), size);
    s.rows = static_cast<double>(p.rows(rank));
    s.nnz = sampled_nnz(g, p.begin(rank), p.end(rank));
  } else {
    s.nnz = sampled_nnz(g, 0, g.rows()) / size;
    s.rows = s.total_rows / size;
  }
  return s;
}

}  // namespace desync
