#include "workloads/spmv/spmv.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>

#include "comm/halo_exchange.hpp"
#include "comm/halo_plan.hpp"
#include "loop/fault_injection.hpp"
#include "core/errors.hpp"
#include "core/fingerprint.hpp"
#include "core/mpi_util.hpp"
#include "kokkos_compat/scoped_region.hpp"
#include "matrix/local_matrix.hpp"
#include "matrix/make_generator.hpp"
#include "matrix/row_stream.hpp"
#include "metrics/barrier_bench.hpp"
#include "metrics/desync_speedup.hpp"
#include "metrics/phase_stats.hpp"
#include "workload/halo_metrics.hpp"
#include "loop/experiment_loop.hpp"
#include "workloads/spmv/spmv_state.hpp"
#include "workloads/spmv/spmv_verify.hpp"
#include "workload/halo_partners.hpp"
#include "workload/owned_values.hpp"

namespace desync {
namespace {

KOKKOS_INLINE_FUNCTION double initial_x(GlobalIndex g) { return 1.0 + static_cast<double>(g % 17) / 16.0; }

struct InitX {
  Vector x;
  GlobalIndex first;
  KOKKOS_INLINE_FUNCTION void operator()(std::int32_t i) const { x(i) = initial_x(first + i); }
};

std::uint64_t fingerprint(const Vector& x, std::int32_t rows, std::int64_t* nonfinite = nullptr, double* norm2 = nullptr) {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), x);
  if (nonfinite) *nonfinite = count_nonfinite(h.data(), static_cast<std::size_t>(rows));
  if (norm2) *norm2 = sum_of_squares(h.data(), static_cast<std::size_t>(rows));
  return fingerprint_bytes(h.data(), static_cast<std::size_t>(rows) * sizeof(double));
}

}  // namespace

double spmv_bytes(std::int64_t rows, std::int64_t nnz, std::int64_t halo, bool has_remote) {
  return 12.0 * static_cast<double>(nnz) + 24.0 * static_cast<double>(rows) +
         (has_remote ? 16.0 * static_cast<double>(rows) : 0.0) + 8.0 * static_cast<double>(halo);
}

