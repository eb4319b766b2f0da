// The [spmv] table of a deck: every key, its default and its allowed range (docs/decks.md). Reads
// TOML, so it includes no Kokkos header (the CUDA build compiles it host-only: miniapp/CMakeLists.txt).
#include <fmt/format.h>

#include <limits>

#include "config/table_reader.hpp"
#include "workloads/spmv/spmv_deck.hpp"

namespace desync {

void read_spmv_table(TableReader& r, Config& cfg) {
  SpmvConfig c;
  c.scheme = r.choice("scheme", c.scheme, spmv_scheme_names);
  c.kernel = r.choice("kernel", c.kernel, spmv_kernel_names);
  c.values = r.choice("values", c.values, spmv_values_names);
  c.compare_barrier = r.boolean("compare_barrier", c.compare_barrier);
  c.barrier_samples = r.integer("barrier_samples", c.barrier_samples, 1, 10'000'000);
  r.finish();
  cfg.params.set(std::move(c));
}

}  // namespace desync
