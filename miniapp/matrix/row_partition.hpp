#pragma once
// Contiguous row blocks per rank (docs/method.md, "Partition"):
//   by rows: trunc(N/P) rows per rank, the remainder to the last rank (GHOST's rule, which the
//            papers' TOPI communication table needs);
//   by nnz : rank k starts at the first row whose preceding rows hold >= k*nnz/P nonzeros.
#include <vector>

#include "matrix/matrix_config.hpp"
#include "matrix/generator.hpp"

namespace desync {

struct RowPartition {
  std::vector<GlobalIndex> first;  // P + 1 entries: rank k owns [first[k], first[k+1])

  int ranks() const { return static_cast<int>(first.size()) - 1; }
  GlobalIndex begin(int k) const { return first[static_cast<std::size_t>(k)]; }
  GlobalIndex end(int k) const { return first[static_cast<std::size_t>(k) + 1]; }
  GlobalIndex rows(int k) const { return end(k) - begin(k); }
  int owner(GlobalIndex row) const;  // rank holding `row`
};

RowPartition partition_by_rows(GlobalIndex nr, int ranks);

// Streams all rows twice (count, then locate boundaries inside their chunk). Also returns the
// total number of nonzeros through `nnz` if not null.
RowPartition partition_by_nnz(const MatrixGenerator& g, int ranks, GlobalIndex* nnz = nullptr);

RowPartition make_partition(const MatrixGenerator& g, PartitionKind kind, int ranks);

// GHOST's chunk alignment for SELL-C-sigma: every inner boundary moved to the nearest multiple
// of `chunk` (ties down), kept ascending, so no chunk straddles two ranks and only the last rank
// has a padded chunk. The first and last boundaries stay 0 and nr.
RowPartition align_partition(RowPartition p, int chunk);

// The partition of the [matrix] table: its kind, then chunk alignment where [matrix.sell] asks.
RowPartition make_partition(const MatrixGenerator& g, const MatrixConfig& cfg, int ranks);

}  // namespace desync
