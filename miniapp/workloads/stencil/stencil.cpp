#include "workloads/stencil/stencil.hpp"

#include "core/fingerprint.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <utility>

#include "workloads/stencil/stencil_halo.hpp"
#include "core/mpi_util.hpp"
#include "inject/busy_work.hpp"
#include "kokkos_compat/scoped_region.hpp"
#include "metrics/phase_stats.hpp"
#include "loop/experiment_loop.hpp"
#include "workloads/stencil/stencil_crs.hpp"
#include "workloads/stencil/stencil_reference.hpp"
#include "workloads/stencil/stencil_sweep.hpp"

namespace desync {
namespace {

namespace stencil_event {
enum : int { begin, pack_end, latency_end, post_end, wait_end, unpack_end, sweep_end, delay_end, sync_end };
}  // namespace stencil_event

using Policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;

// The rank's own lx x ly values, x fastest.
std::vector<double> own_block(const StencilGrid& s, const Vector& x) {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), x);
  std::vector<double> out(static_cast<std::size_t>(s.lx * s.ly));
  for (std::int64_t j = 0; j < s.ly; ++j)
    for (std::int64_t i = 0; i < s.lx; ++i)
      out[static_cast<std::size_t>(j * s.lx + i)] = h(static_cast<std::size_t>(s.at(i + s.g, j + s.g)));
  return out;
}

}  // namespace

std::vector<std::string> stencil_event_names() {
  return {"begin", "pack_end", "latency_end", "post_end", "wait_end", "unpack_end", "sweep_end", "delay_end", "sync_end"};
}

