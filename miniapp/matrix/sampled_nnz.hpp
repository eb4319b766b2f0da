#pragma once
// A matrix's size without generating it: nonzeros of a row range from a sample of its rows, and a
// rank's share under a partition rule. Used by the memory estimates (docs/decks.md, "Memory").
#include "matrix/matrix_config.hpp"
#include "matrix/generator.hpp"

namespace desync {

// Nonzeros of rows [begin, end) estimated from at most `samples` rows, one per equal stratum
// (every row when the range holds no more).
double sampled_nnz(const MatrixGenerator& g, GlobalIndex begin, GlobalIndex end, int samples = 2048);

// The rank's rows and (estimated) nonzeros under `kind`: by rows exactly, by nnz as the mean
// share of the sampled total; the halo is bounded by min(nnz, N - rows).
struct RankShare {
  double rows = 0, nnz = 0, total_rows = 0;
  double halo_bound() const { return nnz < total_rows - rows ? nnz : total_rows - rows; }
};
RankShare rank_share(const MatrixGenerator& g, PartitionKind kind, int rank, int size);

}  // namespace desync
