// The [chebfd] table of a deck: every key, its default and its allowed range (docs/decks.md). Reads
// TOML, so it includes no Kokkos header (the CUDA build compiles it host-only: miniapp/CMakeLists.txt).
#include <fmt/format.h>

#include <limits>

#include "config/table_reader.hpp"
#include "workloads/chebfd/chebfd_deck.hpp"

namespace desync {
namespace {
constexpr double real_max = std::numeric_limits<double>::max();
}  // namespace

void read_chebfd_table(TableReader& r, Config& cfg) {
  ChebfdConfig c;
  c.ns = r.integer("ns", c.ns, 1, 1'000'000);
  c.nb = r.integer("nb", c.nb, 1, 1024);
  if (c.ns % c.nb != 0)
    r.fail("ns", fmt::format("ns = {} is not a multiple of nb = {}; allowed: k * nb", c.ns, c.nb));
  c.np = r.integer("np", c.np, 2, 1'000'000);
  c.scheme = r.choice("scheme", c.scheme, chebfd_scheme_names);
  c.barrier_per_degree = r.boolean("barrier_per_degree", c.barrier_per_degree);
  c.compare_barrier = r.boolean("compare_barrier", c.compare_barrier);
  c.barrier_samples = r.integer("barrier_samples", c.barrier_samples, 1, 10'000'000);
  c.barrier_samples_pos = r.position("barrier_samples");
  c.lambda_min = r.real("lambda_min", c.lambda_min, -real_max, real_max);
  c.lambda_max = r.real("lambda_max", c.lambda_max, -real_max, real_max);
  if (!(c.lambda_min < c.lambda_max))
    r.fail("lambda_max", fmt::format("lambda_max = {} must be > lambda_min = {}", c.lambda_max, c.lambda_min));
  c.bounds = r.choice("bounds", c.bounds, chebfd_bounds_names);
  c.lanczos_steps = r.integer("lanczos_steps", c.lanczos_steps, 2, 1000);
  r.warn_where_unused("lanczos_steps", c.bounds == ChebfdBounds::lanczos, c.lanczos_steps, ChebfdConfig{}.lanczos_steps,
                      "only bounds = \"lanczos\" uses it");
  c.verify_rows = r.integer("verify_rows", c.verify_rows, 0, kIntegerKeyMax);
  r.finish();
  cfg.params.set(std::move(c));
}

}  // namespace desync
