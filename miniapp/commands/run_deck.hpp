#pragma once
// `desync run`: everything between a loaded deck and the written result file.
#include <mpi.h>

#include <string>

#include "commands/preflight.hpp"
#include "config/config.hpp"
#include "core/memory.hpp"

namespace desync {

struct RunOptions {
  std::string output;        // -o FILE; empty: from the deck
  std::string command_line;  // recorded in provenance
  bool force = false;        // --force: replace an existing output file
};

// What the checks before any work found (commands/preflight.hpp): where the file goes, the memory.
struct RunPreflight {
  OutputTarget output;
  MemoryEstimate memory;
};

// Collective, before Kokkos starts: rank-count rules, the output path and memory. Throws DeckError
// on every rank (one message from rank 0) if the run cannot succeed.
RunPreflight preflight_run(const Config& cfg, const RunOptions& opt, MPI_Comm comm);

// Collective. Returns the exit code (exit_ok, exit_verification_failed or exit_interrupted).
// Throws DeckError for problems found before any work (rank count, output path, memory) and
// OutputError, on every rank, when the file could not be written (no file is left then).
int run_deck(const Config& cfg, const RunOptions& opt, const RunPreflight& pre, MPI_Comm comm);

// The .tmp file a run in progress writes; main removes it if the run dies.
const std::string& pending_output();

}  // namespace desync
