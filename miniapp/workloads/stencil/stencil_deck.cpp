// The [stencil] table of a deck: every key, its default and its allowed range (docs/decks.md). Reads
// TOML, so it includes no Kokkos header (the CUDA build compiles it host-only: miniapp/CMakeLists.txt).
#include <fmt/format.h>

#include <limits>

#include "config/table_reader.hpp"
#include "workloads/stencil/stencil_deck.hpp"

namespace desync {
namespace {
constexpr double real_max = std::numeric_limits<double>::max();
}  // namespace

void read_stencil_table(TableReader& r, Config& cfg) {
  StencilConfig c;
  c.n = r.integer("n", c.n, 1, 1'000'000);
  c.px = r.integer("px", c.px, 0, 1'000'000);
  c.py = r.integer("py", c.py, 0, 1'000'000);
  c.px_pos = r.position("px");
  c.py_pos = r.position("py");
  if (c.px > c.n) r.fail("px", fmt::format("more process columns than grid columns (n = {})", c.n));
  if (c.py > c.n) r.fail("py", fmt::format("more process rows than grid rows (n = {})", c.n));
  c.variant = r.choice("variant", c.variant, stencil_variant_names);
  c.ca_steps = r.integer("ca_steps", c.ca_steps, 1, 100'000);
  c.ca_steps_pos = r.position("ca_steps");
  r.warn_where_unused("ca_steps", c.variant == StencilVariant::ca, c.ca_steps, StencilConfig{}.ca_steps,
                      "only variant = \"ca\" uses it (the steps between two exchanges)");
  const auto tile = r.integer_list("tile", {c.tile_x, c.tile_y}, 0, 1'000'000);
  if (tile.size() != 2) r.fail("tile", "allowed: an array of 2 integers [mb, nb] (0: the whole local block)");
  c.tile_x = tile[0];
  c.tile_y = tile[1];
  c.ratio = r.real("ratio", c.ratio, -real_max, real_max);
  if (!(c.ratio > 0.0 && c.ratio <= 1.0)) r.fail("ratio", "not allowed; allowed: a number in (0, 1]");
  c.weights = r.real_list("weights", c.weights, 5);
  c.boundary = r.real("boundary", c.boundary, -real_max, real_max);
  c.latency = r.real("latency", c.latency, 0.0, 10.0);
  c.skip_redundant = r.boolean("skip_redundant", c.skip_redundant);
  if (c.skip_redundant && c.variant != StencilVariant::ca)
    r.fail("skip_redundant", "only the \"ca\" variant has redundant work to skip");
  c.verify_full_max = r.integer("verify_full_max", c.verify_full_max, 0, 65'536);
  r.finish();
  cfg.params.set(std::move(c));
}

}  // namespace desync
