#pragma once
// Checks made before a run does any work, so that a run that cannot succeed stops in a second
// with one message (exit code 2) instead of failing after hours: the output path, and memory.
#include <mpi.h>

#include <string>

#include "config/config.hpp"
#include "core/memory.hpp"

namespace desync {

struct OutputTarget {
  std::string path;   // the final name
  std::string where;  // how the user named it: "command line (-o x.h5)", "deck.toml:5:1", ...
  bool overwrite = false;
};

OutputTarget output_target(const Config& cfg, const std::string& cli_output, bool cli_force);

// Collective. Throws DeckError on every rank unless: the directory exists and is writable (a
// probe file is created and removed), the path is not a directory, not the deck, not an existing
// file unless overwriting, and the file system has room for at least the timeline. `min_bytes`:
// a lower bound of the file's size.
void check_output_path(const Config& cfg, const OutputTarget& out, double min_bytes, MPI_Comm comm);

// Collective. The estimate of this rank, summed over the ranks of each node, against what the node
// has available (or [run] memory_limit_gib). Throws DeckError on every rank if any node is short.
// Returns this rank's estimate.
MemoryEstimate check_memory(const Config& cfg, MPI_Comm comm);

// The MPI thread level `desync ARGS` needs, known before MPI_Init_thread: the deck of a `run`
// is read (by every process, without MPI) for [comm]'s progress and send modes. Anything that
// cannot be read yields MPI_THREAD_FUNNELED; the error is reported after MPI_Init as usual.
int required_thread_level(int argc, char** argv);

// Collective: throws DeckError if the deck needs MPI_THREAD_MULTIPLE and the library gave less.
void check_thread_level(const Config& cfg, MPI_Comm comm);

// For `desync check`: "# memory estimate ..." lines for `ranks` ranks (0: the deck's own process
// grid, else 1), or how to get one. Throws DeckError if it exceeds [run] memory_limit_gib.
std::string memory_summary(const Config& cfg, int ranks);

}  // namespace desync