WorkloadResult run_stencil(const Config& cfg, MPI_Comm comm) {
  compat::ScopedRegion region("desync::stencil");
  const StencilConfig& c = cfg.params.get<StencilConfig>();
  const int rank = comm_rank(comm), size = comm_size(comm);
  const StencilGrid grid = make_stencil_grid(c, rank, size);  // DeckError before anything else
  const bool ca = c.variant == StencilVariant::ca;
  const std::int64_t s = ca ? c.ca_steps : 1;
  const StencilWeights w{c.weights[0], c.weights[1], c.weights[2], c.weights[3], c.weights[4]};

  // Row runs per sweep extension: ext = s-1-k at sweep k of a CA cycle, 0 otherwise.
  const auto xs = updated_segments(c.n, grid.px, c.tile_x, c.ratio);
  const auto ys = updated_segments(c.n, grid.py, c.tile_y, c.ratio);
  std::vector<std::vector<RowRun>> runs_host;
  for (std::int64_t k = 0; k < s; ++k) runs_host.push_back(sweep_runs(grid, xs, ys, c.skip_redundant ? 0 : s - 1 - k));
  std::vector<RunView> runs;
  for (const auto& r : runs_host) runs.push_back(runs_to_device(r));
  const std::int64_t own_points = run_points(runs_host.back());  // ext = 0
  std::int64_t swept = 0;
  for (const auto& r : runs_host) swept += run_points(r);
  const double redundant_per_step = static_cast<double>(swept - s * own_points) / static_cast<double>(s);
  StencilCrs crs;
  if (c.variant == StencilVariant::spmv) crs = build_stencil_crs(grid, runs_host[0], w, cfg.deck_path);
  runs_host.clear();

  const Communicators comms(comm, cfg.comm);
  StencilHalo halo(grid, ca, comms, cfg.comm);
  Vector x("desync::stencil::x", static_cast<std::size_t>(grid.padded()));
  Vector y("desync::stencil::y", static_cast<std::size_t>(grid.padded()));
  for (const Vector& v : {x, y})
    Kokkos::parallel_for("desync::stencil::init", Policy(0, grid.padded()),
                         StencilInit{v, grid.wx(), grid.x0, grid.y0, grid.g, grid.n, c.boundary});
  ExecSpace().fence();

  // The sweep of cycle position k, chosen once: the CRS product (variant "spmv") or the
  // matrix-free sweep over that position's row runs ("base", "ca").
  const auto crs_sweep = [&](std::int64_t) { crs.apply(x, y); };
  const auto runs_sweep = [&](std::int64_t k) {
    const RunView& rk = runs[static_cast<std::size_t>(k)];
    sweep_stencil(rk, x, y, grid.wx(), w);
    ExecSpace().fence();
  };
  const std::function<void(std::int64_t)> sweep =
      c.variant == StencilVariant::spmv ? std::function<void(std::int64_t)>(crs_sweep) : std::function<void(std::int64_t)>(runs_sweep);

  const std::int64_t total = cfg.run.warmup + cfg.run.iterations;
  WorkloadResult r(Timeline(stencil_event_names(), total, cfg.run.warmup));
  Timeline& tl = r.timeline;
  // What the run is, before the loop: a flush during the run writes it (loop/flush_hook.hpp).
  r.messages = comms.log();
  // Traffic, flop and communication models.
  r.composites = {{"exec", {"sweep"}}, {"comm", {"pack", "latency", "post", "wait", "unpack"}}};
  r.work_phase = "sweep";
  r.flops_per_iteration = 9.0 * static_cast<double>(grid.lx * grid.ly);
  r.bytes_per_iteration = c.variant == StencilVariant::spmv
                              ? stencil_crs_bytes_per_row * static_cast<double>(own_points)
                              : stencil_base_bytes_per_point * (static_cast<double>(own_points) + redundant_per_step);
  r.partners = stencil_partners(halo.recv(), halo.send());
  ExperimentLoop loop(cfg, comm, r, cfg.comm.sync);
  // [stencil] latency: busy work in every exchange standing for network latency, or nothing;
  // chosen once.
  const auto added_latency = [&](std::int64_t it) {
    busy_divide(c.latency);
    tl.mark(it, stencil_event::latency_end);
  };
  const std::function<void(std::int64_t)> latency =
      c.latency > 0.0 ? std::function<void(std::int64_t)>(added_latency) : std::function<void(std::int64_t)>([](std::int64_t) {});
  const auto step = [&](std::int64_t it) {
    tl.mark(it, stencil_event::begin);
    const std::int64_t k = it % s;  // position in the CA cycle (always 0 for base and spmv)
    if (k == 0) {
      halo.pack(x);
      tl.mark(it, stencil_event::pack_end);
      latency(it);
      halo.post();
      tl.mark(it, stencil_event::post_end);
      halo.wait();
      tl.mark(it, stencil_event::wait_end);
      halo.unpack(x);
      tl.mark(it, stencil_event::unpack_end);
    }
    sweep(k);
    tl.mark(it, stencil_event::sweep_end);
  };
  // The delay slot after the sweep, before the next exchange; the grids swap after it.
  r.stop_signal = loop.run(total, step, [&](std::int64_t) { std::swap(x, y); });

  // Verification against the serial reference (docs/method.md, section 14).
  const std::vector<double> block = own_block(grid, x);
  const StencilCheck check = check_stencil(c, grid, block, loop.iterations_done(), c.skip_redundant && s > 1, comm);
  r.elements_checked = check.checked;
  r.element_errors = check.wrong;
  if (c.skip_redundant && s > 1)
    r.verification_scope = "skip_redundant with ca_steps > 1 computes no Jacobi result: finite values only";
  else if (!stencil_full_check(c, loop.iterations_done()))
    r.verification_scope =
        (c.n > c.verify_full_max ? fmt::format("n = {}, above [stencil] verify_full_max = {}", c.n, c.verify_full_max)
                                 : fmt::format("n^2 x steps = {:.3g}, above 2^32",
                                               static_cast<double>(c.n) * static_cast<double>(c.n) *
                                                   static_cast<double>(loop.iterations_done()))) +
        ": the four 8 x 8 corner windows of each block against the serial reference, not the whole grid";
  if (check.wrong > 0) r.extra_verdict = fmt::format("rank {}: {} of {} grid values differ from the serial reference; first: {}",
                                                     rank, check.wrong, check.checked, check.first_error);
  r.result_fingerprint = fingerprint_bytes(block.data(), block.size() * sizeof(double));
  r.result_norm2 = sum_of_squares(block.data(), block.size());
  r.has_result_digest = true;
  r.nonfinite = count_nonfinite(block.data(), block.size());

  std::int64_t sent_bytes = 0;
  for (const std::int64_t b : r.partners.send_bytes) sent_bytes += b;
  double sums[3] = {static_cast<double>(halo.send().size()) / static_cast<double>(s),
                    static_cast<double>(sent_bytes) / static_cast<double>(s), 9.0 * redundant_per_step};
  MPI_Allreduce(MPI_IN_PLACE, sums, 3, MPI_DOUBLE, MPI_SUM, comm);
  const double useful = 9.0 * static_cast<double>(c.n) * static_cast<double>(c.n);
  const double wall = measured_wall(tl, comm);
  const double flops = useful * static_cast<double>(tl.iterations() - tl.warmup());
  r.metrics = {{"gflops", wall > 0 ? 1e-9 * flops / wall : 0.0, "Gflop/s"},
               {"redundant_flops_per_step", sums[2], "1"},
               {"redundant_fraction", sums[2] / useful, "1"},
               {"halo_messages_per_step", sums[0] / size, "1"},
               {"halo_bytes_per_step", sums[1] / size, "B"},
               count_value("process_grid_x", grid.px),
               count_value("process_grid_y", grid.py)};
  return r;
}

}  // namespace desync
