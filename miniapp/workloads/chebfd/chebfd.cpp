#include "workloads/chebfd/chebfd.hpp"
#include "workload/halo_metrics.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "comm/halo_plan.hpp"
#include "core/errors.hpp"
#include "core/fingerprint.hpp"
#include "core/mpi_util.hpp"
#include "kokkos_compat/scoped_region.hpp"
#include "matrix/local_matrix.hpp"
#include "matrix/make_generator.hpp"
#include "metrics/barrier_bench.hpp"
#include "metrics/desync_speedup.hpp"
#include "metrics/phase_stats.hpp"
#include "workloads/chebfd/chebfd_bounds.hpp"
#include "workloads/chebfd/chebfd_filter.hpp"
#include "workloads/chebfd/chebfd_reference.hpp"
#include "workload/halo_partners.hpp"

namespace desync {
namespace chebfd {

double flops_per_step(bool complex, double rows, double nnz, int nb) {
  return nb * ((complex ? 8.0 : 2.0) * nnz + (complex ? 42.0 : 11.0) * rows);
}

double bytes_per_step(bool complex, double rows, double nnz, int nb) {
  const double sd = complex ? 16.0 : 8.0;
  return nnz * (sd + 4.0) + 5.0 * nb * sd * rows;
}

namespace {

// Host-side modulus of either scalar (Kokkos 3.4 has no overloads for double).
inline double mod(double v) { return std::fabs(v); }
inline double mod(const Complex& v) { return std::hypot(v.real(), v.imag()); }

template <class T>
std::vector<std::complex<double>> gather_x(const Filter<T>& f, const ChebfdConfig& c, GlobalIndex nr, MPI_Comm comm) {
  const int size = comm_size(comm);
  constexpr int d = sizeof(T) / sizeof(double);
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), f.x);
  const int mine = f.rows * static_cast<int>(c.nb) * d;
  std::vector<int> counts(static_cast<std::size_t>(size)), displs(static_cast<std::size_t>(size), 0);
  MPI_Allgather(&mine, 1, MPI_INT, counts.data(), 1, MPI_INT, comm);
  for (int r = 1; r < size; ++r) displs[r] = displs[r - 1] + counts[r - 1];
  const std::size_t block = static_cast<std::size_t>(nr) * c.nb;
  std::vector<double> all(comm_rank(comm) == 0 ? block * d : 0);
  std::vector<std::complex<double>> out(comm_rank(comm) == 0 ? block * (c.ns / c.nb) : 0);
  for (std::int64_t b = 0; b < c.ns / c.nb; ++b) {
    const double* src = reinterpret_cast<const double*>(h.data()) + static_cast<std::size_t>(b) * mine;
    MPI_Gatherv(src, mine, MPI_DOUBLE, all.data(), counts.data(), displs.data(), MPI_DOUBLE, 0, comm);
    if (comm_rank(comm) == 0)
      for (std::size_t e = 0; e < block; ++e)
        out[b * block + e] = std::complex<double>(all[e * d], d == 2 ? all[e * d + 1] : 0.0);
  }
  return out;
}

// The bits of the filtered block (real or complex) and their sum of squares.
template <class T>
std::uint64_t fingerprint(const Values<T>& x, double& norm2) {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), x);
  const std::size_t doubles = h.extent(0) * sizeof(T) / sizeof(double);
  norm2 = sum_of_squares(reinterpret_cast<const double*>(h.data()), doubles);
  return fingerprint_bytes(h.data(), h.extent(0) * sizeof(T));
}

