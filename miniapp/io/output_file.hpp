#pragma once
// Writes the run's result file in the layout of docs/output.md. Collective over comm.
#include <mpi.h>

#include <string>

#include "config/config.hpp"
#include "metrics/phase_stats.hpp"
#include "record/clock_sync.hpp"
#include "record/provenance.hpp"
#include "record/topology.hpp"
#include "workload/workload_result.hpp"

namespace desync {

inline constexpr int output_format_version = 1;

struct RunRecord {
  const Config& cfg;
  const Provenance& prov;
  const Topology& topo;
  ClockOffset clock;
  const WorkloadResult& result;  // timeline on the common time base
  const RunMetrics& metrics;
  std::string verification;       // "passed" or "failed: ..."
  std::int64_t verification_errors = 0;
};

// Writes `path` directly; the caller handles the .tmp name and the rename.
void write_output(const std::string& path, const RunRecord& rec, MPI_Comm comm);

}  // namespace desync
