// ChebFD's peak memory per rank: the estimate docs/decks.md ("Memory") and docs/method.md (section 16) describe.
#include "workloads/chebfd/chebfd.hpp"

#include <fmt/format.h>

#include "matrix/make_generator.hpp"
#include "matrix/sampled_nnz.hpp"
#include "matrix/sell_matrix.hpp"

namespace desync {

MemoryEstimate chebfd_memory(const Config& cfg, int rank, int size) {
  const ChebfdConfig& c = cfg.params.get<ChebfdConfig>();
  const auto g = make_generator(cfg.matrix);
  const RankShare s = rank_share(*g, cfg.matrix.partition, rank, size);
  const double halo = s.halo_bound();
  const double sd = g->is_complex() ? 16.0 : 8.0;
  const double blocks = static_cast<double>(c.ns / c.nb), nb = static_cast<double>(c.nb);
  MemoryEstimate m;
  // The built matrix, plus the filter's own CRS (full, or local + remote: about the same).
  m.add("matrix", 2.0 * (s.nnz * (4.0 + sd) + s.rows * 8.0) + halo * 8.0);
  // format = "sell": the SELL-C-sigma copy is built while both CRS copies still live.
  if (cfg.matrix.format == MatrixFormat::sell)
    m.add("SELL copy", sell_bytes_estimate(s.rows, s.nnz, sd, cfg.matrix.sell.chunk));
  m.add("search space", s.rows * static_cast<double>(c.ns) * sd);
  const double work = (s.rows + halo) * nb * sd * 2.0 * (c.scheme == ChebfdScheme::pipeline ? blocks : 1.0);
  m.add("block vectors", work + 2.0 * halo * nb * sd);
  if (static_cast<std::int64_t>(s.total_rows) <= c.verify_rows && rank == 0)
    m.add("serial reference", s.total_rows * static_cast<double>(c.ns) * 16.0 * 4.0 + sampled_nnz(*g, 0, g->rows()) * 24.0);
  m.add("timeline", Timeline::bytes_estimate(chebfd_steps(c)) * (c.compare_barrier ? 2 : 1));
  // The knob that helps most first: the matrix (its copies) or the vectors ns sets.
  const double matrix = m.parts[0].second + (cfg.matrix.format == MatrixFormat::sell ? m.parts[1].second : 0.0);
  m.knobs = matrix >= 0.5 * m.total() ? fmt::format("the [matrix] size (the matrix is most of it) or [chebfd] ns = {}, or use more ranks", c.ns)
                                      : fmt::format("[chebfd] ns = {}, the [matrix] size, or use more ranks", c.ns);
  return m;
}

}  // namespace desync
