#pragma once
// The verdict a run records (root attribute `verification`, docs/output.md): "passed", "failed: ..."
// with the counts of what was wrong, or "not done: ..." where the workload could not verify (a
// ChebFD filter stopped before its full degree, a stop before any result was checked, a run that
// held nothing its check covers: 0-byte ping-pongs, a toy on one rank). Collective over comm.
#include <mpi.h>

#include <cstdint>
#include <string>

#include "record/timeline.hpp"
#include "record/workload_result.hpp"

namespace desync {

// total_errors: the wrong items summed over ranks (0 for "passed" and "not done").
std::string run_verdict(const WorkloadResult& r, const Timeline& tl, MPI_Comm comm, std::int64_t& total_errors);

}  // namespace desync
