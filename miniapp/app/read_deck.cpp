#include "app/read_deck.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "core/errors.hpp"
#include "core/mpi_util.hpp"

namespace desync {

Config read_deck(const std::string& path, const std::vector<std::string>& overrides, MPI_Comm comm) {
  std::string text, failure;
  if (comm_rank(comm) == 0) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
      failure = path + ": error: cannot read the deck: " + std::strerror(errno);
    } else {
      std::ostringstream os;
      os << in.rdbuf();
      text = os.str();
    }
  }
  bcast_string(failure, 0, comm);
  if (!failure.empty()) throw DeckError(failure);
  bcast_string(text, 0, comm);
  return load_deck(text, path, overrides);
}

}  // namespace desync
