#pragma once
// `desync plan`: the partition and halo-exchange plan of a matrix for P virtual ranks, built in
// one process by streaming one rank's rows at a time (docs/method.md, "Plan").
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "matrix/matrix_config.hpp"
#include "matrix/generator.hpp"
#include "matrix/row_partition.hpp"

namespace desync {

// The communication model of a workload's own plan (WorkloadModule::plan, e.g. SymmSquareCube's):
// bandwidth in MiB/s (2^20 B/s, the study's MB/s), latency in microseconds; bandwidth 0: volumes only.
struct PlanModelOptions {
  double bandwidth_MiBps = 0.0;
  double latency_us = 0.0;
};

struct PlanOptions {
  int ranks = 1;
  int ranks_per_node = 0;  // 0: all ranks on one node
  int nb = 1;              // vectors per block: message bytes scale with it
  int scalar_bytes = 0;    // bytes per halo value; 0: the generator's (16 complex, 8 real)
  int only_rank = -1;      // >= 0: scan only this rank (no global nnz/bandwidth)
  int spy_grid = -1;       // G of the spy grid: -1 = min(256, nr), 0 = none (docs/output.md, plan JSON)
};

// The nonzeros of a G x G grid of row and column blocks, counted while the plan scans the rows
// (the matrix is never stored): index i (row or column) lies in block floor(i G / nr), so block b
// covers [edge(b), edge(b + 1)) with edge(b) = ceil(b nr / G). Sums to the scanned nonzeros.
struct SpyGrid {
  int size = 0;                      // G; 0: not counted
  std::vector<std::int64_t> counts;  // [G * G], counts[row block * G + column block]
  static GlobalIndex edge(GlobalIndex b, GlobalIndex nr, int size) { return (b * nr + size - 1) / size; }
};

struct PlanPartner {
  int rank = 0;
  GlobalIndex entries = 0;  // vector entries received from `rank` per exchange
  std::int64_t bytes = 0;   // entries * scalar bytes * nb
  int distance = 0;         // rank - self
  bool intra_node = false;
};

struct PlanRank {
  int rank = 0;
  GlobalIndex rows = 0, nnz = 0;
  // [matrix] format = "sell": entries stored with padding, whole rows and own columns only
  // (the local part SPLIT-WAIT and the spmv kernels run on); 0 for CRS.
  std::int64_t sell_stored = 0, sell_stored_local = 0;
  GlobalIndex local_nnz = 0;
  std::vector<PlanPartner> partners;
};

struct DistanceProfile {
  int distance = 0;
  std::int64_t bytes = 0;   // typical (median) message size at this distance
  std::int64_t count = 0;   // messages at this distance over all ranks
};

struct PlanProfile {
  std::vector<DistanceProfile> distances;  // ascending distance
  double msg_bytes_min = 0, msg_bytes_mean = 0, msg_bytes_max = 0;
  double partners_min = 0, partners_mean = 0, partners_max = 0;
  // What each rank sends per exchange (from the others' receive lists; every rank scanned only),
  // and its imbalance over ranks as max/mean - 1 and 1 - mean/max (docs/method.md, section 3).
  bool all_ranks = false;
  std::vector<std::int64_t> send_bytes, send_messages;  // [rank]
  double bytes_imbalance = 0, bytes_imbalance_of_max = 0, messages_imbalance = 0, messages_imbalance_of_max = 0;
};

struct Plan {
  std::string generator;
  std::string format = "crs";  // "crs" or "SELL-C-sigma" with its C and sigma
  int sell_chunk = 0, sell_sigma = 0;
  bool aligned = false;        // [matrix.sell] align_rows: row ranges start on whole chunks
  // Fill-in over the scanned ranks: sum nnz / sum stored (whole rows; own columns only).
  double sell_beta = 1.0, sell_beta_local = 1.0;
  GlobalIndex nr = 0, nnz = 0, bandwidth = 0;
  bool global_counts = true;  // false with only_rank: nnz and bandwidth cover that rank only
  int scalar_bytes = 8, nb = 1, ranks = 1, ranks_per_node = 0;
  RowPartition partition;
  std::vector<PlanRank> ranks_info;
  PlanProfile profile;
  SpyGrid spy;
};

// progress(rank_done, ranks_total) is called after each rank.
Plan build_plan(const MatrixGenerator& g, const MatrixConfig& cfg, const PlanOptions& opt,
                const std::function<void(int, int)>& progress = {});

PlanProfile plan_profile(const std::vector<PlanRank>& ranks);

std::string plan_text(const Plan& p);
std::string plan_json(const Plan& p);

}  // namespace desync
