#include "app/plan_command.hpp"

#include <fmt/format.h>

#include <cstdio>

#include "core/clock.hpp"
#include "core/errors.hpp"
#include "matrix/make_generator.hpp"

namespace desync {

std::string plan_command(const Config& cfg, const PlanOptions& opt, const std::string& format) {
  if (!cfg.has_matrix) throw DeckError(cfg.deck_path + ": error: the deck has no [matrix] table; desync plan needs one");
  if (opt.ranks < 1) throw DeckError("error: --ranks must be >= 1");
  if (opt.only_rank >= opt.ranks) throw DeckError(fmt::format("error: --rank {} is not below --ranks {}", opt.only_rank, opt.ranks));
  if (opt.ranks_per_node > 0 && opt.ranks % opt.ranks_per_node != 0)
    throw DeckError(fmt::format("error: --ranks-per-node {} does not divide --ranks {}; allowed: a divisor of --ranks",
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
  const double t0 = now();
  double last = t0;
  const Plan p = build_plan(*gen, cfg.matrix, opt, [&](int done, int total) {
    const double t = now();
    if (t - last < 5.0) return;
    last = t;
    std::fprintf(stderr, "desync plan: %d/%d ranks scanned, %.0f s\n", done, total, t - t0);
  });
  return format == "json" ? plan_json(p) : plan_text(p);
}

}  // namespace desync
