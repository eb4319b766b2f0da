// The CG's peak memory per rank: the local CRS (8 + 4 bytes per nonzero, row offsets), five
// vectors (x, r, p with its halo, q, the manufactured x*) and b, the row lists of the
// overlapped SpMV, the timeline and, for the verification, x gathered from its owners.
#include "workloads/cg/cg.hpp"
#include "matrix/make_generator.hpp"
#include "matrix/sampled_nnz.hpp"
#include "record/timeline.hpp"
#include "workload/owned_values.hpp"

#include <fmt/format.h>

namespace desync {

MemoryEstimate cg_memory(const Config& cfg, int rank, int size) {
  const auto gen = make_generator(cfg.matrix);
  const RankShare s = rank_share(*gen, cfg.matrix.partition == PartitionKind::box ? PartitionKind::rows : cfg.matrix.partition,
                                 rank, size);
  MemoryEstimate m;
  m.knobs = "the [matrix] size, or use more ranks";
  m.add("matrix", 12.0 * s.nnz + 8.0 * static_cast<double>(s.rows));
  m.add("vectors", 6.0 * 8.0 * static_cast<double>(s.rows) * 1.2 + 4.0 * static_cast<double>(s.rows));
  m.add("timeline", Timeline::bytes_estimate(cfg.run.warmup + cfg.run.iterations));
  // x gathered from its owners for the true residual (workload/owned_values.hpp)
  const double total_rows = static_cast<double>(gen->rows());
  if (total_rows <= static_cast<double>(gathered_check_rows)) m.add("verification copy", 8.0 * total_rows);
  return m;
}

}  // namespace desync
