#pragma once
// The communication pattern of one rank's rows: which remote vector entries its rows touch,
// grouped by the rank that owns them. This is what the rank receives in a halo exchange.
#include <vector>

#include "matrix/generator.hpp"
#include "matrix/row_partition.hpp"

namespace desync {

struct RemoteBlock {
  int owner = -1;
  GlobalIndex entries = 0;  // distinct columns owned by `owner`
};

struct RankPattern {
  GlobalIndex rows = 0;
  GlobalIndex nnz = 0;
  GlobalIndex remote_nnz = 0;  // of nnz, those in columns of other ranks (the remote part's)
  GlobalIndex bandwidth = 0;  // max |i - j| over the rank's nonzeros
  std::vector<RemoteBlock> recv;  // ascending owner
  std::vector<GlobalIndex> remote_columns;  // sorted, distinct (only if keep_columns)
  // Entries per row, all and in the rank's own columns only (only if keep_lengths): what
  // SELL-C-sigma's fill-in depends on (desync plan).
  std::vector<std::int32_t> lengths, local_lengths;
};

// Generates rows [begin, end) of `rank` in parallel and collects its remote columns. With
// keep_columns the sorted distinct remote column list is returned too (it is the halo order:
// sorted global columns are grouped by owner, owners ascending).
RankPattern scan_rank(const MatrixGenerator& g, const RowPartition& p, int rank, bool keep_columns = false,
                      bool keep_lengths = false);

}  // namespace desync
