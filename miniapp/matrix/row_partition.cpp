#include "matrix/row_partition.hpp"

#include <stdexcept>
#include <string>

#include "matrix/minife.hpp"

#include <algorithm>
#include <stdexcept>

#include "matrix/row_stream.hpp"

namespace desync {

int RowPartition::owner(GlobalIndex row) const {
  // Last rank whose first row is <= row; empty ranks share their first row with the next.
  const auto it = std::upper_bound(first.begin(), first.end() - 1, row);
  return static_cast<int>(it - first.begin()) - 1;
}

RowPartition partition_by_rows(GlobalIndex nr, int ranks) {
  if (ranks < 1) throw std::invalid_argument("partition: need at least one rank");
  RowPartition p;
  const GlobalIndex base = nr / ranks;
  for (int k = 0; k < ranks; ++k) p.first.push_back(k * base);
  p.first.push_back(nr);
  return p;
}

RowPartition partition_by_nnz(const MatrixGenerator& g, int ranks, GlobalIndex* nnz_out) {
  if (ranks < 1) throw std::invalid_argument("partition: need at least one rank");
  const GlobalIndex nr = g.rows();
  std::vector<GlobalIndex> per_chunk(static_cast<std::size_t>(chunk_count(0, nr)), 0);
  for_each_row(g, 0, nr, "desync::matrix::count_nonzeros",
               [&](GlobalIndex c, GlobalIndex, const GlobalIndex*, const Scalar*, int n) {
                 per_chunk[static_cast<std::size_t>(c)] += n;
               });
  std::vector<GlobalIndex> chunk_start(per_chunk.size() + 1, 0);  // nonzeros before each chunk
  for (std::size_t c = 0; c < per_chunk.size(); ++c) chunk_start[c + 1] = chunk_start[c] + per_chunk[c];
  const GlobalIndex nnz = chunk_start.back();
  if (nnz_out) *nnz_out = nnz;

  RowPartition p;
  p.first.push_back(0);
  std::vector<GlobalIndex> cols(static_cast<std::size_t>(g.max_row_entries()));
  std::vector<Scalar> vals(cols.size());
  for (int k = 1; k < ranks; ++k) {
    // Rank k starts at the first row r with nonzeros(rows < r) >= target (ceil of k*nnz/P).
    const GlobalIndex target = (static_cast<__int128>(k) * nnz + ranks - 1) / ranks;
    const auto c = static_cast<GlobalIndex>(std::upper_bound(chunk_start.begin(), chunk_start.end(), target) -
                                            chunk_start.begin()) - 1;
    GlobalIndex row = std::min(nr, c * row_chunk), before = chunk_start[static_cast<std::size_t>(std::min<GlobalIndex>(c, per_chunk.size()))];
    while (row < nr && before < target) before += g.row(row++, cols.data(), vals.data());
    p.first.push_back(std::max(row, p.first.back()));
  }
  p.first.push_back(nr);
  return p;
}

RowPartition make_partition(const MatrixGenerator& g, PartitionKind kind, int ranks) {
  if (kind == PartitionKind::box) {
    // The deck loader allows "box" only for minife and checks px py pz = P at run start.
    const auto* fe = dynamic_cast<const Minife*>(&g);
    if (!fe) throw std::invalid_argument("partition \"box\" needs the minife generator");
    if (static_cast<int>(fe->box_starts().size()) - 1 != ranks)
      throw std::invalid_argument("partition \"box\": [matrix.minife] grid has " +
                                  std::to_string(fe->box_starts().size() - 1) + " boxes for " + std::to_string(ranks) + " ranks");
    return RowPartition{fe->box_starts()};
  }
  return kind == PartitionKind::nnz ? partition_by_nnz(g, ranks) : partition_by_rows(g.rows(), ranks);
}

RowPartition align_partition(RowPartition p, int chunk) {
  const GlobalIndex nr = p.first.back(), c = chunk;
  for (std::size_t k = 1; k + 1 < p.first.size(); ++k) {
    const GlobalIndex down = p.first[k] / c * c, up = down + c;
    const GlobalIndex to = (p.first[k] - down <= up - p.first[k]) ? down : up;
    p.first[k] = std::min(nr, std::max(p.first[k - 1], to));
  }
  return p;
}

RowPartition make_partition(const MatrixGenerator& g, const MatrixConfig& cfg, int ranks) {
  RowPartition p = make_partition(g, cfg.partition, ranks);
  if (cfg.format == MatrixFormat::sell && cfg.sell.align_rows) p = align_partition(std::move(p), cfg.sell.chunk);
  return p;
}

}  // namespace desync
