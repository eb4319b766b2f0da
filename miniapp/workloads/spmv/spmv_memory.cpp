// SpMV's peak memory per rank: the estimate docs/decks.md ("Memory") and docs/method.md (section 16) describe.
#include "workloads/spmv/spmv.hpp"
#include "workload/owned_values.hpp"

#include <fmt/format.h>

#include "matrix/make_generator.hpp"
#include "matrix/sampled_nnz.hpp"
#include "matrix/sell_matrix.hpp"

namespace desync {

MemoryEstimate spmv_memory(const Config& cfg, int rank, int size) {
  const auto g = make_generator(cfg.matrix);
  const RankShare s = rank_share(*g, cfg.matrix.partition, rank, size);
  const double halo = s.halo_bound();
  MemoryEstimate m;
  m.knobs = "the [matrix] size, or use more ranks";
  // Built local CRS (values complex for TOPI, then magnitudes), halo column list, then the split
  // copy the kernels use: both live at the peak.
  const double built_val = g->is_complex() ? 16.0 + 8.0 : 8.0;
  m.add("local matrix", s.nnz * (4.0 + built_val) + s.rows * 8.0 + halo * 8.0);
  m.add("split matrix", s.nnz * 12.0 + 2.0 * s.rows * 8.0);
  // format = "sell": the SELL-C-sigma copy of the matrix is built while the split copy lives.
  if (cfg.matrix.format == MatrixFormat::sell) m.add("SELL copy", sell_bytes_estimate(s.rows, s.nnz, 8.0, cfg.matrix.sell.chunk));
  m.add("vectors", 2.0 * (s.rows + halo) * 8.0 + 2.0 * halo * 8.0);
  m.add("timeline", Timeline::bytes_estimate(cfg.run.warmup + cfg.run.iterations) * (cfg.params.get<SpmvConfig>().compare_barrier ? 2 : 1));
  if (s.total_rows <= static_cast<double>(gathered_check_rows)) m.add("verification copy", 8.0 * s.total_rows);
  return m;
}

}  // namespace desync
