// The [cg] table of a deck: every key, its default and its allowed range (docs/decks.md). Reads
// TOML, so it includes no Kokkos header (the CUDA build compiles it host-only: miniapp/CMakeLists.txt).
#include <fmt/format.h>

#include <limits>

#include "config/table_reader.hpp"
#include "workloads/cg/cg_deck.hpp"

namespace desync {

void read_cg_table(TableReader& r, Config& cfg) {
  CgConfig c;
  c.overlap = r.boolean("overlap", c.overlap);
  r.finish();
  cfg.params.set(std::move(c));
}

}  // namespace desync
