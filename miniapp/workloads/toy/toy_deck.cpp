// The [toy] table of a deck: every key, its default and its allowed range (docs/decks.md). Reads
// TOML, so it includes no Kokkos header (the CUDA build compiles it host-only: miniapp/CMakeLists.txt).
#include <fmt/format.h>

#include <algorithm>
#include <limits>

#include "comm/channels.hpp"
#include "config/table_reader.hpp"
#include "workloads/toy/toy_deck.hpp"

namespace desync {

void read_toy_table(TableReader& r, Config& cfg) {
  ToyConfig c;
  c.overlap = r.boolean("overlap", c.overlap);
  c.degree = r.integer("degree", c.degree, 0, 1 << 20);
  c.degree_pos = r.position("degree");
  c.messages = r.integer("messages", c.messages, 1, channel_tags);  // one MPI tag each (comm/channels.hpp)
  c.max_bytes = r.integer("max_bytes", c.max_bytes, 0, std::int64_t{1} << 30);
  c.min_bytes = r.integer("min_bytes", std::min(c.min_bytes, c.max_bytes), 0, std::int64_t{1} << 30);
  if (c.min_bytes > c.max_bytes) r.fail("min_bytes", fmt::format("larger than max_bytes = {}", c.max_bytes));
  c.compute = r.real("compute", c.compute, 0.0, 3600.0);
  c.part1 = r.real("part1", c.part1, 0.0, 1.0);
  r.only_where_used("part1", c.overlap, c.part1, ToyConfig{}.part1, "only used with overlap = true (the share of compute before the wait)");
  r.finish();
  cfg.params.set(std::move(c));
}

}  // namespace desync
