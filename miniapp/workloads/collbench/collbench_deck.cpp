// The [collbench] table of a deck: every key, its default and its allowed range (docs/decks.md). Reads
// TOML, so it includes no Kokkos header (the CUDA build compiles it host-only: miniapp/CMakeLists.txt).
#include <fmt/format.h>

#include <limits>

#include "config/table_reader.hpp"
#include "workloads/collbench/collbench_deck.hpp"

namespace desync {

void read_collbench_table(TableReader& r, Config& cfg) {
  CollbenchConfig c;
  c.ops = r.choice_vector("ops", c.ops, coll_op_names);
  c.mode = r.choice("mode", c.mode, coll_mode_names);
  // Floats: a size is a whole number of them; one part is one MPI call (int count).
  c.sizes = r.integer_list("sizes", c.sizes, 4, std::int64_t{1} << 31);
  if (c.sizes.empty() || c.sizes.size() > 64) r.fail("sizes", "allowed: a non-empty array of at most 64 sizes (bytes)");
  for (auto b : c.sizes)
    if (b % 4 != 0) r.fail("sizes", fmt::format("{} bytes is not a whole number of floats; allowed: multiples of 4", b));
  r.finish();
  cfg.params.set(std::move(c));
}

}  // namespace desync
