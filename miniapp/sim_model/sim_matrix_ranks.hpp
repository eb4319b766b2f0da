#pragma once
// The ranks of a matrix workload on the modelled cluster (the simulated programs of SpMV, ChebFD
// and CG): every rank's row scan under desync's own partition (make_partition, scan_rank: what
// `desync plan` runs for P virtual ranks) and its halo plan as build_halo_plan makes it in a real
// run, without the index lists.
#include <cstdint>
#include <vector>

#include "comm/halo_plan.hpp"
#include "matrix/generator.hpp"
#include "matrix/rank_pattern.hpp"
#include "matrix/row_partition.hpp"
#include "record/workload_result.hpp"

namespace desync::sim {

struct MatrixRanks {
  RowPartition partition;
  std::vector<RankPattern> scans;
  std::vector<HaloPlan> plans;
};
// keep_lengths: each scan keeps its rows' entry counts (all, own columns: RankPattern).
MatrixRanks matrix_ranks(const MatrixGenerator& g, PartitionKind partition, int ranks, bool keep_lengths = false);
// A rank's /matrix/rows and /matrix/nnz, written by the real run's own helper (add_matrix_share).
std::vector<WorkloadDataset> matrix_share_datasets(GlobalIndex rows, GlobalIndex nnz);
// Vector entries of a halo plan's partner list (received: the halo; sent: what the pack gathers).
std::int64_t halo_entries(const std::vector<HaloPartner>& list);

}  // namespace desync::sim
