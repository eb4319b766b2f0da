#include "commands/read_deck.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/errors.hpp"
#include "workloads/registry.hpp"
#include "core/mpi_util.hpp"

namespace desync {
namespace {
constexpr std::size_t max_deck_bytes = std::size_t{1} << 20;
}  // namespace

Config read_deck(const std::string& path, const std::vector<std::string>& overrides, MPI_Comm comm) {
  std::string text, failure;
  if (comm_rank(comm) == 0) {
    // A deck is a small regular file: a directory, a device (/dev/zero) or a FIFO is refused
    // before reading, and reading stops at the size limit.
    std::error_code ec;
    const auto st = std::filesystem::status(path, ec);
    if (!std::filesystem::exists(st)) {
      failure = path + ": error: cannot read the deck: no such file";
    } else if (std::filesystem::is_directory(st)) {
      failure = path + ": error: is a directory, not a deck file (TOML)";
    } else if (!std::filesystem::is_regular_file(st)) {
      failure = path + ": error: not a regular file; a deck is a TOML file";
    } else {
      std::ifstream in(path, std::ios::binary);
      if (!in) {
        failure = path + ": error: cannot read the deck: " + std::strerror(errno);
      } else {
        text.resize(max_deck_bytes + 1);
        in.read(text.data(), static_cast<std::streamsize>(text.size()));
        text.resize(static_cast<std::size_t>(in.gcount()));
        if (text.size() > max_deck_bytes)
          failure = path + ": error: larger than " + std::to_string(max_deck_bytes / 1024 / 1024) +
                    " MiB; a deck is a small TOML file";
      }
    }
  }
  bcast_string(failure, 0, comm);
  if (!failure.empty()) throw DeckError(failure);
  bcast_string(text, 0, comm);
  return load_deck(text, path, overrides);
}

}  // namespace desync
