// The [matvec2d] table of a deck: every key, its default and its allowed range (docs/decks.md). Reads
// TOML, so it includes no Kokkos header (the CUDA build compiles it host-only: miniapp/CMakeLists.txt).
#include <fmt/format.h>

#include <limits>

#include "config/table_reader.hpp"
#include "workloads/matvec2d/matvec2d_deck.hpp"

namespace desync {

void read_matvec2d_table(TableReader& r, Config& cfg) {
  Matvec2dConfig c;
  c.n = r.integer("n", c.n, 1, 1'000'000);
  c.pipelined = r.boolean("pipelined", c.pipelined);
  r.finish();
  cfg.params.set(std::move(c));
}

}  // namespace desync
