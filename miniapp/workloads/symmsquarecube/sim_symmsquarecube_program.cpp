// SymmSquareCube (workloads/symmsquarecube/, papers.md E.2 Algorithms 3-5) on the modelled
// cluster: the real run's p x p x p mesh of the active ranks (P_{i,j,k} = active rank k p^2 + i p
// + j; row = P_{:,j,k}, col = P_{i,:,k}, grd = P_{i,j,:}), its blocks (workload/block_cut.hpp),
// each broadcast and reduction as the study's point-to-point algorithms
// (sim_model/sim_collectives.hpp), each block transfer a message, the local products as DGEMM at
// the platform's [core] gemm_flops. The optimized algorithm (Alg. 5) cuts every block into N_DUP
// parts and chains them as the real run does: a part of the first broadcast is passed on along
// the row as soon as it arrives, a part of the first reduction broadcast as soon as it is
// reduced, a part of D^3 sent to layer 0 as soon as it is reduced while D^2 travels there.
// 2.5D (Alg. 6) on its q x q x c mesh: the broadcast, allreduce and reduction over the grid
// fibre (N_DUP parts posted together) around each layer's Cannon steps (skew, then product and
// shift), the shifts as messages.
#include "workloads/symmsquarecube/sim_symmsquarecube_program.hpp"

#include <fmt/format.h>

#include <cmath>
#include <limits>
#include <string>

#include "comm/collectives.hpp"
#include "core/errors.hpp"
#include "sim_model/sim_active.hpp"
#include "sim_model/sim_collectives.hpp"
#include "sim_model/sim_program.hpp"
#include "workload/block_cut.hpp"
#include "workloads/symmsquarecube/symmsquarecube.hpp"
#include "workloads/symmsquarecube/symmsquarecube_module.hpp"

namespace desync::sim {
namespace {

enum class Family { row, col, grd };

// The mesh and how one operation over every group of a family becomes stages.
struct Mesh {
  int p = 1, layers = 1;  // p x p x layers (layers = p but for 2.5d's c)
  BlockCut cut;
  const std::vector<int>* active = nullptr;
  int at(int i, int j, int k) const { return (*active)[static_cast<std::size_t>((k * p + i) * p + j)]; }
  std::int64_t count(int x, int y) const { return cut.rows(x) * cut.rows(y); }

  // Every group of family f at once (row: P_{:,j,k} for all (j, k); col: P_{i,:,k}; grd:
  // P_{i,j,:}), each with the root and count `rc` gives for its fixed pair, part d of nd.
  template <class RootCount>
  std::vector<CollStage> op(CollKind kind, Family f, int d, int nd, RootCount rc) const {
    std::vector<std::vector<CollStage>> groups;
    for (int a = 0; a < p; ++a)
      for (int b = 0; b < (f == Family::grd ? p : layers); ++b) {
        std::vector<int> g;
        for (int x = 0; x < (f == Family::grd ? layers : p); ++x)
          g.push_back(f == Family::row ? at(x, a, b) : f == Family::col ? at(a, x, b) : at(a, b, x));
        const auto [root, n] = rc(a, b);
        groups.push_back(collective_stages(kind, g, root, part_of(n, nd, d).count));
      }
    return merge_stages(groups);
  }