template <class T>
WorkloadResult run(const Config& cfg, const MatrixGenerator& gen, MPI_Comm comm) {
  const ChebfdConfig& c = cfg.params.get<ChebfdConfig>();
  const int size = comm_size(comm), rank = comm_rank(comm);
  const RowPartition part = make_partition(gen, cfg.matrix, size);
  LocalMatrix<T> m = build_local_matrix<T>(gen, part, rank);
  const HaloPlan plan = build_halo_plan(m.halo_columns, part, comm);
  const auto [lo, hi] = c.bounds == ChebfdBounds::lanczos ? lanczos_bounds(m, plan, static_cast<int>(c.lanczos_steps), comm, cfg.comm)
                                                         : gershgorin_bounds(m, comm);
  const Scaling s = scaling(lo, hi);
  const std::vector<double> gc = damped_coefficients(static_cast<int>(c.np), s, c.lambda_min, c.lambda_max);
  const std::int64_t nnz = m.nnz;
  const Communicators comms(comm, cfg.comm);
  Filter<T> f(std::move(m), plan, c, s, gc, comms, cfg.comm,
              cfg.matrix.format == MatrixFormat::sell ? &cfg.matrix.sell : nullptr);

  const std::int64_t total = f.iterations();
  WorkloadResult r(Timeline(event_names(c.scheme), total, cfg.run.warmup));  // warm-up resolved at load (< total)
  constexpr bool complex = std::is_same_v<T, Complex>;
  // What the run is, before the loop: a flush during the run writes it (loop/flush_hook.hpp).
  r.messages = comms.log();
  const bool split = c.scheme == ChebfdScheme::splitwait;
  r.composites = {{"exec", split ? std::vector<std::string>{"local", "remote"} : std::vector<std::string>{"fused"}},
                  {"comm", {"pack", "post", "wait"}}};
  r.work_phase = "exec";
  add_matrix_share(r, f.rows, nnz);
  if (f.sell()) add_sell_share(r, f.sell()->stored, f.sell()->beta());
  const int nb = static_cast<int>(c.nb);
  const double per_it = c.scheme == ChebfdScheme::pipeline ? static_cast<double>(c.ns / c.nb) : 1.0;
  r.bytes_per_iteration = per_it * bytes_per_step(complex, f.rows, static_cast<double>(nnz), nb);
  r.flops_per_iteration = per_it * flops_per_step(complex, f.rows, static_cast<double>(nnz), nb);
  if (f.sell())  // the padding is loaded too, and a 4-byte row index per row (docs/method.md, section 15)
    r.bytes_per_iteration += per_it * ((complex ? 20.0 : 12.0) * static_cast<double>(f.sell()->stored - f.sell()->nnz) + 4.0 * f.rows);
  r.partners = halo_partners(plan, static_cast<int>(sizeof(T)), nb);
  // The barrier's cost from the micro-benchmark, before the loop, for a run with a barrier or a pair.
  const bool synced = cfg.comm.sync != SyncMode::none;
  const double barrier = synced || c.compare_barrier ? barrier_cost(comm, c.barrier_samples) : 0.0;
  double t_iter = 0.0;  // [[inject]] duration_iterations: the first run's, reused by the paired run
  {
    ExperimentLoop loop(cfg, comm, r, cfg.comm.sync);
    r.stop_signal = f.run(r.timeline, loop);
    t_iter = loop.iteration_time();
  }

  // Verification (docs/method.md section 15): the moments and the reference need every degree.
  std::string why;
  if (r.stop_signal != 0) {
    r.verification_skipped = fmt::format("the filter stopped after {} of {} degree steps", r.timeline.iterations(), total);
  } else {
    r.element_errors = check_moment_invariants(f.moments, why);
    r.elements_checked = static_cast<std::int64_t>(f.moments.mu.size());
  }
  if (r.stop_signal == 0 && gen.rows() <= c.verify_rows) {
    const auto x_all = gather_x(f, c, gen.rows(), comm);
    if (rank == 0) {
      std::string ref_why;
      const std::int64_t bad = compare_with_reference(gen, c, s, gc, x_all, f.moments, ref_why);
      r.element_errors += bad;
      r.elements_checked += static_cast<std::int64_t>(x_all.size());
      if (why.empty()) why = ref_why;
    }
  }
  if (r.stop_signal == 0 && gen.rows() > c.verify_rows)
    r.verification_scope = fmt::format("{} rows, above [chebfd] verify_rows = {}: no comparison with the serial reference, "
                                       "the moments' invariants only", gen.rows(), c.verify_rows);
  if (r.element_errors > 0) r.extra_verdict = fmt::format("rank {}: ChebFD check failed: {}", rank, why);
  r.result_fingerprint = fingerprint(f.x, r.result_norm2);
  r.has_result_digest = true;

  // Run-level numbers (docs/method.md, section 15): the halo workloads' shared ones, then its own.
  const HaloTotals halo_t = halo_totals(r, plan, nnz, comm);
  double sums[1] = {0.0};
  auto hx = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), f.x);
  for (std::size_t e = 0; e < hx.extent(0); ++e) sums[0] += mod(hx(e)) * mod(hx(e));
  r.nonfinite = count_nonfinite(reinterpret_cast<const double*>(hx.data()), hx.extent(0) * sizeof(T) / sizeof(double));
  MPI_Allreduce(MPI_IN_PLACE, sums, 1, MPI_DOUBLE, MPI_SUM, comm);
  const double nnz_total = halo_t.nnz_total;
  const double nr = static_cast<double>(gen.rows());
  const double measured = static_cast<double>(total - r.timeline.warmup());
  const double flops = measured * per_it * flops_per_step(complex, nr, nnz_total, nb);
  const double bytes = measured * per_it * bytes_per_step(complex, nr, nnz_total, nb);
  const double wall = measured_wall(r.timeline, comm);
  r.metrics = {{"gflops", wall > 0 ? 1e-9 * flops / wall : 0.0, "Gflop/s"},
               {"bandwidth", wall > 0 ? 1e-9 * bytes / wall : 0.0, "GB/s"},
               {"code_balance", bytes_per_step(complex, nr, nnz_total, nb) / flops_per_step(complex, nr, nnz_total, nb), "B/flop"},
               {"bytes_per_degree", (c.ns / c.nb) * bytes_per_step(complex, nr, nnz_total, nb), "B"},
               {"flops_per_degree", (c.ns / c.nb) * flops_per_step(complex, nr, nnz_total, nb), "flop"},
               {"spectrum_lower_bound", lo, "1"},
               {"spectrum_upper_bound", hi, "1"},
               {"x_norm2", sums[0], "1"}};
  for (auto& v : halo_metrics(halo_t)) r.metrics.push_back(std::move(v));

  // compare_barrier: the filter again with the other barrier setting (P_D, docs/method.md section
  // 13); the same start vectors, so the same x. Stopped during the paired run: the first run's
  // numbers stand, P_D is not reported.
  double wall_other = 0.0;
  if (c.compare_barrier && r.stop_signal == 0) {
    const std::uint64_t first_x = r.result_fingerprint;
    Timeline other(event_names(c.scheme), total, cfg.run.warmup);
    ExperimentLoop loop(cfg, comm, other, synced ? SyncMode::none : SyncMode::barrier);
    if (t_iter > 0.0) loop.use_iteration_time(t_iter);
    r.stop_signal = f.run(other, loop);
    if (r.stop_signal == 0) {
      double unused = 0.0;
      if (fingerprint(f.x, unused) != first_x)
        r.extra_verdict = fmt::format("rank {}: the paired run's filtered block differs from the first run's", rank);
      wall_other = measured_wall(other, comm);
    }
  }
  if (synced || c.compare_barrier)
    for (auto& v : barrier_metrics(flops, wall, wall_other, synced, syncs_in(cfg.comm.sync_every, total - r.timeline.warmup()), barrier))
      r.metrics.push_back(std::move(v));
  return r;
}

}  // namespace
}  // namespace chebfd

WorkloadResult run_chebfd(const Config& cfg, MPI_Comm comm) {
  compat::ScopedRegion region("desync::chebfd");
  const auto gen = make_generator(cfg.matrix);
  return gen->is_complex() ? chebfd::run<Complex>(cfg, *gen, comm) : chebfd::run<double>(cfg, *gen, comm);
}

}  // namespace desync
