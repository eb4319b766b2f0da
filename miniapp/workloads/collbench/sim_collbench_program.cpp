// The collective micro-benchmark on the modelled cluster (workloads/collbench/collbench.hpp,
// papers.md E.3): the real run's columns (rank l of every node, l < the active ranks per node),
// each carrying its share of every size, its sizes and operations in the real run's order, with
// the collectives as the study's point-to-point algorithms (sim_model/sim_collectives.hpp):
// blocking, or N_DUP = [comm] communicators parts pipelined as a progress engine does it. Ranks
// beyond [placement] active_ppn sleep, as in the real run: no phase, NaN timelines.
#include "workloads/collbench/sim_collbench_program.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "comm/collectives.hpp"
#include "core/errors.hpp"
#include "sim_model/sim_active.hpp"
#include "sim_model/sim_collectives.hpp"
#include "sim_model/sim_program.hpp"
#include "workloads/collbench/collbench.hpp"

namespace desync::sim {

Program collbench_program(const Config& cfg, const Platform& platform, int ranks) {
  const CollbenchConfig& c = cfg.params.get<CollbenchConfig>();
  const int rpn = std::min(platform.ranks_per_node, ranks);
  const int nodes = (ranks + rpn - 1) / rpn;
  // The real run's layout checks (collbench_module.cpp), on the modelled placement.
  if (nodes < 2)
    throw DeckError(fmt::format("{}: error: workload \"collbench\" measures collectives between nodes, but all {} rank(s) "
                                "are on one modelled node ({} ranks per node); give more ranks, or set [placement] "
                                "ranks_per_node (or --pset placement.ranks_per_node=N)", cfg.deck_path, ranks, rpn));
  if (ranks % rpn != 0)
    throw DeckError(fmt::format("{}: error: workload \"collbench\" needs the same number of ranks on every node (its "
                                "columns span all nodes); {} ranks do not fill nodes of {}; allowed: --ranks a multiple of {}, or another "
                                "count per node (--pset placement.ranks_per_node=N, which wins over the deck's and the "
                                "platform's [placement] ranks_per_node)",
                                cfg.deck_path, ranks, rpn, rpn));
  const ModelledActive act = modelled_active(platform, ranks, static_cast<int>(cfg.placement.active_ppn));
  const int k = act.per_node;  // columns
  const bool nb = c.mode == CollMode::nonblocking;
  const int ndup = nb ? static_cast<int>(cfg.comm.communicators) : 1;
  const std::int64_t reps = cfg.run.iterations;
  const auto nops = static_cast<std::int64_t>(c.ops.size());
  enum : int { begin, post_end, wait_end };

  Program p;
  p.workload = "collbench";
  p.event_names = {"begin", "post_end", "wait_end", "delay_end", "sync_end"};
  p.iterations = collbench_rows(cfg);
  p.warmup = 0;  // the real warm-up repetitions are untimed, before each cell's first row
  p.delay_end = 3;
  p.sync_end = 4;
  p.work_phase = "post";
  p.mpi_phases = {"post", "wait", "sync"};
  p.uses_communicators = nb;
  place_ranks(p, ranks, act);
  std::vector<std::vector<int>> column(static_cast<std::size_t>(k));  // column l: rank l of every node
  for (int r : act.active) column[static_cast<std::size_t>(r % rpn)].push_back(r);

  // Per cell (size, operation): its collectives' steps; the cell's first row adds the real run's
  // barrier and untimed warm-up repetitions before its own.
  const Step mark_begin{Op::mark, begin}, mark_post{Op::mark, post_end}, mark_wait{Op::mark, wait_end};
  for (std::size_t s = 0; s < c.sizes.size(); ++s)
    for (std::int64_t o = 0; o < nops; ++o) {
      const CollKind kind = c.ops[static_cast<std::size_t>(o)] == CollOp::bcast ? CollKind::bcast : CollKind::reduce;
      std::vector<std::vector<CollStage>> parts;
      for (int d = 0; d < ndup; ++d) {
        std::vector<std::vector<CollStage>> columns;
        for (int l = 0; l < k; ++l) {
          const std::int64_t count = part_of(c.sizes[s] / 4, k, l).count;
          columns.push_back(collective_stages(kind, column[static_cast<std::size_t>(l)], 0, part_of(count, ndup, d).count));
        }
        parts.push_back(merge_stages(columns));
      }
      const CollectiveSteps cs = append_collective(p, parts, 4);  // floats
      std::vector<Step> one{mark_begin};
      one.insert(one.end(), cs.posts.begin(), cs.posts.end());
      if (nb) one.push_back(mark_post);
      one.insert(one.end(), cs.rest.begin(), cs.rest.end());
      if (!nb) one.push_back(mark_post);
      one.push_back(mark_wait);
      one.push_back({Op::delay, 0});
      if (cfg.comm.sync != SyncMode::none) one.push_back({Op::sync, 0});
      std::vector<Step> first{{Op::allreduce, 0}};
      for (std::int64_t wu = 0; wu < cfg.run.warmup; ++wu) {
        first.insert(first.end(), cs.posts.begin(), cs.posts.end());
        first.insert(first.end(), cs.rest.begin(), cs.rest.end());
      }
      first.insert(first.end(), one.begin(), one.end());
      for (std::int64_t i = 0; i < reps; ++i) p.cycle.push_back(i == 0 ? first : one);
    }
  p.steps = p.cycle.empty() ? std::vector<Step>{} : p.cycle.front();
  p.model = fmt::format(
      "collbench ({}): {} node(s) of {} rank(s), {} column(s) of {} rank(s), N_DUP {}; broadcast: binomial scatter + ring "
      "allgather, reduction: Rabenseifner (recursive-halving reduce-scatter + binomial gather, sums streamed through memory); "
      "parts pipelined stage by stage",
      enum_name(coll_mode_names, c.mode), nodes, rpn, k, nodes, ndup);

  const CollbenchShape shape{nodes, k, nodes, ndup};
  const Config* cp = &cfg;
  p.results = [cp, shape](const std::vector<const Timeline*>& timelines, WorkloadResult& into) {
    const Timeline& t0 = *timelines.front();
    const std::int64_t rows = t0.iterations();
    std::vector<double> duration(static_cast<std::size_t>(rows), 0.0);
    for (const Timeline* tl : timelines)
      for (std::int64_t it = 0; it < std::min(rows, tl->iterations()); ++it) {
        const double d = tl->at(it, wait_end) - tl->at(it, begin);
        if (std::isfinite(d)) duration[static_cast<std::size_t>(it)] = std::max(duration[static_cast<std::size_t>(it)], d);
      }
    const CollbenchConfig& cc = cp->params.get<CollbenchConfig>();
    const std::size_t cells = cc.sizes.size() * cc.ops.size() * static_cast<std::size_t>(shape.ndup);
    const std::vector<double> none(cells, std::numeric_limits<double>::quiet_NaN());
    collbench_axes(*cp, into);
    collbench_tables(*cp, shape, duration, rows, none, none, into);
    into.metrics.push_back(count_value("nodes", shape.nodes));
    into.metrics.push_back(count_value("active_ranks", shape.nodes * shape.columns));
    into.metrics.push_back(count_value("active_ppn", shape.columns));
    into.metrics.push_back(count_value("natural_placement", 1));
  };
  return p;
}

}  // namespace desync::sim
