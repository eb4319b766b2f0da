// The 2D 5-point Jacobi on the modelled cluster (docs/method.md, section 14), variants base and
// spmv (and ca with ca_steps = 1, which is base with corner messages): per rank the block of
// desync's own decomposition (make_stencil_grid), the updated points of its own sweep rule
// (updated_segments, sweep_runs) and the halo partners and cells of the real exchange
// (stencil_halo_plan, which StencilHalo is built from).
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

enum Slot : int { pack, latency, unpack, sweep, slots };

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
  // A CA cycle exchanges every s steps and sweeps a shrinking extended block: its steps differ,
  // while a simulated iteration is the same every step. With s = 1 it is base plus corners.
  if (ca && c.ca_steps > 1)
    refuse(cfg, "stencil", "variant", fmt::format("\"ca\" with ca_steps = {}", c.ca_steps),
           "the exchange every ca_steps steps and the shrinking ghost-zone sweeps differ from step to step; "
           "variant = \"base\" or \"spmv\", or ca_steps = 1, simulate");

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
  const bool crs = c.variant == StencilVariant::spmv;
  const double model_bytes = crs ? stencil_crs_bytes_per_row : stencil_base_bytes_per_point;
  p.model = fmt::format(
      "stencil {}: memory-bound phases; per rank the block of the process grid and its updated points (tiles, ratio); "
      "sweep {} B per updated point (run_stencil's model), streamed as {} B (STREAM counting, without y's "
      "write-allocate, as the platform's bandwidths); pack and unpack {} B per value{}; halo messages {} B per value, "
      "one per edge neighbour{}",
      enum_name(stencil_variant_names, c.variant), model_bytes, model_bytes - write_allocate_per_point,
      halo_bytes_per_value, c.latency > 0 ? fmt::format("; latency = {} s of busy core (no memory traffic)", c.latency) : "",
      value_bytes, ca ? " and per corner neighbour" : "");

  const auto [px, py] = stencil_process_grid(c, ranks);
  const auto xs = updated_segments(c.n, px, c.tile_x, c.ratio), ys = updated_segments(c.n, py, c.tile_y, c.ratio);
  p.ranks.resize(static_cast<std::size_t>(ranks));
  for (int r = 0; r < ranks; ++r) {
    RankWork& w = p.ranks[static_cast<std::size_t>(r)];
    const StencilGrid grid = make_stencil_grid(c, r, ranks);  // DeckError for a grid that does not fit
    const auto own = static_cast<double>(run_points(sweep_runs(grid, xs, ys, 0)));
    const StencilHaloPlan halo = stencil_halo_plan(grid, ca);
    w.bytes_per_iteration = model_bytes * own;
    w.flops_per_iteration = 9.0 * static_cast<double>(grid.lx * grid.ly);
    w.amount.assign(slots, 0.0);
    w.amount[pack] = halo_bytes_per_value * static_cast<double>(values(halo.send));
    w.amount[unpack] = halo_bytes_per_value * static_cast<double>(values(halo.recv));
    w.amount[sweep] = (model_bytes - write_allocate_per_point) * own;
    // busy_divide(L) spins L seconds of wall time; a core step lasts amount / (threads x share).
    w.amount[latency] = c.latency * platform.threads_per_rank * place_rank(platform, r, ranks).core_share;
    w.partners = stencil_partners(halo.recv, halo.send);  // /comm as run_stencil writes it
    w.exchange = {exchange_of(w.partners)};
  }
  return p;
}

}  // namespace desync::sim
