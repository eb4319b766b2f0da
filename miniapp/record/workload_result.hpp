#pragma once
// What a workload hands back to the driver: its timeline and how to read it, the traffic and
// flop models of one iteration, its local verification outcome, its communication partners and
// any numbers and datasets of its own (named, so the driver and the writer know no workload).
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "record/phase_styles.hpp"
#include "record/collective_log.hpp"
#include "record/message_log.hpp"
#include "record/timeline.hpp"

namespace desync {

// Per rank: who it receives from and sends to each iteration, and how many bytes.
struct PartnerList {
  std::vector<int> recv_rank, send_rank;
  std::vector<std::int64_t> recv_bytes, send_bytes;
};

// A run-level number the workload computed (identical on all ranks), stored under /metrics.
struct NamedValue {
  std::string name;
  double value = 0.0;
  std::string units;
  bool count = false;  // an integer count: stored as int64 and printed without decimals
};

inline NamedValue count_value(std::string name, std::int64_t n) {
  return {std::move(name), static_cast<double>(n), "1", true};
}

// A dataset of the workload's own, written to /<group>/<name> (docs/output.md): per_rank: one row
// of `dims` per rank (every rank passes the same dims), else the same values on every rank,
// written once with shape `dims` ({} = a scalar). integer: stored as int64 (counts, sizes).
struct WorkloadDataset {
  std::string group, name, units;
  std::vector<std::uint64_t> dims;
  std::vector<double> values;
  bool per_rank = false;
  bool integer = false;
};

struct WorkloadResult {
  explicit WorkloadResult(Timeline t) : timeline(std::move(t)) {}

  Timeline timeline;
  std::vector<CompositePhase> composites;  // e.g. exec = local + remote
  std::string work_phase = "compute";       // the phase bandwidth refers to
  // Phases spent inside MPI calls, for the time-in-MPI share (metrics/comm_balance.hpp).
  std::vector<std::string> mpi_phases{"post", "wait", "reply", "sync"};
  double bytes_per_iteration = 0.0;         // memory traffic model of this rank's work phase
  double flops_per_iteration = 0.0;         // this rank
  std::int64_t elements_checked = 0;
  std::int64_t element_errors = 0;
  std::int64_t messages_checked = 0;
  std::int64_t message_errors = 0;
  PartnerList partners;
  std::vector<NamedValue> metrics;
  std::vector<WorkloadDataset> datasets;    // in the same order on every rank
  std::string report;                       // rank 0 prints it after the summary (e.g. a table per size)
  std::string extra_verdict;                // a workload-specific failure reason, empty if none
  std::uint64_t result_fingerprint = 0;     // hash of this rank's final vector bits (tests compare schemes)
  double result_norm2 = 0.0;                // sum of squares of the same vector (backends compare within a tolerance)
  // The workload fills the two above (on any rank): run_deck writes /summary/result_fingerprint and
  // /summary/result_norm2 for every rank (0 where a rank holds no result, e.g. a parked one).
  bool has_result_digest = false;
  std::int64_t nonfinite = 0;               // Inf/NaN values in this rank's final result (fail the run)
  // A run stopped early by a signal (loop/iteration_control.hpp): the timeline holds the
  // iterations done; stop_signal is 0 for a complete run.
  int stop_signal = 0;
  // The rank slept through the kernel ([placement] active_ppn, workload/active_subset.hpp): its
  // timeline rows are all NaN, which is not a recording error.
  bool parked = false;
  // Why the workload could not verify (e.g. a filter stopped before its full degree); empty if it did.
  std::string verification_skipped;
  // What a size left out of a check that passed otherwise (a matrix above the size of its
  // serial reference: invariants only); empty when everything was checked. The same text on every rank (a decision from global sizes). Written as the
  // root attribute verification_scope and printed beside the verdict.
  std::string verification_scope;
  std::shared_ptr<MessageLog> messages;     // [comm] record_messages: every exchange's MPI messages
  std::shared_ptr<CollectiveLog> collectives;  // [comm] record_messages in the collective workloads
};

// The dataset /group/name of a result, or null.
inline const WorkloadDataset* find_dataset(const WorkloadResult& r, const std::string& group, const std::string& name) {
  for (const auto& d : r.datasets)
    if (d.group == group && d.name == name) return &d;
  return nullptr;
}

// This rank's matrix share as /matrix/rows and /matrix/nnz (one row per rank).
inline void add_matrix_share(WorkloadResult& r, std::int64_t rows, std::int64_t nnz) {
  r.datasets.push_back({"matrix", "rows", "1", {}, {static_cast<double>(rows)}, true, true});
  r.datasets.push_back({"matrix", "nnz", "1", {}, {static_cast<double>(nnz)}, true, true});
}

// [matrix] format = "sell": per rank the entries stored (padding included) and the fill-in ratio
// beta = nnz / stored of the SELL-C-sigma matrix its kernel runs on (docs/output.md).
inline void add_sell_share(WorkloadResult& r, std::int64_t stored, double beta) {
  r.datasets.push_back({"matrix", "sell_stored", "1", {}, {static_cast<double>(stored)}, true, true});
  r.datasets.push_back({"matrix", "sell_beta", "1", {}, {beta}, true, false});
}

}  // namespace desync
