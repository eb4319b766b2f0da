#pragma once
// The example workload: each iteration a rank sums its array ("crunch"), passes the sum to the
// next rank of a ring ("post", "wait") and spreads what it received over its array ("spread").
// The sum over all ranks is conserved, which is its verification.
#include <mpi.h>

#include "config/config.hpp"
#include "core/memory.hpp"
#include "record/workload_result.hpp"

namespace desync {

WorkloadResult run_ring(const Config& cfg, MPI_Comm comm);
MemoryEstimate ring_memory(const Config& cfg, int rank, int size);

}  // namespace desync
