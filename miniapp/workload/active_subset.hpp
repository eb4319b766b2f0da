#pragma once
// What the collective workloads share around their kernel when only [placement] active_ppn ranks
// per node run it (comm/node_layout.hpp): the inactive ranks park, the active ones release them
// after the kernel, then every rank agrees on how many iterations ran, and the placement used is
// recorded (/placement, docs/output.md).
#include <mpi.h>

#include <cstdint>

#include "comm/node_layout.hpp"
#include "record/workload_result.hpp"

namespace desync {

// Ranks that would run the kernel: per node min(ranks on it, active_ppn), all if active_ppn <= 0.
int active_rank_count(const NodeLayout& l, int active_ppn);

// After the kernel (active ranks) or the park (inactive ones), on every rank: the active ranks
// release the parked ones; rank 0's iterations done and stop signal reach every rank; an
// inactive rank's timeline keeps that many rows, all NaN (it ran no phase), and the result is
// marked parked. Records /placement and the park measurements.
void finish_active_subset(WorkloadResult& r, MPI_Comm world, ActiveRanks& act, const NodeLayout& l, int active_ppn,
                          const ParkRecord& park);

}  // namespace desync
