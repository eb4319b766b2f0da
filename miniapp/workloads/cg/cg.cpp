#include "workloads/cg/cg.hpp"

#include <fmt/format.h>

#include <Kokkos_Core.hpp>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "kokkos_compat/labelled_fill.hpp"
#include "workloads/cg/cg_kernels.hpp"
#include "workloads/cg/cg_verify.hpp"
#include "comm/halo_exchange.hpp"
#include "comm/halo_plan.hpp"
#include "comm/overlap.hpp"
#include "core/device_copy.hpp"
#include "core/errors.hpp"
#include "core/fingerprint.hpp"
#include "core/mpi_util.hpp"
#include "kokkos_compat/scoped_region.hpp"
#include "loop/experiment_loop.hpp"
#include "matrix/local_matrix.hpp"
#include "matrix/make_generator.hpp"
#include "workload/halo_partners.hpp"
#include "workload/owned_values.hpp"

namespace desync {
namespace {

using cg::ListedRows;
using cg::RowPolicy;

// Events of one iteration (cg_event_names' order).
namespace cg_event {
enum : int { begin, pack_end, post_end, interior_end, wait_end, spmv_end, pq_end, pq_allreduce_end, update_end,
             rr_allreduce_end, direction_end, delay_end, sync_end };
}  // namespace cg_event

// The manufactured solution: smooth in the row index is not needed, only known and nonzero.
KOKKOS_INLINE_FUNCTION double x_star(GlobalIndex g) { return 1.0 + static_cast<double>((g * 7919) % 1000) / 1000.0; }

}  // namespace

std::vector<std::string> cg_event_names() {
  return {"begin", "pack_end", "post_end", "interior_end", "wait_end", "spmv_end", "pq_end", "pq_allreduce_end",
          "update_end", "rr_allreduce_end", "direction_end", "delay_end", "sync_end"};
}

WorkloadResult run_cg(const Config& cfg, MPI_Comm comm) {
  compat::ScopedRegion region("desync::cg");
  const int rank = comm_rank(comm), size = comm_size(comm);
  const auto gen = make_generator(cfg.matrix);
  const RowPartition part = make_partition(*gen, cfg.matrix.partition, size);
  const LocalMatrix<double> m = build_local_matrix<double>(*gen, part, rank);
  const HaloPlan plan = build_halo_plan(m.halo_columns, part, comm);
  const std::int32_t n = m.rows;
  const auto nh = static_cast<std::size_t>(n) + static_cast<std::size_t>(m.halo());

  // Rows that read no halo entry (computed while the halo travels) and rows that do.
  std::vector<std::int32_t> inner_h, outer_h;
  {
    auto rp = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), m.row_ptr);
    auto col = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), m.col);
    for (std::int32_t i = 0; i < n; ++i) {
      bool halo = false;
      for (auto k = rp(i); k < rp(i + 1); ++k) halo = halo || col(k) >= n;
      (halo ? outer_h : inner_h).push_back(i);
    }
  }
  const LocalColumns inner = to_device("desync::cg::inner_rows", inner_h), outer = to_device("desync::cg::outer_rows", outer_h);

  const Communicators comms(comm, cfg.comm);
  HaloExchange<Vector> halo(plan, n, comms, cfg.comm);
  Vector x("desync::cg::x", static_cast<std::size_t>(n)), r("desync::cg::r", static_cast<std::size_t>(n)),
      p("desync::cg::p", nh), q("desync::cg::q", static_cast<std::size_t>(n)), b("desync::cg::b", static_cast<std::size_t>(n));
  const GlobalIndex first = m.first_row;
  const spmv::LocalProduct product{m.row_ptr, m.col, m.val, p, q};

  // The SpMV q = A p, chosen once: exchange then all rows, or the overlapped split. tl null:
  // not recorded (set-up and verification products).
  const auto mark = [](Timeline* tl, std::int64_t it, int e) {
    if (tl) tl->mark(it, e);
  };
  const auto plain = [&](Timeline* tl, std::int64_t it) {
    halo.pack(p);
    mark(tl, it, cg_event::pack_end);
    halo.post(p);
    mark(tl, it, cg_event::post_end);
    halo.wait();
    mark(tl, it, cg_event::wait_end);
    // Built once: Kokkos takes a label as const std::string&, a literal is a new string per launch.
    static const std::string spmv_label = "desync::cg::spmv";
    Kokkos::parallel_for(spmv_label, RowPolicy(0, n), product);
    ExecSpace().fence();
    mark(tl, it, cg_event::spmv_end);
  };
  const auto overlapped = [&](Timeline* tl, std::int64_t it) {
    halo.pack(p);
    mark(tl, it, cg_event::pack_end);
    halo.post(p);
    mark(tl, it, cg_event::post_end);
    overlap_exchange(halo.exchange(), static_cast<std::int64_t>(inner_h.size()), [&](std::int64_t b0, std::int64_t e0) {
      // Built once: Kokkos takes a label as const std::string&, a literal is a new string per launch.
      static const std::string spmv_inner_label = "desync::cg::spmv_inner";
      Kokkos::parallel_for(spmv_inner_label, RowPolicy(static_cast<std::int32_t>(b0), static_cast<std::int32_t>(e0)),
                           ListedRows{product, inner});
      ExecSpace().fence();
    });
    mark(tl, it, cg_event::interior_end);
    halo.wait();
    mark(tl, it, cg_event::wait_end);
    // Built once: Kokkos takes a label as const std::string&, a literal is a new string per launch.
    static const std::string spmv_outer_label = "desync::cg::spmv_outer";
    Kokkos::parallel_for(spmv_outer_label, RowPolicy(0, static_cast<std::int32_t>(outer_h.size())), ListedRows{product, outer});
    ExecSpace().fence();
    mark(tl, it, cg_event::spmv_end);
  };
  const std::function<void(Timeline*, std::int64_t)> spmv =
      cfg.params.get<CgConfig>().overlap ? std::function<void(Timeline*, std::int64_t)>(overlapped) : std::function<void(Timeline*, std::int64_t)>(plain);

  // Set-up: b = A x*, x = 0, r = b, p = r.
  Kokkos::parallel_for("desync::cg::x_star", RowPolicy(0, n), KOKKOS_LAMBDA(std::int32_t i) { p(i) = x_star(first + i); });
  spmv(nullptr, 0);
  Kokkos::deep_copy(b, q);
  // b came through the halo exchange: against the rows times x* at every global column (known
  // everywhere), so that a halo delivered wrong fails the run instead of defining its problem.
  const cg::HostRows rows_h = cg::host_rows(m);
  auto hb = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), b);
  std::int64_t b_wrong = cg::rows_off_product(rows_h, [](GlobalIndex g) { return x_star(g); }, hb.data());
  MPI_Allreduce(MPI_IN_PLACE, &b_wrong, 1, MPI_INT64_T, MPI_SUM, comm);
  static const std::string zero_x_label = "desync::cg::zero_x";  // also at each restart below
  compat::labelled_fill(zero_x_label, x, 0.0);
  Kokkos::deep_copy(r, b);
  Kokkos::parallel_for("desync::cg::p0", RowPolicy(0, n), KOKKOS_LAMBDA(std::int32_t i) { p(i) = r(i); });
  double rr = cg::dot(r, r, n);
  MPI_Allreduce(MPI_IN_PLACE, &rr, 1, MPI_DOUBLE, MPI_SUM, comm);
  const double rr0 = rr;
  double xx_star = 0.0;  // ||x*||^2, for the error of each completed solve
  Kokkos::parallel_reduce("desync::cg::x_star_norm", RowPolicy(0, n),
                          KOKKOS_LAMBDA(std::int32_t i, double& acc) { acc += x_star(first + i) * x_star(first + i); }, xx_star);
  MPI_Allreduce(MPI_IN_PLACE, &xx_star, 1, MPI_DOUBLE, MPI_SUM, comm);
  // A solve is complete at ||r|| <= 1e-12 ||b||; CG then restarts from x = 0, so that a long
  // timing run keeps doing a solver's work instead of iterating on residuals that shrink into
  // subnormal numbers (slower arithmetic, unrepresentative timings). The decision uses the
  // allreduced <r, r>, so every rank restarts in the same iteration.
  const double restart_rr = 1e-24 * rr0;
  std::int64_t solves = 0;
  std::int64_t since_restart = 0;  // iterations of the current solve (x = 0 at its start)
  double worst_error = 0.0;  // over completed solves

  const std::int64_t total = cfg.run.warmup + cfg.run.iterations;
  WorkloadResult res(Timeline(cg_event_names(), total, cfg.run.warmup));
  Timeline& tl = res.timeline;
  std::vector<double> residual{std::sqrt(rr0)};
  residual.reserve(static_cast<std::size_t>(total) + 1);
  // What the run is, before the loop: a flush during the run writes it (loop/flush_hook.hpp).
  res.messages = comms.log();
  res.flops_per_iteration = cg_flops_per_iteration(static_cast<double>(n), static_cast<double>(m.nnz));
  add_matrix_share(res, n, m.nnz);
  res.work_phase = "exec";
  res.mpi_phases = {"post", "wait", "pq_allreduce", "rr_allreduce", "sync"};
  res.composites = {{"exec", {"interior", "spmv"}}, {"comm", {"pack", "post", "wait"}}};
  res.partners = halo_partners(plan, 8, 1);
  ExperimentLoop loop(cfg, comm, res, cfg.comm.sync);
  res.stop_signal = loop.run(total, [&](std::int64_t it) {
    tl.mark(it, cg_event::begin);
    spmv(&tl, it);
    double pq = cg::dot(p, q, n);
    tl.mark(it, cg_event::pq_end);
    MPI_Allreduce(MPI_IN_PLACE, &pq, 1, MPI_DOUBLE, MPI_SUM, comm);
    tl.mark(it, cg_event::pq_allreduce_end);
    const double alpha = pq > 0.0 ? rr / pq : 0.0;  // pq = 0 only once r = 0 exactly
    double rr_new = cg::update(x, r, p, q, alpha, n);
    tl.mark(it, cg_event::update_end);
    MPI_Allreduce(MPI_IN_PLACE, &rr_new, 1, MPI_DOUBLE, MPI_SUM, comm);
    tl.mark(it, cg_event::rr_allreduce_end);
    const double beta = rr > 0.0 ? rr_new / rr : 0.0;
    cg::direction(p, r, beta, n);
    tl.mark(it, cg_event::direction_end);
    rr = rr_new;
    ++since_restart;
    residual.push_back(std::sqrt(rr));
    if (rr <= restart_rr) {  // rare: outside the phases, before the delay slot
      double err = 0.0;
      // Built once: Kokkos takes a label as const std::string&, a literal is a new string per launch.
      static const std::string error_label = "desync::cg::error";
      Kokkos::parallel_reduce(error_label, RowPolicy(0, n), KOKKOS_LAMBDA(std::int32_t i, double& acc) {
        const double e = x(i) - x_star(first + i);
        acc += e * e;
      }, err);
      MPI_Allreduce(MPI_IN_PLACE, &err, 1, MPI_DOUBLE, MPI_SUM, comm);
      worst_error = std::max(worst_error, std::sqrt(err / xx_star));
      ++solves;
      compat::labelled_fill(zero_x_label, x, 0.0);
      Kokkos::deep_copy(r, b);
      static const std::string restart_label = "desync::cg::restart";
      Kokkos::parallel_for(restart_label, RowPolicy(0, n), KOKKOS_LAMBDA(std::int32_t i) { p(i) = b(i); });
      ExecSpace().fence();
      rr = rr0;
      since_restart = 0;
    }
  });

  // Verification: the true residual ||b - A x|| against the recurrence's, and the error
  // against x* (asserted once the residual is down to 1e-8 of the start). Up to
  // gathered_check_rows rows A x is computed on the host from x as its owners hold it, so that
  // a halo delivered wrong during the iterations (which the recurrence followed) fails; above,
  // with one more SpMV through the exchange (the local product only is checked).
  // ||b - A x||^2, ||x - x*||^2, ||x*||^2, and from the owners' x: ||x - x*||_A^2 (= (x* - x).(b - A x))
  // and ||x*||_A^2 (= x*.b, the error's A-norm at x = 0).
  double sums[5] = {0, 0, 0, 0, 0};
  auto hx = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), x);
  const std::vector<double> x_owned = gather_owned_values(x, part, comm);
  if (x_owned.empty()) {
    res.verification_scope = fmt::format("{} rows, above {}: the true residual through the workload's own halo "
                                         "exchange, not from x as its owners hold it", gen->rows(), gathered_check_rows);
    Kokkos::deep_copy(Kokkos::subview(p, std::make_pair(std::size_t{0}, static_cast<std::size_t>(n))), x);
    spmv(nullptr, 0);
    auto hq = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), q);
    for (std::int32_t i = 0; i < n; ++i) sums[0] += (hb(i) - hq(i)) * (hb(i) - hq(i));
  } else {
    std::vector<double> toward(static_cast<std::size_t>(n));  // x* - x, row by row
    for (std::int32_t i = 0; i < n; ++i) {
      toward[static_cast<std::size_t>(i)] = x_star(first + i) - hx(i);
      sums[4] += x_star(first + i) * hb(i);
    }
    cg::rows_off_product(rows_h, [&](GlobalIndex g) { return x_owned[static_cast<std::size_t>(g)]; }, hb.data(), &sums[0],
                         toward.data(), &sums[3]);
  }
  {
    for (std::int32_t i = 0; i < n; ++i) {
      const double e = hx(i) - x_star(first + i);
      sums[1] += e * e;
      sums[2] += x_star(first + i) * x_star(first + i);
      res.nonfinite += !std::isfinite(hx(i));
    }
    res.result_fingerprint = fingerprint_bytes(hx.data(), static_cast<std::size_t>(n) * sizeof(double));
    res.result_norm2 = sum_of_squares(hx.data(), static_cast<std::size_t>(n));
    res.has_result_digest = true;
  }
  MPI_Allreduce(MPI_IN_PLACE, sums, 5, MPI_DOUBLE, MPI_SUM, comm);
  // The recurrence's residual of the x verified: after a restart in the last iteration that is
  // x = 0's, ||b||, not the completed solve's last residual (which `residual` keeps).
  const double bnorm = std::sqrt(rr0), true_res = std::sqrt(sums[0]), rec_res = std::sqrt(rr);
  const double error = std::sqrt(sums[1] / sums[2]);
  const bool converged = rec_res <= 1e-8 * bnorm;
  std::string why;
  if (b_wrong > 0)
    why = fmt::format("b = A x* computed through the halo exchange differs from the matrix rows times x* in {} rows "
                      "(a halo delivered wrong)", b_wrong);
  // CG's residual is not monotone, so "it decreased" is only asked of a run of 20 or more
  // iterations without a restart (after a restart the current solve may have just begun).
  else if (!(std::fabs(true_res - rec_res) <= 1e-6 * bnorm))
    why = fmt::format("true residual {:.3e} differs from CG's recurrence {:.3e} (||b|| = {:.3e})", true_res, rec_res, bnorm);
  // CG minimizes the error's A-norm over a growing space: one step from x = 0 lowers it by at
  // least 4 kappa / (1 + kappa)^2 of ||x*||_A^2, far above rounding; updates that did nothing
  // (x = 0, r = b: consistent with the recurrence) fail here, whatever the run's length.
  else if (!x_owned.empty() && since_restart >= 1 && !(sums[3] <= (1.0 - 1e-12) * sums[4]))
    why = fmt::format("the error's A-norm did not decrease in the current solve ({} iterations): ||x - x*||_A^2 = {:.6e}, "
                      "at x = 0 {:.6e}", since_restart, sums[3], sums[4]);
  else if (solves == 0 && res.timeline.iterations() >= 20 && !(rec_res < bnorm))
    why = fmt::format("the residual did not decrease: {:.3e} from {:.3e}", rec_res, bnorm);
  else if (converged && !(error <= 1e-6))
    why = fmt::format("converged (residual {:.1e} of ||b||) but the error against the known solution is {:.3e}", rec_res / bnorm, error);
  else if (!(worst_error <= 1e-6))
    why = fmt::format("a completed solve ended with error {:.3e} against the known solution", worst_error);
  res.extra_verdict = why;
  res.elements_checked = n;

  const double nnz_total = [&] {
    double v = static_cast<double>(m.nnz);
    MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_DOUBLE, MPI_SUM, comm);
    return v;
  }();
  const double rows_total = static_cast<double>(gen->rows());
  res.metrics.push_back({"relative_residual", rec_res / bnorm, "1"});
  res.metrics.push_back({"true_relative_residual", true_res / bnorm, "1"});
  res.metrics.push_back({"relative_error", error, "1"});
  res.metrics.push_back(count_value("solves", solves));
  res.metrics.push_back({"solve_error_max", worst_error, "1"});
  res.metrics.push_back({"flops_per_iteration", cg_flops_per_iteration(rows_total, nnz_total), "flop"});
  {  // miniFE's Gflop/s: the measured iterations' flops over their wall time (the slowest rank's
     // span from its first measured begin to its last end, each on its own clock)
    const std::int64_t done = res.timeline.iterations(), w = res.timeline.warmup();
    double wall =
        done > w ? res.timeline.at(done - 1, cg_event::direction_end) - res.timeline.at(w, cg_event::begin) : 0.0;
    MPI_Allreduce(MPI_IN_PLACE, &wall, 1, MPI_DOUBLE, MPI_MAX, comm);
    const double flops = cg_flops_per_iteration(rows_total, nnz_total) * static_cast<double>(done - w);
    res.metrics.push_back({"gflops", wall > 0 ? 1e-9 * flops / wall : 0.0, "Gflop/s"});
  }
  res.metrics.push_back(count_value("nnz_total", static_cast<std::int64_t>(nnz_total)));
  res.datasets.push_back({"cg", "residual", "1", {residual.size()}, residual, false, false});
  for (double& v : res.datasets.back().values) v /= bnorm;
  return res;
}

}  // namespace desync
