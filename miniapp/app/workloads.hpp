#pragma once
// The one list of workloads (app/workloads.cpp): what `desync run` can run, which deck tables
// each reads, whether it needs a [matrix], its rank-count rules, its memory estimate and its run
// function. Adding a workload touches its own folder, this registry and the docs.
#include <mpi.h>

#include <string>
#include <vector>

#include "config/config.hpp"
#include "core/memory.hpp"
#include "workload/workload_result.hpp"

namespace desync {

struct WorkloadEntry {
  Workload id;
  const char* name;                 // as in [run] workload
  std::vector<std::string> tables;  // deck tables it reads; others are errors
  bool needs_matrix;
  // Rank-count rules beyond the deck itself (throws DeckError), or null.
  void (*validate_ranks)(const Config& cfg, int nranks);
  // What the rank computes while its messages are in flight (the work progress = "test" cuts
  // into chunks), or null where the deck's scheme computes nothing then.
  const char* (*overlapped_work)(const Config& cfg);
  MemoryEstimate (*memory)(const Config& cfg, int rank, int size);
  WorkloadResult (*run)(const Config& cfg, MPI_Comm comm);
  // Timeline rows of a complete run, or null for [run] warmup + iterations.
  std::int64_t (*timeline_rows)(const Config& cfg) = nullptr;
  // Deck rules across tables (throws DeckError), or null.
  void (*validate_deck)(const Config& cfg) = nullptr;
  // Rules that need the nodes (collective over comm, before any output; throws DeckError on
  // every rank alike), or null.
  void (*validate_layout)(const Config& cfg, MPI_Comm comm) = nullptr;
};

const std::vector<WorkloadEntry>& workload_registry();
const WorkloadEntry& workload_entry(Workload w);

// Timeline rows (iterations) a complete run records: the output file's iterations_planned.
std::int64_t planned_iterations(const Config& cfg);

// The workload's node-dependent rules (registry), collective over comm; preflight calls it.
void validate_workload_layout(const Config& cfg, MPI_Comm comm);

// Peak memory of `rank` of `size` for the deck's workload.
MemoryEstimate estimate_memory(const Config& cfg, int rank, int size);

}  // namespace desync
