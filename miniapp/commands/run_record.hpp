#pragma once
// From a workload's result to the file's record: what a run measures about itself before the
// workload runs (RunContext), and the steps both the final write and the flushes during the run
// (commands/run_flush.hpp) take: the common time base, the metrics, the record.
#include <mpi.h>

#include <cstdint>
#include <string>

#include "config/config.hpp"
#include "io/output_file.hpp"
#include "metrics/phase_stats.hpp"
#include "record/clock_offset.hpp"
#include "record/gpu_aware_choice.hpp"
#include "record/mpi_library.hpp"
#include "record/provenance.hpp"
#include "record/topology.hpp"
#include "record/workload_result.hpp"

namespace desync {

struct RunContext {
  const Config& cfg;
  MPI_Comm comm;
  Provenance prov;
  MpiLibraryRecord mpi;
  GpuAwareChoice gpu_aware;
  Topology topo;
  RankClock clock;  // the start offset before the workload runs, the end and drift after it
  std::int64_t planned = 0;  // timeline rows of a complete run
};

// Collective: shifts the timeline and the logs to the common time base (rank 0's clock, zero at
// its first measured iteration, or its first iteration while only warm-up ran), computes the
// run's metrics and adds the time-in-MPI balance to the result's datasets.
RunMetrics settle_result(WorkloadResult& r, const RunContext& ctx);

// The record write_output takes (references ctx, r and m: keep them alive while it is used).
RunRecord run_record(const RunContext& ctx, const WorkloadResult& r, const RunMetrics& m, std::string verification,
                     std::int64_t errors, bool flushed);

}  // namespace desync
