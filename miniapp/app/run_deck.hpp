#pragma once
// `desync run`: everything between a loaded deck and the written result file.
#include <mpi.h>

#include <string>

#include "config/config.hpp"

namespace desync {

struct RunOptions {
  std::string output;        // -o FILE; empty: from the deck
  std::string command_line;  // recorded in provenance
};

// Collective. Returns the exit code (0, or exit_verification_failed). Throws DeckError for
// problems of the deck that only show with the rank count, before any file is created.
int run_deck(const Config& cfg, const RunOptions& opt, MPI_Comm comm);

// The .tmp file a run in progress writes; main removes it if the run dies.
const std::string& pending_output();

}  // namespace desync
