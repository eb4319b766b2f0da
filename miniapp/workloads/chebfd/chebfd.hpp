#pragma once
// The ChebFD polynomial filter experiment (papers.md A.3.4, B.3.2; matrices.md §7): the filter of
// degree np applied to ns vectors in blocks of nb, NON-SPLIT, SPLIT-WAIT or PIPELINE, with or
// without a barrier per degree; real generators in double, TOPI in complex, one templated source.
#include <mpi.h>

#include "config/config.hpp"
#include "workloads/chebfd/chebfd_config.hpp"
#include "core/memory.hpp"
#include "record/workload_result.hpp"

namespace desync {

// Collective. The deck must have a [matrix]. One timeline iteration per degree step.
WorkloadResult run_chebfd(const Config& cfg, MPI_Comm comm);

namespace chebfd {
// matrices.md §7.4 per row and vector: flops per nonzero (8 complex, 2 real) and the extra flops
// of the fused tail (42 complex, 11 real); optimistic bytes of one block step on `rows` rows.
double flops_per_step(bool complex, double rows, double nnz, int nb);
double bytes_per_step(bool complex, double rows, double nnz, int nb);
}  // namespace chebfd

// Peak memory of `rank` of `size`, estimated from the deck before anything is allocated.
MemoryEstimate chebfd_memory(const Config& cfg, int rank, int size);

}  // namespace desync
