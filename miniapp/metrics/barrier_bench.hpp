#pragma once
// The barrier micro-benchmark of the desynchronization speedup P_D (papers.md A.5): the cost of
// one MPI_Barrier at this rank count, so that a barrier run can be corrected for it.
#include <mpi.h>

#include <cstdint>

namespace desync {

// Collective. Times `samples` back-to-back barriers (after a few untimed ones) on every rank and
// returns the slowest rank's time per barrier (s), identical on all ranks.
double barrier_cost(MPI_Comm comm, std::int64_t samples);

}  // namespace desync
