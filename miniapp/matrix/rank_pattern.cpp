#include "matrix/rank_pattern.hpp"

#include <algorithm>
#include <cstdlib>

#include "matrix/column_set.hpp"
#include "matrix/row_stream.hpp"

namespace desync {

RankPattern scan_rank(const MatrixGenerator& g, const RowPartition& p, int rank, bool keep_columns, bool keep_lengths) {
  const GlobalIndex b = p.begin(rank), e = p.end(rank);
  const auto chunks = static_cast<std::size_t>(chunk_count(b, e));
  std::vector<ColumnSet> remote(chunks);
  std::vector<GlobalIndex> nnz(chunks, 0), far(chunks, 0), band(chunks, 0);
  RankPattern out;
  if (keep_lengths) {  // each row written by the one thread that generates it
    out.lengths.assign(static_cast<std::size_t>(e - b), 0);
    out.local_lengths.assign(static_cast<std::size_t>(e - b), 0);
  }
  for_each_row(g, b, e, "desync::matrix::scan_rank",
               [&](GlobalIndex c, GlobalIndex r, const GlobalIndex* cols, const Scalar*, int n) {
                 const auto k = static_cast<std::size_t>(c);
                 nnz[k] += n;
                 const GlobalIndex far_before = far[k];
                 for (int i = 0; i < n; ++i) {
                   band[k] = std::max(band[k], std::abs(cols[i] - r));
                   if (cols[i] < b || cols[i] >= e) {
                     remote[k].add(cols[i]);
                     ++far[k];
                   }
                 }
                 if (keep_lengths) {
                   out.lengths[static_cast<std::size_t>(r - b)] = n;
                   out.local_lengths[static_cast<std::size_t>(r - b)] = n - static_cast<std::int32_t>(far[k] - far_before);
                 }
               });
  out.rows = e - b;
  for (std::size_t k = 0; k < chunks; ++k) {
    out.nnz += nnz[k];
    out.remote_nnz += far[k];
    out.bandwidth = std::max(out.bandwidth, band[k]);
  }
  std::vector<GlobalIndex> all = ColumnSet::merge(remote);
  int owner = -1;
  for (GlobalIndex c : all) {  // sorted: owners ascend, so search only when leaving one
    if (owner < 0 || c >= p.end(owner)) owner = p.owner(c);
    if (out.recv.empty() || out.recv.back().owner != owner) out.recv.push_back({owner, 0});
    ++out.recv.back().entries;
  }
  if (keep_columns) out.remote_columns = std::move(all);
  return out;
}

}  // namespace desync
