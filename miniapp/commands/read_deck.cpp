#include "commands/read_deck.hpp"

#include "core/errors.hpp"
#include "core/small_file.hpp"
#include "workloads/registry.hpp"
#include "core/mpi_util.hpp"

namespace desync {

Config read_deck(const std::string& path, const std::vector<std::string>& overrides, MPI_Comm comm) {
  std::string text, failure;
  if (comm_rank(comm) == 0) failure = read_small_file(path, "deck", text);
  bcast_string(failure, 0, comm);
  if (!failure.empty()) throw DeckError(failure);
  bcast_string(text, 0, comm);
  return load_deck(text, path, overrides);
}

}  // namespace desync
