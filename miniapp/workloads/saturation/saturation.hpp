#pragma once
// The saturation workload ([run] workload = "saturation", docs/method.md "Saturation sweep"):
// the memory bandwidth b(N) of a contention domain with N = 1 .. max_n workers (threads of one
// rank, or ranks of one node) streaming a STREAM kernel, and the saturation point
// N_s = min { N : b(N) >= (1 - tolerance) max b } per kernel (papers.md B.5). Writes /saturation
// and per-kernel metrics (docs/output.md); the arrays are checked exactly after every N.
#include <mpi.h>

#include <cstdint>

#include "config/config.hpp"
#include "workloads/saturation/saturation_config.hpp"
#include "core/memory.hpp"
#include "record/workload_result.hpp"

namespace desync {

// [saturation] size after its default (0: saturation::default_sweep_elements of this node).
std::int64_t saturation_elements(const SaturationConfig& c);

// W after its default: threads: min(cores of the rank's contention domain, threads of the rank);
// ranks: the run's ranks. An explicit max_n is returned as is (the rank-count rules refuse one
// that does not fit).
int saturation_max_n(const SaturationConfig& c, int nranks);

// Collective over comm.
WorkloadResult run_saturation(const Config& cfg, MPI_Comm comm);

// Its module's hooks (saturation_module.cpp).
MemoryEstimate saturation_memory(const Config& cfg, int rank, int size);
std::int64_t saturation_rows(const Config& cfg, int ranks);  // W x kernels x repetitions
void saturation_ranks(const Config& cfg, int nranks);        // threads: 1 rank; ranks: max_n <= ranks
void saturation_deck(const Config& cfg);                     // triad_nt only where it exists
void saturation_layout(const Config& cfg, MPI_Comm comm);    // ranks: one node; threads: max_n <= threads

}  // namespace desync
