// The 2D 5-point Jacobi on the modelled cluster (docs/method.md, section 14), variants base,
// spmv and ca: per rank the block of desync's own decomposition (make_stencil_grid), the updated
// points of its own sweep rule (updated_segments, sweep_runs) and the halo partners and cells of
// the real exchange (stencil_halo_plan, which StencilHalo is built from). CA with ca_steps = s > 1
// is a cycle of s iterations (Program::cycle), as run_stencil's step: the exchange of the s-wide
// halo (corners included) and the sweep of the block extended by s - 1, then s - 1 sweeps of a
// block shrinking by one each (skip_redundant: the own block every time).
#include "workloads/stencil/sim_stencil_program.hpp"

#include <fmt/format.h>

#include <string>

#include "core/errors.hpp"
#include "sim_model/sim_program.hpp"
#include "workloads/stencil/stencil.hpp"
#include "workloads/stencil/stencil_crs.hpp"
#include "workloads/stencil/stencil_grid.hpp"
#include "workloads/stencil/stencil_halo.hpp"
#include "workloads/stencil/stencil_sweep.hpp"

namespace desync::sim {
namespace {

enum Slot : int { pack, latency, unpack, sweep };  // then sweep + k: the sweep of CA cycle position k

// run_stencil's traffic model per updated point and step (bytes_per_iteration): base 24 B (read
// x, write y with its write-allocate), spmv stencil_crs_bytes_per_row (88 B, y counted 16 B).
// Platform bandwidths count bytes as STREAM does (no write-allocate), so the streamed amounts
// leave out the 8 B of y's write-allocate. Pack and unpack (comm, not in the model): an 8 B
// padded index, an 8 B read and an 8 B write per value.
constexpr double write_allocate_per_point = 8.0;
constexpr double halo_bytes_per_value = 8.0 + 8.0 + 8.0;
constexpr std::int64_t value_bytes = 8;

std::int64_t values(const std::vector<StencilHaloPartner>& list) {
  std::int64_t n = 0;
  for (const StencilHaloPartner& x : list) n += x.count;
  return n;
}

}  // namespace

Program stencil_program(const Config& cfg, const Platform& platform, int ranks) {
  const StencilConfig& c = cfg.params.get<StencilConfig>();
  const bool ca = c.variant == StencilVariant::ca;
  const std::int64_t s = ca ? c.ca_steps : 1;  // iterations per cycle

  Program p;
  p.workload = "stencil";
  p.event_names = stencil_event_names();
  p.iterations = cfg.run.warmup + cfg.run.iterations;
  p.warmup = cfg.run.warmup;
  p.delay_end = event_of(p, "delay_end");  // the real timeline has no delay_begin
  p.sync_end = event_of(p, "sync_end");
  p.work_phase = "sweep";
  p.composites = {{"exec", {"sweep"}}, {"comm", {"pack", "latency", "post", "wait", "unpack"}}};
  const auto mark = [&](const char* name) { return Step{Op::mark, event_of(p, name)}; };
  // The order of run_stencil's step: latency_end only with a latency, as there.
  p.steps = {mark("begin"), {Op::memory, pack}, mark("pack_end")};
  if (c.latency > 0.0) p.steps.insert(p.steps.end(), {{Op::core, latency}, mark("latency_end")});
  p.steps.insert(p.steps.end(), {{Op::post, 0}, mark("post_end"), {Op::wait, 0}, mark("wait_end"), {Op::memory, unpack},
                                 mark("unpack_end"), {Op::memory, sweep}, mark("sweep_end"), {Op::delay, 0}});
  if (cfg.comm.sync != SyncMode::none) p.steps.push_back({Op::sync, 0});
  if (s > 1) {
    // The other cycle positions sweep only (no pack, exchange or unpack: their events stay NaN).
    p.cycle.push_back(p.steps);
    for (std::int64_t k = 1; k < s; ++k) {
      std::vector<Step> only{mark("begin"), {Op::memory, static_cast<int>(sweep + k)}, mark("sweep_end"), {Op::delay, 0}};
      if (cfg.comm.sync != SyncMode::none) only.push_back({Op::sync, 0});
      p.cycle.push_back(std::move(only));
    }
  }
  const bool crs = c.variant == StencilVariant::spmv;
  const double model_bytes = crs ? stencil_crs_bytes_per_row : stencil_base_bytes_per_point;
  p.model = fmt::format(
      "stencil {}: memory-bound phases; per rank the block of the process grid and its updated points (tiles, ratio); "
      "sweep {} B per updated point (run_stencil's model), streamed as {} B (STREAM counting, without y's "
      "write-allocate, as the platform's bandwidths); pack and unpack {} B per value{}; halo messages {} B per value, "
      "one per edge neighbour{}{}",
      enum_name(stencil_variant_names, c.variant), model_bytes, model_bytes - write_allocate_per_point,
      halo_bytes_per_value, c.latency > 0 ? fmt::format("; latency = {} s of busy core (no memory traffic)", c.latency) : "",
      value_bytes, ca ? " and per corner neighbour" : "",
      s > 1 ? fmt::format("; ca_steps = {}: a cycle of {} iterations, the first exchanging the {}-wide halo and sweeping "
                          "the block extended by {}, the others sweeping only, a block {} by one each{}",
                          s, s, s, s - 1, c.skip_redundant ? "of own points" : "shrinking",
                          c.skip_redundant ? " (skip_redundant: own points only)" : "")
            : "");

  const auto [px, py] = stencil_process_grid(c, ranks);
  const auto xs = updated_segments(c.n, px, c.tile_x, c.ratio), ys = updated_segments(c.n, py, c.tile_y, c.ratio);
  p.ranks.resize(static_cast<std::size_t>(ranks));
  for (int r = 0; r < ranks; ++r) {
    RankWork& w = p.ranks[static_cast<std::size_t>(r)];
    const StencilGrid grid = make_stencil_grid(c, r, ranks);  // DeckError for a grid that does not fit
    const auto own = static_cast<double>(run_points(sweep_runs(grid, xs, ys, 0)));
    const StencilHaloPlan halo = stencil_halo_plan(grid, ca);
    w.flops_per_iteration = 9.0 * static_cast<double>(grid.lx * grid.ly);
    w.amount.assign(static_cast<std::size_t>(sweep + s), 0.0);
    w.amount[pack] = halo_bytes_per_value * static_cast<double>(values(halo.send));
    w.amount[unpack] = halo_bytes_per_value * static_cast<double>(values(halo.recv));
    // Cycle position k sweeps the block extended by s - 1 - k (run_stencil's runs_host[k]).
    double swept = 0.0;
    for (std::int64_t k = 0; k < s; ++k) {
      const auto points = static_cast<double>(run_points(sweep_runs(grid, xs, ys, c.skip_redundant ? 0 : s - 1 - k)));
      w.amount[static_cast<std::size_t>(sweep + k)] = (model_bytes - write_allocate_per_point) * points;
      swept += points;
    }
    // run_stencil's model: the own points plus the redundant ones of an average step.
    w.bytes_per_iteration = crs ? model_bytes * own : model_bytes * swept / static_cast<double>(s);
    // busy_divide(L) spins L seconds of wall time; a core step lasts amount / (threads x share).
    w.amount[latency] = c.latency * platform.threads_per_rank * place_rank(platform, r, ranks).core_share;
    w.partners = stencil_partners(halo.recv, halo.send);  // /comm as run_stencil writes it
    w.exchange = {exchange_of(w.partners)};
  }
  return p;
}

}  // namespace desync::sim
