// The mesh mat-vec (workloads/matvec2d/matvec2d.hpp, papers.md E.2 Algorithms 1 and 2) on the
// modelled cluster: the real run's p x p mesh of the active ranks (P_{m,j} = active rank m p + j),
// its blocks (workload/block_cut.hpp), the local product streaming the block of A, then the
// reduction of y_m over row m onto P_{m,m} and the broadcast of y_j down column j from P_{j,j},
// both as the collective study's algorithms (sim_model/sim_collectives.hpp). Pipelined (Alg. 2):
// N_DUP = [comm] communicators parts, each part's broadcast after its own reduction, parts
// pipelined as a progress engine runs them.
#include "workloads/matvec2d/sim_matvec2d_program.hpp"

#include <fmt/format.h>

#include <cmath>
#include <string>

#include "comm/collectives.hpp"
#include "config/locate_key.hpp"
#include "core/errors.hpp"
#include "sim_model/sim_active.hpp"
#include "sim_model/sim_collectives.hpp"
#include "sim_model/sim_program.hpp"
#include "workload/block_cut.hpp"
#include "workload/placement_rules.hpp"
#include "workloads/matvec2d/matvec2d_config.hpp"

namespace desync::sim {

Program matvec2d_program(const Config& cfg, const Platform& platform, int ranks) {
  const Matvec2dConfig& c = cfg.params.get<Matvec2dConfig>();
  const ModelledActive act = modelled_active(platform, ranks, static_cast<int>(cfg.placement.active_ppn));
  const int active = static_cast<int>(act.active.size());
  const int p = static_cast<int>(std::lround(std::sqrt(active)));
  // The real run's mesh rule (matvec2d_module.cpp), on the modelled placement.
  if (p * p != active)
    throw DeckError(fmt::format("{}: error: workload \"matvec2d\" runs on a p x p mesh, but the modelled run has {}; "
                                "allowed: a square number (4, 9, 16, ...)", locate(cfg, "run.workload"), ranks_phrase(cfg, active, ranks)));
  check_blocks(cfg, "[matvec2d] n", c.n, p);
  const bool piped = c.pipelined;
  const int ndup = static_cast<int>(cfg.comm.communicators);  // 1 unless pipelined (checked at load)
  const BlockCut cut{c.n, p};

  Program prog;
  prog.workload = "matvec2d";
  prog.event_names = piped ? std::vector<std::string>{"begin", "product_end", "reduce_bcast_end", "delay_end", "sync_end"}
                           : std::vector<std::string>{"begin", "product_end", "reduce_end", "bcast_end", "delay_end", "sync_end"};
  prog.iterations = cfg.run.warmup + cfg.run.iterations;
  prog.warmup = cfg.run.warmup;
  prog.delay_end = event_of(prog, "delay_end");
  prog.sync_end = event_of(prog, "sync_end");
  prog.work_phase = "product";
  prog.mpi_phases = piped ? std::vector<std::string>{"reduce_bcast", "sync"} : std::vector<std::string>{"reduce", "bcast", "sync"};
  if (!piped) prog.composites.push_back({"comm", {"reduce", "bcast"}});
  prog.uses_communicators = piped;
  place_ranks(prog, ranks, act);

  // Slot 0: the product's bytes (A's block; the real run's traffic model).
  const auto at = [&](int m, int j) { return act.active[static_cast<std::size_t>(m * p + j)]; };
  for (int m = 0; m < p; ++m)
    for (int j = 0; j < p; ++j) {
      RankWork& w = prog.ranks[static_cast<std::size_t>(at(m, j))];
      const double rm = static_cast<double>(cut.rows(m)), rj = static_cast<double>(cut.rows(j));
      w.amount.assign(1, 8.0 * rm * rj);
      w.bytes_per_iteration = 8.0 * rm * rj;
      w.flops_per_iteration = 2.0 * rm * rj;
    }
  for (RankWork& w : prog.ranks)
    if (w.amount.empty()) w.amount.assign(1, 0.0);
  // Per part: the reductions of every row (P_{m,:} onto P_{m,m}), the broadcasts down every
  // column (P_{:,j} from P_{j,j}); N_DUP = 1 unless pipelined.
  const auto stages = [&](CollKind kind, int d) {
    std::vector<std::vector<CollStage>> groups;
    for (int i = 0; i < p; ++i) {
      std::vector<int> g;
      for (int k = 0; k < p; ++k) g.push_back(kind == CollKind::reduce ? at(i, k) : at(k, i));
      groups.push_back(collective_stages(kind, g, i, part_of(cut.rows(i), ndup, d).count));
    }
    return merge_stages(groups);
  };
  const auto mark = [&](const char* name) { return Step{Op::mark, event_of(prog, name)}; };
  prog.steps = {mark("begin"), {Op::memory, 0}, mark("product_end")};
  if (piped) {
    std::vector<std::vector<CollStage>> parts;
    for (int d = 0; d < ndup; ++d) {
      std::vector<CollStage> chain = stages(CollKind::reduce, d), b = stages(CollKind::bcast, d);
      chain.insert(chain.end(), b.begin(), b.end());
      parts.push_back(std::move(chain));
    }
    const CollectiveSteps cs = append_collective(prog, parts, 8);
    prog.steps.insert(prog.steps.end(), cs.posts.begin(), cs.posts.end());
    prog.steps.insert(prog.steps.end(), cs.rest.begin(), cs.rest.end());
    prog.steps.push_back(mark("reduce_bcast_end"));
  } else {
    for (auto [kind, name] : {std::pair{CollKind::reduce, "reduce_end"}, std::pair{CollKind::bcast, "bcast_end"}}) {
      const CollectiveSteps cs = append_collective(prog, {stages(kind, 0)}, 8);
      prog.steps.insert(prog.steps.end(), cs.posts.begin(), cs.posts.end());
      prog.steps.insert(prog.steps.end(), cs.rest.begin(), cs.rest.end());
      prog.steps.push_back(mark(name));
    }
  }
  prog.steps.push_back({Op::delay, 0});
  if (cfg.comm.sync != SyncMode::none) prog.steps.push_back({Op::sync, 0});
  prog.model = fmt::format(
      "matvec2d ({}): {} x {} mesh of the active ranks, n = {}, blocks of {} rows; product: 8 B per entry of A's block "
      "through memory; reduction (Rabenseifner) over each mesh row onto its diagonal, broadcast (binomial scatter + "
      "ring allgather) down each column{}",
      piped ? "pipelined, Alg. 2" : "blocking, Alg. 1", p, p, c.n, cut.b(),
      piped ? fmt::format("; N_DUP {} parts, each part's broadcast after its reduction", ndup) : std::string());
  const int mesh = p;
  prog.results = [mesh, ndup, act](const std::vector<const Timeline*>&, WorkloadResult& into) {
    placement_metrics(act, into);
    into.metrics.push_back(count_value("mesh_p", mesh));
    into.metrics.push_back(count_value("n_dup", ndup));
  };
  return prog;
}

}  // namespace desync::sim
