#pragma once
// A workload module: everything desync knows of one workload, in one entry with named fields that
// its folder declares (workloads/<name>/<name>_module.cpp) and the registry lists
// (workloads/registry.hpp). The shared layers below read what they need from it: the deck loader
// its WorkloadDeck, the driver its run and memory functions, the output file its phases, the
// simulator its program. Adding a workload is a folder and one line in the registry
// (docs/design.md, "Adding a workload").
#include <mpi.h>

#include <cstdint>
#include <string>
#include <vector>

#include "config/workload_deck.hpp"
#include "core/memory.hpp"
#include "workload/output_shape.hpp"
#include "plan/plan.hpp"
#include "record/phase_styles.hpp"
#include "record/workload_result.hpp"

namespace desync {

namespace sim {
struct Program;
struct Platform;
}  // namespace sim

// What one halo row of its [matrix] carries in its messages: bytes per value (its own scalar, not
// necessarily the generator's: SpMV runs a complex matrix as real magnitudes) and values per row
// (a block of nb vectors); `desync plan` prices the halo with them.
struct HaloValues {
  int scalar_bytes = 8;
  int nb = 1;
};

struct WorkloadModule {
  WorkloadDeck deck;  // name, tables, own table's reader, steps, [comm] defaults, deck and rank rules

  // Peak memory of `rank` of `size` (the preflight refuses a deck that does not fit).
  MemoryEstimate (*memory)(const Config& cfg, int rank, int size) = nullptr;
  // What it adds to the result file on `ranks` ranks (workload/output_shape.hpp), for the output
  // estimate of the preflight and `desync check`; null: the defaults of OutputShape.
  OutputShape (*output_shape)(const Config& cfg, int ranks) = nullptr;
  // The run: set-up, the measured loop, verification (collective over comm).
  WorkloadResult (*run)(const Config& cfg, MPI_Comm comm) = nullptr;
  // Timeline rows of a complete run on `ranks` ranks, or null for [run] warmup + iterations. Rows
  // it counts itself hold no warm-up (its warm-up repetitions, if any, are untimed).
  std::int64_t (*timeline_rows)(const Config& cfg, int ranks) = nullptr;
  // Rules that need the nodes (collective over comm, before any output; throws DeckError on
  // every rank alike), or null.
  void (*validate_layout)(const Config& cfg, MPI_Comm comm) = nullptr;
  // Its own phases: class and colour (written to /phases; the shared ones, e.g. "wait", "sync",
  // "delay", come from record/phase_styles.hpp).
  std::vector<PhaseStyle> phases;
  // The rank count its deck implies by itself (e.g. a process grid), for estimates made without
  // --ranks; 0 or null: none.
  std::int64_t (*deck_ranks)(const Config& cfg) = nullptr;
  // Its own `desync plan` (text or JSON for `format`), for a workload whose plan is not a matrix's
  // partition and halo plan; null: the matrix plan (workloads with a [matrix]).
  std::string (*plan)(const Config& cfg, const PlanOptions& opt, const std::string& format,
                      const PlanModelOptions& model) = nullptr;
  // Its halo's values for the matrix plan; null: the generator's scalar (16 B complex, 8 B real),
  // one value per row.
  HaloValues (*halo_values)(const Config& cfg) = nullptr;
  // Its program for `desync simulate` (sim_model/sim_program.hpp), or null: not simulated.
  sim::Program (*simulated)(const Config& cfg, const sim::Platform& platform, int ranks) = nullptr;
};

}  // namespace desync