WorkloadResult run_spmv(const Config& cfg, MPI_Comm comm) {
  compat::ScopedRegion region("desync::spmv");
  const int rank = comm_rank(comm), size = comm_size(comm);
  const auto gen = make_generator(cfg.matrix);
  const bool stochastic = cfg.params.get<SpmvConfig>().values == SpmvValues::stochastic;  // else real (load checked)

  const RowPartition part = make_partition(*gen, cfg.matrix, size);
  LocalMatrix<double> m = real_local_matrix(*gen, part, rank);
  const HaloPlan plan = build_halo_plan(m.halo_columns, part, comm);
  SplitMatrix a = split_matrix(m, stochastic);
  std::optional<SellMatrix<double>> sell;
  if (cfg.matrix.format == MatrixFormat::sell) {
    sell = make_sell(a.local.row_ptr, a.local.col, a.local.val, a.rows, cfg.matrix.sell.chunk, cfg.matrix.sell.sigma,
                     "desync::spmv::local");
    a.local = CrsPart{{}, {}, {}, a.local.nnz};  // the SELL copy is what the kernel reads
    a.kk_local = KkMatrix();
  }
  const std::vector<GlobalIndex> halo_columns = std::move(m.halo_columns);
  const GlobalIndex first = m.first_row;
  const std::int64_t nnz = m.nnz;
  m = LocalMatrix<double>();  // the split copy is what the kernels use
  const Communicators comms(comm, cfg.comm);
  HaloExchange<Vector> halo(plan, a.rows, comms, cfg.comm);
  const auto n = static_cast<std::size_t>(a.rows) + static_cast<std::size_t>(a.halo);
  SpmvState s{a, halo, cfg.params.get<SpmvConfig>().kernel, sell ? &*sell : nullptr, Vector("desync::spmv::x", n), Vector("desync::spmv::y", n)};

  const double barrier = barrier_cost(comm, cfg.params.get<SpmvConfig>().barrier_samples);
  const std::int64_t total = cfg.run.warmup + cfg.run.iterations;
  const bool nonsplit = cfg.params.get<SpmvConfig>().scheme == SpmvScheme::nonsplit;
  const auto iteration = nonsplit ? nonsplit_iteration : split_wait_iteration;
  const auto lost_iteration = nonsplit ? nonsplit_iteration_without_exchange : split_wait_iteration_without_exchange;
  // Returns the stop signal (0: all iterations ran); the timeline keeps the iterations done.
  // A run with a global sync is the "barrier" line of the papers' P_D (section 13).
  const bool synced = cfg.comm.sync != SyncMode::none;
  // rows: the run's result r (whose timeline is tl), or the paired run's timeline (compare_barrier).
  // [[inject]] duration_iterations: the first run's iteration time, which the paired run reuses.
  double t_iter = std::numeric_limits<double>::quiet_NaN();
  auto run_loop = [&](SyncMode sync, Timeline& tl, auto& rows) {
    Kokkos::parallel_for("desync::spmv::init_x", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int32_t>>(0, a.rows),
                         InitX{s.x, first});
    ExperimentLoop loop(cfg, comm, rows, sync);
    if (t_iter > 0.0) loop.use_iteration_time(t_iter);
    // The delay slot after the product, before the next exchange.
    const auto reset = [&] { s.poison_for_check(); };
    const auto work = [&](std::int64_t it) { iteration(s, tl, it); };
    const int signal = test_drop_last_delivery()  // the tests' fault injection: the checked product without its halo
                           ? loop.run_checked(total, reset, work, [&](std::int64_t it) { lost_iteration(s, tl, it); })
                           : loop.run_checked(total, reset, work);
    t_iter = loop.iteration_time();
    return signal;
  };

  WorkloadResult r(Timeline(spmv_event_names(cfg.params.get<SpmvConfig>().scheme), total, cfg.run.warmup));
  // What the run is, before the loop: a flush during the run writes it (loop/flush_hook.hpp).
  r.messages = comms.log();  // the paired run (compare_barrier) records into it too
  r.composites = {{"exec", {"local", "remote"}}, {"comm", {"pack", "post", "wait"}}};
  r.work_phase = "exec";
  add_matrix_share(r, a.rows, nnz);
  r.bytes_per_iteration = spmv_bytes(a.rows, nnz, a.halo, a.remote.nnz > 0);
  if (sell) {
    // The padding is loaded too: 12 B per stored entry instead of per nonzero, 4 B per row for
    // row_of (docs/method.md, section 13).
    add_sell_share(r, sell->stored, sell->beta());
    r.bytes_per_iteration += 12.0 * static_cast<double>(sell->stored - a.local.nnz) + 4.0 * a.rows;
  }
  r.flops_per_iteration = 2.0 * static_cast<double>(nnz);
  r.partners = halo_partners(plan, 8, 1);
  r.stop_signal = run_loop(cfg.comm.sync, r.timeline, r);
  // After the last swap, x holds the last product and y its input (halo included).
  const std::vector<double> owned = gather_owned_values(s.y, part, comm);
  r.element_errors = spmv::count_wrong_rows(*gen, first, a.rows, halo_columns, stochastic, s.x, s.y, owned);
  if (owned.empty())
    r.verification_scope = fmt::format("{} rows, above {}: the last product against the halo as received (the local "
                                       "product only), not against the owners' values",
                                       gen->rows(), gathered_check_rows);
  r.elements_checked = a.rows;
  r.result_fingerprint = fingerprint(s.x, a.rows, &r.nonfinite, &r.result_norm2);
  r.has_result_digest = true;

  // Run-level numbers (docs/method.md, section 13): the halo workloads' shared ones, then its own.
  const HaloTotals halo_t = halo_totals(r, plan, nnz, comm);
  double bytes = 0.0;
  for (const auto& p : plan.recv) bytes += static_cast<double>(HaloPlan::bytes(p, 8, 1));
  const double mean_msg = plan.recv.empty() ? 0.0 : bytes / static_cast<double>(plan.recv.size());
  const auto measured = static_cast<double>(r.timeline.iterations() - r.timeline.warmup());
  const double flops = 2.0 * halo_t.nnz_total * measured;
  const double wall = measured_wall(r.timeline, comm);
  const double perf = wall > 0 ? flops / wall : 0.0;
  r.metrics = {{"gflops", 1e-9 * perf, "Gflop/s"}};
  for (auto& v : halo_metrics(halo_t)) r.metrics.push_back(std::move(v));
  r.metrics.push_back({"msg_bytes_mean", median_over_ranks(mean_msg, comm), "B"});
  if (sell) {
    std::int64_t sc[2] = {a.local.nnz, sell->stored};
    MPI_Allreduce(MPI_IN_PLACE, sc, 2, MPI_INT64_T, MPI_SUM, comm);
    r.metrics.push_back({"sell_beta", sc[1] > 0 ? static_cast<double>(sc[0]) / static_cast<double>(sc[1]) : 1.0, "1"});
  }
  // compare_barrier: the same loop again with the other barrier setting, from the same x (P_D,
  // docs/method.md section 13). Stopped during the paired run: the first run's numbers stand.
  double wall_other = 0.0;
  if (cfg.params.get<SpmvConfig>().compare_barrier && r.stop_signal == 0) {
    Timeline other(spmv_event_names(cfg.params.get<SpmvConfig>().scheme), total, cfg.run.warmup);
    r.stop_signal = run_loop(synced ? SyncMode::none : SyncMode::barrier, other, other);
    if (r.stop_signal == 0) {
      if (fingerprint(s.x, a.rows) != r.result_fingerprint)
        r.extra_verdict = fmt::format("rank {}: the paired run's result differs from the first run's", rank);
      wall_other = measured_wall(other, comm);
    }
  }
  const std::int64_t barriers = syncs_in(cfg.comm.sync_every, r.timeline.iterations() - r.timeline.warmup());
  for (auto& v : barrier_metrics(flops, wall, wall_other, synced, barriers, barrier)) r.metrics.push_back(std::move(v));
  return r;
}

}  // namespace desync
