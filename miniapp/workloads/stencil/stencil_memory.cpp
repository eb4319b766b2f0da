// The stencil's peak memory per rank: the estimate docs/decks.md ("Memory") and docs/method.md (section 16) describe.
#include "workloads/stencil/stencil.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "workloads/stencil/stencil_grid.hpp"

namespace desync {

MemoryEstimate stencil_memory(const Config& cfg, int rank, int size) {
  const StencilConfig& c = cfg.params.get<StencilConfig>();
  MemoryEstimate m;
  m.knobs = fmt::format("[stencil] n = {}, or use more ranks", c.n);
  const StencilGrid grid = make_stencil_grid(c, rank, size);
  const double padded = static_cast<double>(grid.padded());
  m.add("grids", 2.0 * padded * 8.0);
  if (c.variant == StencilVariant::spmv) m.add("CRS operator", static_cast<double>(grid.lx * grid.ly) * (5.0 * 12.0 + 8.0));
  const double n2 = static_cast<double>(c.n) * static_cast<double>(c.n);
  if (c.n <= c.verify_full_max && rank == 0) m.add("serial reference", 3.0 * n2 * 8.0);
  m.add("halo buffers", 4.0 * 2.0 * static_cast<double>(std::max(grid.wx(), grid.wy()) * grid.g) * 8.0);
  m.add("timeline", Timeline::bytes_estimate(cfg.run.warmup + cfg.run.iterations));
  return m;
}

}  // namespace desync