  // One stage of block transfers: for every (i, k), `from(i, k)` sends part d of count(i, k)
  // doubles to P_{i,k,0} (a rank's transfer to itself is a copy).
  template <class From>
  CollStage to_layer0(int d, int nd, From from) const {
    CollStage st;
    for (int i = 0; i < p; ++i)
      for (int k = 0; k < p; ++k) {
        const Part q = part_of(count(i, k), nd, d);
        st.messages.push_back({from(i, k), at(i, k, 0), q.offset, q.offset + q.count});
      }
    return st;
  }
};

std::vector<CollStage> chain(std::vector<CollStage> first, const std::vector<CollStage>& then) {
  first.insert(first.end(), then.begin(), then.end());
  return first;
}

}  // namespace

Program symmsquarecube_program(const Config& cfg, const Platform& platform, int ranks) {
  const SymmSquareCubeConfig& c = cfg.params.get<SymmSquareCubeConfig>();
  if (platform.gemm_flops <= 0)
    throw DeckError(fmt::format("{}: error: [core] gemm_flops is not set: desync simulate needs one core's DGEMM flop/s for "
                                "symmsquarecube's local products; add it to the platform file or give --pset core.gemm_flops=F",
                                platform.path));
  const ModelledActive act = modelled_active(platform, ranks, static_cast<int>(cfg.placement.active_ppn));
  ssc_mesh_rule(cfg, static_cast<int>(act.active.size()), ranks);
  const bool twofive = c.algorithm == SscAlgorithm::twofive;
  Mesh m;
  const auto active = static_cast<double>(act.active.size());
  m.layers = twofive ? static_cast<int>(c.replication) : static_cast<int>(std::lround(std::cbrt(active)));
  m.p = twofive ? static_cast<int>(std::lround(std::sqrt(active / m.layers))) : m.layers;
  m.cut = {c.n, m.p};
  m.active = &act.active;
  const int p = m.p, nd = static_cast<int>(cfg.comm.communicators);

  Program prog;
  prog.core_keys = {"gemm_flops"};
  prog.workload = "symmsquarecube";
  prog.event_names = ssc_events(c.algorithm);
  const int last_event = static_cast<int>(prog.event_names.size()) - 1;
  prog.event_names.insert(prog.event_names.end(), {"delay_end", "sync_end"});
  prog.iterations = cfg.run.warmup + cfg.run.iterations;
  prog.warmup = cfg.run.warmup;
  prog.delay_end = event_of(prog, "delay_end");
  prog.sync_end = event_of(prog, "sync_end");
  prog.uses_communicators = c.algorithm == SscAlgorithm::optimized || c.algorithm == SscAlgorithm::twofive;
  {  // the real run's phases and categories (symmsquarecube.cpp, categorize)
    WorkloadResult shape(Timeline({}, 0, 0));
    ssc_categorize(shape, c.algorithm);
    prog.composites = shape.composites;
    prog.mpi_phases = shape.mpi_phases;
    prog.work_phase = shape.work_phase;
  }
  place_ranks(prog, ranks, act);
  // Amount slot s: a local product's seconds of one core's work (2 b_i b_t b_j flops): one slot
  // for the 3D algorithms (t = k), one per Cannon step for 2.5d (t = i + j + s of the layer's steps).
  const int steps = twofive ? p / m.layers : 1;
  const auto wrap = [p](int x) { return ((x % p) + p) % p; };
  for (RankWork& w : prog.ranks) w.amount.assign(static_cast<std::size_t>(steps), 0.0);
  for (int k = 0; k < m.layers; ++k)
    for (int i = 0; i < p; ++i)
      for (int j = 0; j < p; ++j) {
        RankWork& w = prog.ranks[static_cast<std::size_t>(m.at(i, j, k))];
        for (int st = 0; st < steps; ++st) {
          const int t = twofive ? wrap(i + j + k * steps + st) : k;
          const double flops = 2.0 * static_cast<double>(m.cut.rows(i)) * static_cast<double>(m.cut.rows(t)) *
                               static_cast<double>(m.cut.rows(j));
          w.amount[static_cast<std::size_t>(st)] = flops / platform.gemm_flops;
          w.flops_per_iteration += 2.0 * flops;
        }
      }

  const auto mark = [&](int e) { return Step{Op::mark, e}; };
  std::vector<Step>& s = prog.steps;
  s.push_back(mark(0));
  int next = 1;  // the next event to mark
  const auto add = [&](const std::vector<std::vector<CollStage>>& parts) {
    const CollectiveSteps cs = append_collective(prog, parts, 8);
    s.insert(s.end(), cs.posts.begin(), cs.posts.end());
    s.insert(s.end(), cs.rest.begin(), cs.rest.end());
  };
  const auto then_mark = [&] { s.push_back(mark(next++)); };
  const auto gemm = [&] {
    s.push_back({Op::core, 0});
    then_mark();
  };
  // Roots and counts per fixed pair of a family (see the real run's ssc_blocking.cpp).
  const auto grd_d = [&](int i, int j) { return std::pair<int, std::int64_t>{0, m.count(i, j)}; };     // D_{i,j} from layer 0
  const auto row_bt = [&](int j, int k) { return std::pair<int, std::int64_t>{k, m.count(k, j)}; };    // P_{k,j,k}'s A as B^T
  const auto col_at_k = [&](int i, int k) { return std::pair<int, std::int64_t>{k, m.count(i, k)}; };  // onto P_{i,k,k}
  const auto col_at_i = [&](int i, int k) { return std::pair<int, std::int64_t>{i, m.count(i, k)}; };  // onto P_{i,i,k}
  const auto row_from_k = [&](int j, int k) { return std::pair<int, std::int64_t>{k, m.count(j, k)}; };  // P_{k,j,k}'s D^2_{j,k}
  const auto row_from_j = [&](int j, int k) { return std::pair<int, std::int64_t>{j, m.count(j, k)}; };  // P_{j,j,k}'s D^2_{j,k}
  const auto diag_jk = [&](int i, int k) { return m.at(i, k, k); };  // P_{i,k,k}: D^n_{i,k} reduced there
  const auto diag_ij = [&](int i, int k) { return m.at(i, i, k); };  // P_{i,i,k}: D^2_{i,k} (baseline)

  // Steps 1-3 of both blocking algorithms: D_{i,j} down the grid fibre, P_{k,j,k}'s A along the
  // row as B^T, C = A B.
  const auto first_product = [&] {
    add({m.op(CollKind::bcast, Family::grd, 0, 1, grd_d)});
    add({m.op(CollKind::bcast, Family::row, 0, 1, row_bt)});
    then_mark();
    gemm();
  };
  // One of the listing's steps: its operations, then the event that ends it.
  const auto step = [&](const std::vector<std::vector<CollStage>>& parts) {
    add(parts);
    then_mark();
  };
  switch (c.algorithm) {
    case SscAlgorithm::original: {
      first_product();
      step({m.op(CollKind::reduce, Family::col, 0, 1, col_at_k)});
      step({{m.to_layer0(0, 1, diag_jk)}});
      CollStage tr;  // the transpose: D^2_{a,b} on P_{a,b,b} to P_{b,a,b}
      for (int i = 0; i < p; ++i)
        for (int k = 0; k < p; ++k) tr.messages.push_back({m.at(i, k, k), m.at(k, i, k), 0, m.count(i, k)});
      step({{tr}});
      step({m.op(CollKind::bcast, Family::row, 0, 1, row_from_k)});
      gemm();
      step({m.op(CollKind::reduce, Family::col, 0, 1, col_at_k)});
      step({{m.to_layer0(0, 1, diag_jk)}});
      break;
    }
    case SscAlgorithm::baseline:
      first_product();
      step({m.op(CollKind::reduce, Family::col, 0, 1, col_at_i)});
      step({m.op(CollKind::bcast, Family::row, 0, 1, row_from_j)});
      gemm();
      step({m.op(CollKind::reduce, Family::col, 0, 1, col_at_k)});
      add({{m.to_layer0(0, 1, diag_ij)}});  // D^2 to layer 0 (global), then D^3 (grd)
      step({{m.to_layer0(0, 1, diag_jk)}});
      break;
    case SscAlgorithm::optimized: {
      std::vector<std::vector<CollStage>> a, b, cc;
      for (int d = 0; d < nd; ++d) {
        a.push_back(chain(m.op(CollKind::bcast, Family::grd, d, nd, grd_d), m.op(CollKind::bcast, Family::row, d, nd, row_bt)));
        b.push_back(chain(m.op(CollKind::reduce, Family::col, d, nd, col_at_i), m.op(CollKind::bcast, Family::row, d, nd, row_from_j)));
        cc.push_back(chain(m.op(CollKind::reduce, Family::col, d, nd, col_at_k), {m.to_layer0(d, nd, diag_jk)}));
      }
      for (int d = 0; d < nd; ++d) cc.push_back({m.to_layer0(d, nd, diag_ij)});  // D^2 travels meanwhile
      step(a);
      gemm();
      step(b);
      gemm();
      step(cc);
      break;
    }
    case SscAlgorithm::twofive: {
      // Collectives over the grid fibre, whole or in N_DUP parts posted together.
      const auto fibre = [&](CollKind kind) {
        std::vector<std::vector<CollStage>> parts;
        for (int d = 0; d < nd; ++d) parts.push_back(m.op(kind, Family::grd, d, nd, grd_d));
        step(parts);
      };
      // Cannon: the skew of A along the row and of B along the column (one after the other, as
      // the real run's blocking transfers), then per step the product and, but after the last,
      // the shift of A one to the left and B one up.
      const auto cannon = [&] {
        CollStage skew_a, skew_b;
        for (int k = 0; k < m.layers; ++k)
          for (int i = 0; i < p; ++i)
            for (int j = 0; j < p; ++j) {
              const int s0 = k * steps;
              skew_a.messages.push_back({m.at(i, j, k), m.at(i, wrap(j - i - s0), k), 0, m.count(i, j)});
              skew_b.messages.push_back({m.at(i, j, k), m.at(wrap(i - j - s0), j, k), 0, m.count(i, j)});
            }
        add({{skew_a}});
        add({{skew_b}});
        for (int st = 0; st < steps; ++st) {
          s.push_back({Op::core, st});
          if (st + 1 == steps) break;
          CollStage shift;
          for (int k = 0; k < m.layers; ++k)
            for (int i = 0; i < p; ++i)
              for (int j = 0; j < p; ++j) {
                const int t = wrap(i + j + k * steps + st);
                shift.messages.push_back({m.at(i, j, k), m.at(i, wrap(j - 1), k), 0, m.count(i, t)});
                shift.messages.push_back({m.at(i, j, k), m.at(wrap(i - 1), j, k), 0, m.count(t, j)});
              }
          add({{shift}});
        }
        then_mark();
      };
      fibre(CollKind::bcast);
      cannon();
      fibre(CollKind::allreduce);
      cannon();
      fibre(CollKind::reduce);
      break;
    }
  }
  if (next != last_event + 1) throw std::logic_error("symmsquarecube_program: marks do not match the real run's events");
  s.push_back({Op::delay, 0});
  if (cfg.comm.sync != SyncMode::none) s.push_back({Op::sync, 0});
  prog.model = fmt::format(
      "symmsquarecube ({}): N = {} on a {} x {} x {} mesh, blocks of {} rows, N_DUP {}; broadcasts as binomial scatter + "
      "ring allgather, reductions as Rabenseifner's (sums through memory), block transfers as messages, local products "
      "as DGEMM at {:.4g} flop/s per core",
      enum_name(ssc_algorithm_names, c.algorithm), c.n, p, p, m.layers, m.cut.b(), nd, platform.gemm_flops);

  const SymmSquareCubeConfig cc = c;
  const int warmup = static_cast<int>(cfg.run.warmup);
  const int layers = m.layers;
  prog.results = [cc, p, layers, nd, last_event, warmup, act](const std::vector<const Timeline*>& timelines,
                                                             WorkloadResult& into) {
    placement_metrics(act, into);
    const std::int64_t done = timelines.front()->iterations();
    std::vector<double> slowest;
    for (std::int64_t it = std::min<std::int64_t>(warmup, done); it < done; ++it) {
      double d = 0;
      for (const Timeline* tl : timelines)
        if (it < tl->iterations() && std::isfinite(tl->at(it, last_event) - tl->at(it, 0)))
          d = std::max(d, tl->at(it, last_event) - tl->at(it, 0));
      slowest.push_back(d);
    }
    const double call = slowest.empty() ? std::numeric_limits<double>::quiet_NaN() : min_med_max(slowest).median;
    ssc_run_metrics(cc, call, nullptr, p, layers, nd, into);
  };
  return prog;
}

}  // namespace desync::sim
