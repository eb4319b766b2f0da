#pragma once
// Writes the run's result file in the layout of docs/output.md. Collective over comm.
#include <mpi.h>

#include <string>

#include "config/config.hpp"
#include "metrics/phase_stats.hpp"
#include "comm/clock_sync.hpp"
#include "record/mpi_library.hpp"
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
  std::string verification;       // "passed", "failed: ..." or "not done: ..."
  std::int64_t verification_errors = 0;
  std::int64_t iterations_planned = 0;  // warm-up + measured iterations the deck asked for
  const MpiLibraryRecord& mpi;
};

// Writes `path` directly (collective; h5::Error on every rank if any rank's write fails).
void write_output(const std::string& path, const RunRecord& rec, MPI_Comm comm);

// Writes the result under its final name only when it is complete: first as PATH.tmp, every
// rank's HDF5 calls agreed on, closed, flushed to disk (fsync) and read back by rank 0, then
// renamed. On any failure the .tmp is removed and OutputError is thrown on every rank.
void commit_output(const std::string& path, const RunRecord& rec, MPI_Comm comm);

}  // namespace desync
