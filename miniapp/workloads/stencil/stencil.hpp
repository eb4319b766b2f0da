#pragma once
// The 2D 5-point Jacobi workload (papers.md C, docs/method.md section 14): an n x n grid on a
// px x py process grid, variant spmv (CRS operator), base (matrix-free, 1-deep halo every step)
// or ca (s-deep halo with corners every s steps, redundant ghost-zone sweeps).
#include <mpi.h>

#include "config/config.hpp"
#include "workloads/stencil/stencil_config.hpp"
#include "core/memory.hpp"
#include "record/workload_result.hpp"

namespace desync {

// Collective. [run] iterations (+ warmup) are the Jacobi steps. Timeline timestamps are local
// clock readings. Throws DeckError (before any allocation) if the process grid does not fit.
WorkloadResult run_stencil(const Config& cfg, MPI_Comm comm);

// Event names of one step, in the order taken (docs/output.md).
std::vector<std::string> stencil_event_names();

// The matrix-free sweep's traffic per updated point: read x, write y with its write-allocate
// (docs/method.md section 14); `desync simulate` streams the same model.
inline constexpr double stencil_base_bytes_per_point = 24.0;

// Peak memory of `rank` of `size`, estimated from the deck before anything is allocated.
MemoryEstimate stencil_memory(const Config& cfg, int rank, int size);

}  // namespace desync
