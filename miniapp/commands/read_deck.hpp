#pragma once
// Rank 0 reads the deck file (and a [noise] file it names) and broadcasts the bytes; every rank
// then parses the same text.
#include <mpi.h>

#include <string>
#include <vector>

#include "config/config.hpp"

namespace desync {

// Collective. Throws DeckError (on every rank) if the file cannot be read or is invalid.
Config read_deck(const std::string& path, const std::vector<std::string>& overrides, MPI_Comm comm);

}  // namespace desync
