#pragma once
// The MPI-augmented STREAM triad experiment (papers.md A.3.1-A.3.2, B.3.1): sweep, optional
// injected delay, nonblocking exchange with the offset partners, Waitall, optional barrier.
#include <mpi.h>

#include "config/config.hpp"
#include "workloads/triad/triad_config.hpp"
#include "core/types.hpp"
#include "core/memory.hpp"
#include "record/workload_result.hpp"

namespace desync {

// Elements per array on `rank` (global_size split evenly, the first ranks taking the remainder).
std::int64_t triad_local_size(const TriadConfig& cfg, int rank, int size);

// Bytes moved per element by one sweep of `kernel` (see docs/method.md).
double triad_bytes_per_element(TriadKernel kernel, bool write_allocate);

// Elements of A (global indices offset, offset+1, ...) that differ from the value the kernel must
// produce; B, C, D are recomputed from the index, not read.
std::int64_t triad_count_wrong(const Vector& a, Index offset, const TriadConfig& cfg);

// Collective over comm. Timeline timestamps are local clock readings.
WorkloadResult run_triad(const Config& cfg, MPI_Comm comm);

// Peak memory of `rank` of `size`, estimated from the deck before anything is allocated.
MemoryEstimate triad_memory(const Config& cfg, int rank, int size);

}  // namespace desync
