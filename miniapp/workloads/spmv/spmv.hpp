#pragma once
// The back-to-back distributed SpMV experiment (papers.md A.3.3, A.5): y = A x with the vectors
// swapped after each product, NON-SPLIT or SPLIT-WAIT, with or without a barrier per product,
// desync's CRS kernels or KokkosKernels' spmv, and the desynchronization speedup P_D.
#include <mpi.h>

#include "config/config.hpp"
#include "workloads/spmv/spmv_config.hpp"
#include "core/memory.hpp"
#include "record/workload_result.hpp"

namespace desync {

// Collective. The deck must have a [matrix]. Timeline timestamps are local clock readings.
WorkloadResult run_spmv(const Config& cfg, MPI_Comm comm);

// Bytes one product moves on a rank (docs/method.md, section 13): 12 per nonzero (value +
// column index), 24 per row (x read, y written with write-allocate), 16 per row more for the
// second (remote) pass over y, 8 per halo entry.
double spmv_bytes(std::int64_t rows, std::int64_t nnz, std::int64_t halo, bool has_remote);

// Peak memory of `rank` of `size`, estimated from the deck before anything is allocated.
MemoryEstimate spmv_memory(const Config& cfg, int rank, int size);

}  // namespace desync
