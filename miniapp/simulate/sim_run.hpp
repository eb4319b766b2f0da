#pragma once
// `desync simulate DECK --platform FILE`: the deck's experiment on a modelled cluster (SimGrid),
// written to the same HDF5 layout as a real run, marked simulated (docs/simulate.md).
#include <mpi.h>

#include <string>
#include <vector>

#include "config/config.hpp"

namespace desync {

// The most virtual ranks a simulation takes (--ranks' range, and the platform's full size).
inline constexpr int max_simulated_ranks = 1 << 24;

struct SimulateOptions {
  std::string platform;                     // platform file (TOML)
  std::vector<std::string> platform_sets;   // --pset table.key=value
  int ranks = 0;                            // 0: every node of the platform, full
  std::string output;                       // -o FILE; empty: from the deck
  bool force = false;
  std::string command_line;
};

// Whether this build has the simulator (SimGrid was found at configure time).
bool simulator_available();

// Runs in one process (a singleton MPI process: comm must have one rank). Returns the exit code;
// throws DeckError for a bad deck, platform or option, OutputError if the file cannot be written.
int simulate_deck(const Config& cfg, const SimulateOptions& opt, MPI_Comm comm);

}  // namespace desync
