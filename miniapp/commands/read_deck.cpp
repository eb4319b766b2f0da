#include "commands/read_deck.hpp"

#include <memory>

#include "config/noise_file.hpp"
#include "core/errors.hpp"
#include "core/mpi_util.hpp"
#include "core/small_file.hpp"
#include "workloads/registry.hpp"

namespace desync {
namespace {

// Rank 0 reads `path` (at most max_bytes) and broadcasts its bytes, or the one error line every
// rank throws (after `key`, the deck key naming the file, where one did).
std::string read_on_rank0(const std::string& path, const std::string& what, const std::string& format,
                          std::size_t max_bytes, MPI_Comm comm, const std::string& key = "") {
  std::string text, failure;
  if (comm_rank(comm) == 0) failure = read_input_file(path, what, format, max_bytes, text);
  // "PATH: error: cannot ..." -> "deck.toml:20:8: error: [noise] file = ...: PATH: cannot ..."
  if (!failure.empty() && !key.empty()) {
    const std::size_t at = failure.find(": error: ");
    if (at != std::string::npos) failure = key + ": " + failure.substr(0, at) + ": " + failure.substr(at + 9);
  }
  bcast_string(failure, 0, comm);
  if (!failure.empty()) throw DeckError(failure);
  bcast_string(text, 0, comm);
  return text;
}

}  // namespace

Config read_deck(const std::string& path, const std::vector<std::string>& overrides, MPI_Comm comm) {
  Config cfg = load_deck(read_on_rank0(path, "deck", "a small TOML file", max_small_file_bytes, comm), path, overrides);
  if (cfg.noise.kind == NoiseKind::file) {
    // Every rank parses the same bytes: the same table, or the same error, everywhere.
    const std::string file = noise_file_path(path, cfg.noise.file);
    const std::string key = noise_file_key(cfg.noise);
    const std::string text = read_on_rank0(file, "noise file", "a text file of seconds, one line per iteration",
                                           max_noise_file_bytes, comm, key);
    cfg.noise.table = std::make_shared<const NoiseTable>(parse_noise_file(text, file, key));
    for (std::string& w : noise_file_warnings(cfg)) cfg.deck_warnings.push_back(std::move(w));
  }
  return cfg;
}

}  // namespace desync
