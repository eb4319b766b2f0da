// The [saturation] table of a deck: every key, its default and its allowed range (docs/decks.md). Reads
// TOML, so it includes no Kokkos header (the CUDA build compiles it host-only: miniapp/CMakeLists.txt).
#include <fmt/format.h>

#include <limits>

#include "config/table_reader.hpp"
#include "workloads/saturation/saturation_deck.hpp"

namespace desync {

void read_saturation_table(TableReader& r, Config& cfg) {
  SaturationConfig c;
  c.kernels = r.choice_vector("kernels", c.kernels, saturation_kernel_names);
  c.kernels_pos = r.position("kernels");
  c.mode = r.choice("mode", c.mode, saturation_mode_names);
  c.max_n = r.integer("max_n", c.max_n, 0, 4096);
  c.max_n_pos = r.position("max_n");
  c.size = r.integer("size", c.size, 0, std::int64_t{1} << 40);
  if (c.size > 0 && c.size < 1024) r.fail("size", "allowed: 0 (from the node's caches) or >= 1024 elements per array");
  c.repetitions = r.integer("repetitions", c.repetitions, 1, 1'000'000);
  c.tolerance = r.real("tolerance", c.tolerance, 0.0, 0.99);
  r.finish();
  cfg.params.set(std::move(c));
}

}  // namespace desync
