#include "commands/plan_command.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>

#include "core/clock.hpp"
#include "core/errors.hpp"
#include "core/memory.hpp"
#include "matrix/make_generator.hpp"
#include "matrix/row_partition.hpp"
#include "workloads/registry.hpp"
#include "matrix/sampled_nnz.hpp"

namespace desync {

std::string plan_command(const Config& cfg, const PlanOptions& opt, const std::string& format, const PlanModelOptions& model) {
  if (opt.ranks < 1) throw DeckError("desync: error: --ranks must be >= 1");
  if (const auto own = workload_module(cfg.run.workload).plan) return own(cfg, opt, format, model);
  if (format != "json" && opt.spy_grid >= 0)
    throw DeckError(fmt::format("desync: error: --spy-grid {}: only the JSON plan has a spy grid; allowed: with --format json",
                                opt.spy_grid));
  // The workloads with a plan of their own (the others plan their [matrix]), for messages.
  std::string own_plans;
  for (const auto& m : workload_registry())
    if (m.plan) own_plans += (own_plans.empty() ? "" : " or ") + ("[run] workload = \"" + m.deck.name + "\"");
  if (model.bandwidth_MiBps > 0 || model.latency_us > 0)
    throw DeckError("desync: error: --bandwidth and --latency apply to the communication model of a workload's own plan; "
                    "allowed: only with " + own_plans);
  if (!cfg.has_matrix) throw DeckError(cfg.deck_path + ": error: the deck has no [matrix] table; desync plan needs one "
                                       "(or " + own_plans + ")");
  if (opt.only_rank >= opt.ranks) throw DeckError(fmt::format("desync: error: --rank {} is not below --ranks {}", opt.only_rank, opt.ranks));
  if (cfg.matrix.partition == PartitionKind::box) validate_for_ranks(cfg, opt.ranks);  // px py pz = --ranks
  if (opt.ranks_per_node > 0 && opt.ranks % opt.ranks_per_node != 0)
    throw DeckError(fmt::format("desync: error: --ranks-per-node {} does not divide --ranks {}; allowed: a divisor of --ranks",
                                opt.ranks_per_node, opt.ranks));
  if (cfg.matrix.generator == GeneratorKind::topi && opt.ranks_per_node > 0) {
    const auto& n = cfg.matrix.topi.nodes;
    const std::int64_t grid = n[0] * n[1] * n[2], nodes = opt.ranks / opt.ranks_per_node;
    if (grid != nodes)
      throw DeckError(fmt::format("{}: error: [matrix.topi] node grid {}x{}x{} = {} nodes, but --ranks {} / "
                                  "--ranks-per-node {} = {} nodes",
                                  cfg.deck_path, n[0], n[1], n[2], grid, opt.ranks, opt.ranks_per_node, nodes));
  }
  const auto gen = make_generator(cfg.matrix);
  if (gen->rows() < opt.ranks)
    throw DeckError(fmt::format("{}: error: --ranks {}: [matrix] has {} rows, so some ranks would own no row; allowed: "
                                "--ranks 1 .. {}",
                                cfg.deck_path, opt.ranks, static_cast<long long>(gen->rows()), static_cast<long long>(gen->rows())));
  // Memory first: scanning a rank keeps the set of its remote columns (at most one 8-byte entry
  // per nonzero, twice while sorting). Sampled on the first and last rank of a row partition.
  RankShare largest;
  for (int r : {opt.only_rank >= 0 ? opt.only_rank : 0, opt.only_rank >= 0 ? opt.only_rank : opt.ranks - 1}) {
    const RankShare s = rank_share(*gen, PartitionKind::rows, r, opt.ranks);
    if (s.nnz >= largest.nnz) largest = s;
  }
  const double nnz_rank = largest.nnz;
  const double need = 16.0 * nnz_rank + 8.0 * (static_cast<double>(opt.ranks) + 1);
  const double have = node_available_bytes();
  if (have > 0 && need > have)
    throw DeckError(fmt::format("{}: error: desync plan needs about {} to scan one rank ({} rows, about {:.3g} nonzeros "
                                "each), but this machine has {} available; use more --ranks, or --rank K to scan one rank",
                                cfg.deck_path, format_bytes(need), static_cast<long long>(largest.rows), nnz_rank,
                                format_bytes(have)));
  if (opt.only_rank < 0 && nnz_rank * opt.ranks > 5e7)
    std::fprintf(stderr, "desync plan: %lld rows, about %.3g nonzeros, %d ranks: scanning (progress every 5 s)\n",
                 static_cast<long long>(gen->rows()), nnz_rank * opt.ranks, opt.ranks);
  PlanOptions scan = opt;
  if (format != "json") scan.spy_grid = 0;  // only the JSON has the spy grid
  // The halo as the workload sends it: its scalar, and its block width unless --nb gave one.
  const auto halo = workload_module(cfg.run.workload).halo_values;
  const HaloValues values = halo ? halo(cfg) : HaloValues{gen->is_complex() ? 16 : 8, 1};
  scan.scalar_bytes = values.scalar_bytes;
  if (scan.nb <= 0) scan.nb = values.nb;
  const double t0 = now();
  double last = t0;
  const Plan p = build_plan(*gen, cfg.matrix, scan, [&](int done, int total) {
    const double t = now();
    if (t - last < 5.0) return;
    last = t;
    std::fprintf(stderr, "desync plan: %d/%d ranks scanned, %.0f s\n", done, total, t - t0);
  });
  return format == "json" ? plan_json(p) : plan_text(p);
}

}  // namespace desync
