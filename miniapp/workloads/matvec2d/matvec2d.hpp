#pragma once
// The mesh mat-vec demo (papers.md E.2, Algorithms 1 and 2): y = A x on a p x p process mesh,
// rank P_{i,j} = i p + j holding the dense block A_{i,j} and x_j. Per iteration:
//   1. y_i^(j) = A_{i,j} x_j (a Kokkos kernel);
//   2. reduce-sum y_i^(j) over mesh row i onto P_{i,i} (the row communicator);
//   3. P_{i,i} broadcasts y_i down mesh column i, so y ends up distributed like x.
// pipelined = false: MPI_Reduce then MPI_Bcast. pipelined = true (Alg. 2): y_i^(j) cut into
// N_DUP = [comm] communicators parts; part c is reduced with MPI_Ireduce on the c-th duplicate of
// the row communicator, and P_{i,i} broadcasts part c (MPI_Ibcast on the c-th duplicate of the
// column communicator) as soon as its reduction is complete, while later parts are still being
// reduced. [comm] record_messages logs every part (/collectives): the overlapped segments per
// communicator of the study's Fig. 2. Every iteration multiplies the same x; y is checked
// against a serial product of A's row block.
#include <mpi.h>

#include "config/config.hpp"
#include "workloads/matvec2d/matvec2d_config.hpp"
#include "core/memory.hpp"
#include "record/workload_result.hpp"

namespace desync {

WorkloadResult run_matvec2d(const Config& cfg, MPI_Comm comm);
MemoryEstimate matvec2d_memory(const Config& cfg, int rank, int size);

}  // namespace desync
