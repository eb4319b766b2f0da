#include "workload/memory_estimate.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "matrix/make_generator.hpp"
#include "matrix/row_partition.hpp"
#include "workload/stencil_grid.hpp"

namespace desync {
namespace {

// One timeline row per iteration, at most 12 events of 8 bytes (the largest event list).
double timeline_bytes(const Config& cfg, std::int64_t total) { return 12.0 * 8.0 * static_cast<double>(total); }

MemoryEstimate triad(const Config& cfg, int rank, int size) {
  const TriadConfig& t = cfg.triad;
  const double n = static_cast<double>(t.global_size > 0 ? t.global_size / size + (rank < t.global_size % size ? 1 : 0)
                                                         : t.size_per_rank);
  MemoryEstimate m;
  m.knobs = t.global_size > 0 ? fmt::format("[triad] global_size = {}", t.global_size)
                              : fmt::format("[triad] size_per_rank = {}", t.size_per_rank);
  m.add("arrays", n * 8.0 * (t.kernel == TriadKernel::schoenauer ? 4 : 3));
  m.add("messages", 2.0 * static_cast<double>(t.offsets.size()) * static_cast<double>(t.message_bytes));
  m.add("timeline", timeline_bytes(cfg, cfg.run.warmup + cfg.run.iterations));
  return m;
}

// The rank's rows and (estimated) nonzeros under the deck's partition: by rows exactly, by nnz
// as the mean share of the sampled total.
struct RankShare {
  double rows = 0, nnz = 0, total_rows = 0;
};
RankShare share(const MatrixGenerator& g, PartitionKind kind, int rank, int size) {
  RankShare s;
  s.total_rows = static_cast<double>(g.rows());
  if (kind == PartitionKind::rows) {
    const RowPartition p = partition_by_rows(g.rows(), size);
    s.rows = static_cast<double>(p.rows(rank));
    s.nnz = sampled_nnz(g, p.begin(rank), p.end(rank));
  } else {
    s.nnz = sampled_nnz(g, 0, g.rows()) / size;
    s.rows = s.total_rows / size;
  }
  return s;
}

MemoryEstimate spmv(const Config& cfg, int rank, int size) {
  const auto g = make_generator(cfg.matrix);
  const RankShare s = share(*g, cfg.matrix.partition, rank, size);
  const double halo = std::min(s.nnz, s.total_rows - s.rows);  // remote columns, at most
  MemoryEstimate m;
  m.knobs = "the [matrix] size, or more ranks";
  // Built local CRS (values complex for TOPI, then magnitudes), halo column list, then the split
  // copy the kernels use: both live at the peak.
  const double built_val = g->is_complex() ? 16.0 + 8.0 : 8.0;
  m.add("local matrix", s.nnz * (4.0 + built_val) + s.rows * 8.0 + halo * 8.0);
  m.add("split matrix", s.nnz * 12.0 + 2.0 * s.rows * 8.0);
  m.add("vectors", 2.0 * (s.rows + halo) * 8.0 + 2.0 * halo * 8.0);
  m.add("timeline", timeline_bytes(cfg, cfg.run.warmup + cfg.run.iterations) * (cfg.spmv.compare_barrier ? 2 : 1));
  return m;
}

MemoryEstimate chebfd(const Config& cfg, int rank, int size) {
  const ChebfdConfig& c = cfg.chebfd;
  const auto g = make_generator(cfg.matrix);
  const RankShare s = share(*g, cfg.matrix.partition, rank, size);
  const double halo = std::min(s.nnz, s.total_rows - s.rows);
  const double sd = g->is_complex() ? 16.0 : 8.0;
  const double blocks = static_cast<double>(c.ns / c.nb), nb = static_cast<double>(c.nb);
  MemoryEstimate m;
  m.knobs = fmt::format("[chebfd] ns = {}, the [matrix] size, or more ranks", c.ns);
  // The built matrix, plus the filter's own CRS (full, or local + remote: about the same).
  m.add("matrix", 2.0 * (s.nnz * (4.0 + sd) + s.rows * 8.0) + halo * 8.0);
  m.add("search space", s.rows * static_cast<double>(c.ns) * sd);
  const double work = (s.rows + halo) * nb * sd * 2.0 * (c.scheme == ChebfdScheme::pipeline ? blocks : 1.0);
  m.add("block vectors", work + 2.0 * halo * nb * sd);
  if (static_cast<std::int64_t>(s.total_rows) <= c.verify_rows && rank == 0)
    m.add("serial reference", s.total_rows * static_cast<double>(c.ns) * 16.0 * 4.0 + sampled_nnz(*g, 0, g->rows()) * 24.0);
  m.add("timeline", timeline_bytes(cfg, chebfd_steps(c)));
  return m;
}

MemoryEstimate stencil(const Config& cfg, int rank, int size) {
  const StencilConfig& c = cfg.stencil;
  MemoryEstimate m;
  m.knobs = fmt::format("[stencil] n = {}, or more ranks", c.n);
  const StencilGrid grid = make_stencil_grid(c, rank, size);
  const double padded = static_cast<double>(grid.padded());
  m.add("grids", 2.0 * padded * 8.0);
  if (c.variant == StencilVariant::spmv) m.add("CRS operator", static_cast<double>(grid.lx * grid.ly) * (5.0 * 12.0 + 8.0));
  const double n2 = static_cast<double>(c.n) * static_cast<double>(c.n);
  if (c.n <= c.verify_full_max && rank == 0) m.add("serial reference", 3.0 * n2 * 8.0);
  m.add("halo buffers", 4.0 * 2.0 * static_cast<double>(std::max(grid.wx(), grid.wy()) * grid.g) * 8.0);
  m.add("timeline", timeline_bytes(cfg, cfg.run.warmup + cfg.run.iterations));
  return m;
}

}  // namespace

double sampled_nnz(const MatrixGenerator& g, GlobalIndex begin, GlobalIndex end, int samples) {
  const GlobalIndex n = end - begin;
  if (n <= 0) return 0.0;
  const GlobalIndex k = std::min<GlobalIndex>(n, samples);
  std::vector<GlobalIndex> cols(static_cast<std::size_t>(g.max_row_entries()));
  std::vector<Scalar> vals(cols.size());
  double sum = 0.0;
  for (GlobalIndex i = 0; i < k; ++i) {
    const GlobalIndex r = begin + static_cast<GlobalIndex>((static_cast<double>(i) + 0.5) * static_cast<double>(n) / static_cast<double>(k));
    sum += g.row(std::min(r, end - 1), cols.data(), vals.data());
  }
  return sum / static_cast<double>(k) * static_cast<double>(n);
}

MemoryEstimate estimate_memory(const Config& cfg, int rank, int size) {
  switch (cfg.run.workload) {
    case Workload::triad: return triad(cfg, rank, size);
    case Workload::spmv: return spmv(cfg, rank, size);
    case Workload::chebfd: return chebfd(cfg, rank, size);
    case Workload::stencil: return stencil(cfg, rank, size);
  }
  return {};
}

}  // namespace desync
