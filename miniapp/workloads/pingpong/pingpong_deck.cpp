// The [pingpong] table of a deck: every key, its default and its allowed range (docs/decks.md). Reads
// TOML, so it includes no Kokkos header (the CUDA build compiles it host-only: miniapp/CMakeLists.txt).
#include <fmt/format.h>

#include <limits>

#include "config/table_reader.hpp"
#include "workloads/pingpong/pingpong_deck.hpp"

namespace desync {

void read_pingpong_table(TableReader& r, Config& cfg) {
  PingpongConfig c;
  c.mode = r.choice("mode", c.mode, pingpong_mode_names);
  c.sizes = r.integer_list("sizes", c.sizes, 0, std::int64_t{1} << 30);
  if (c.sizes.empty() || c.sizes.size() > 64) r.fail("sizes", "allowed: a non-empty array of at most 64 message sizes (bytes)");
  c.pairs = r.integer("pairs", c.pairs, 0, 1 << 20);
  c.pairs_pos = r.position("pairs");
  c.window = r.integer("window", c.window, 1, 1024);
  r.only_where_used("window", c.mode == PingpongMode::bandwidth, c.window, PingpongConfig{}.window,
                    "only used with mode = \"bandwidth\" (messages in flight per pair)");
  r.finish();
  cfg.params.set(std::move(c));
}

}  // namespace desync
