#include "workloads/matvec2d/matvec2d.hpp"

#include <Kokkos_Core.hpp>
#include <fmt/format.h>

#include <cmath>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "comm/collectives.hpp"
#include "comm/gpu_aware.hpp"
#include "comm/node_layout.hpp"
#include "core/fingerprint.hpp"
#include "core/mpi_util.hpp"
#include "core/types.hpp"
#include "kokkos_compat/labelled_fill.hpp"
#include "kokkos_compat/scoped_region.hpp"
#include "loop/experiment_loop.hpp"
#include "loop/fault_injection.hpp"
#include "workload/active_subset.hpp"
#include "workload/block_cut.hpp"

namespace desync {
namespace {

// A's entries in [0, 2/n): row sums near 1, so y stays of the order of x.
KOKKOS_INLINE_FUNCTION double a_entry(std::int64_t r, std::int64_t c, std::int64_t n, std::uint64_t seed) {
  return 2.0 * unit_hash(static_cast<std::uint64_t>(r), static_cast<std::uint64_t>(c), seed) / static_cast<double>(n);
}
inline double x_entry(std::int64_t c) { return 1.0 + static_cast<double>(c % 7) / 7.0; }

using RowMajor = Kokkos::View<double**, Kokkos::LayoutRight, MemSpace>;

enum family_id : int { row_family = 0, col_family = 1 };

}  // namespace

WorkloadResult run_matvec2d(const Config& cfg, MPI_Comm comm) {
  compat::ScopedRegion region("desync::matvec2d");
  const Matvec2dConfig& c = cfg.params.get<Matvec2dConfig>();
  const NodeLayout l = node_layout(comm, static_cast<int>(cfg.placement.ranks_per_node));
  ActiveRanks act(comm, l, static_cast<int>(cfg.placement.active_ppn));
  const std::int64_t total = cfg.run.warmup + cfg.run.iterations;
  const bool piped = c.pipelined;
  const std::vector<std::string> names =
      piped ? std::vector<std::string>{"begin", "product_end", "reduce_bcast_end", "delay_end", "sync_end"}
            : std::vector<std::string>{"begin", "product_end", "reduce_end", "bcast_end", "delay_end", "sync_end"};
  WorkloadResult r(Timeline(names, total, cfg.run.warmup));
  Timeline& tl = r.timeline;
  // What the run is, before the loop: a flush during the run writes it (loop/flush_hook.hpp).
  r.work_phase = "product";
  r.mpi_phases = piped ? std::vector<std::string>{"reduce_bcast", "sync"} : std::vector<std::string>{"reduce", "bcast", "sync"};
  if (!piped) r.composites.push_back({"comm", {"reduce", "bcast"}});
  ParkRecord park;
  double worst = 0;            // the largest relative error of y, over the active ranks
  int mesh_p = 0, n_dup = 0;   // rank 0's, for every rank
  if (!act.active()) {
    park = act.park();
  } else {
    const int rank = comm_rank(act.comm()), size = comm_size(act.comm());
    const int p = static_cast<int>(std::lround(std::sqrt(size)));
    const int m = rank / p, j = rank % p;  // P_{m,j}
    const BlockCut cut{c.n, p};
    const std::int64_t rm = cut.rows(m), rj = cut.rows(j);
    const int ndup = static_cast<int>(cfg.comm.communicators);  // 1 unless pipelined (checked at load)
    auto row = split_family(act.comm(), m, j, ndup, row_family);  // P_{m,:}, rank j
    auto col = split_family(act.comm(), j, m, ndup, col_family);  // P_{:,j}, rank m
    if (cfg.comm.record_messages)
      r.collectives = std::make_shared<CollectiveLog>(std::min(cfg.comm.record_messages_max, total * 2 * ndup),
                                                      std::vector<std::string>{"row", "column"});
    // [comm] gpu_aware_mpi: staged, MPI gets host mirrors of y_part, y_sum, y_col (registered below).
    Collectives coll(2 * ndup, r.collectives, choose_gpu_aware_mpi(cfg.comm.gpu_aware_mpi).staged);

    // A_{m,j}, x_j; y_part = A_{m,j} x_j; y_m reduced on the diagonal; y_j broadcast down column j.
    const std::uint64_t seed = cfg.run.seed;
    const std::int64_t n = c.n, r0 = cut.first(m), c0 = cut.first(j);
    RowMajor a("desync::matvec2d::A", static_cast<std::size_t>(rm), static_cast<std::size_t>(rj));
    Kokkos::parallel_for("desync::matvec2d::fill", Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<2>>({0, 0}, {rm, rj}),
                         KOKKOS_LAMBDA(std::int64_t a_r, std::int64_t a_c) { a(a_r, a_c) = a_entry(r0 + a_r, c0 + a_c, n, seed); });
    Vector x("desync::matvec2d::x", static_cast<std::size_t>(rj)), part("desync::matvec2d::y_part", static_cast<std::size_t>(rm));
    Vector ysum("desync::matvec2d::y_sum", static_cast<std::size_t>(rm)), ycol("desync::matvec2d::y_col", static_cast<std::size_t>(rj));
    {
      auto h = Kokkos::create_mirror_view(x);
      for (std::int64_t k = 0; k < rj; ++k) h(static_cast<std::size_t>(k)) = x_entry(c0 + k);
      Kokkos::deep_copy(x, h);
    }
    for (const Vector* v : {&part, &ysum, &ycol}) coll.mirror(v->data(), v->size() * sizeof(double));
    const bool diag = m == j;
    double* yb = diag ? ysum.data() : ycol.data();  // the diagonal broadcasts its reduction

    const auto product = [&] {
      // Built once: Kokkos takes a label as const std::string&, a literal is a new string per launch.
      static const std::string product_label = "desync::matvec2d::product";
      Kokkos::parallel_for(product_label, Kokkos::RangePolicy<ExecSpace>(0, rm), KOKKOS_LAMBDA(std::int64_t i) {
        double s = 0;
        for (std::int64_t k = 0; k < rj; ++k) s += a(i, k) * x(k);
        part(i) = s;
      });
      Kokkos::fence();
    };
    const auto blocking = [&](std::int64_t it) {
      coll.reduce(*row, part.data(), ysum.data(), rm, MPI_DOUBLE, m);
      tl.mark(it, 2);
      coll.bcast(*col, yb, rj, MPI_DOUBLE, j);
      tl.mark(it, 3);
    };
    const auto pipelined = [&](std::int64_t it) {
      for (int d = 0; d < ndup; ++d) {
        const Part q = part_of(rm, ndup, d);
        coll.ireduce(*row, d, part.data() + q.offset, ysum.data() + q.offset, q.count, MPI_DOUBLE, m);
      }
      for (int d = 0; d < ndup; ++d) {
        const Part q = part_of(rj, ndup, d);
        if (diag) coll.wait(d);  // this part of y_j is reduced here: pass it on
        coll.ibcast(*col, d, yb + q.offset, q.count, MPI_DOUBLE, j);
      }
      coll.wait_all();
      tl.mark(it, 2);
    };
    const std::function<void(std::int64_t)> communicate =
        piped ? std::function<void(std::int64_t)>(pipelined) : std::function<void(std::int64_t)>(blocking);

    // What the run is, before the loop: a flush during the run writes it (loop/flush_hook.hpp).
    r.flops_per_iteration = 2.0 * static_cast<double>(rm) * static_cast<double>(rj);
    r.bytes_per_iteration = 8.0 * static_cast<double>(rm) * static_cast<double>(rj);
    ExperimentLoop loop(cfg, act.comm(), r, cfg.comm.sync);
    // A and x are the same every iteration, so y is too: the checked (last) iteration starts from
    // NaN, host mirrors included when staged, or a reduction, broadcast or staging copy that
    // delivered nothing there would still pass on an earlier iteration's values. Before the
    // iteration's first mark: outside its phases, in the run's wall time (one fill of y).
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const auto reset = [&] {
      for (const Vector* v : {&ysum, &ycol}) {
        static const std::string poison_label = "desync::matvec2d::poison";
        compat::labelled_fill(poison_label, *v, nan);
        coll.refresh_mirror(v->data(), v->size() * sizeof(double));  // staged: the mirror MPI writes too
      }
    };
    const auto iteration = [&](std::int64_t it, const auto& deliver) {
      tl.mark(it, 0);
      product();
      tl.mark(it, 1);
      deliver(it);
    };
    const auto work = [&](std::int64_t it) { iteration(it, communicate); };
    // The tests' fault injection (loop/fault_injection.hpp): the checked iteration without its
    // collectives, its phases still marked.
    const auto lost = [&](std::int64_t it) {
      iteration(it, [&](std::int64_t i) {
        tl.mark(i, 2);
        if (!piped) tl.mark(i, 3);
      });
    };
    r.stop_signal = test_drop_last_delivery() ? loop.run_checked(total, reset, work, lost) : loop.run_checked(total, reset, work);

    // y_j against a serial product of A's block row j with x.
    auto got = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), ycol);
    if (diag) got = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), ysum);
    std::int64_t wrong = 0;
    for (std::int64_t i = 0; i < rj; ++i) {
      double s = 0;
      for (std::int64_t k = 0; k < n; ++k) s += a_entry(c0 + i, k, n, seed) * x_entry(k);
      const double err = std::abs(got(static_cast<std::size_t>(i)) - s) / std::max(1.0, std::abs(s));
      worst = std::max(worst, err);
      wrong += !(err <= 1e-12);
      r.nonfinite += !std::isfinite(got(static_cast<std::size_t>(i)));
    }
    r.elements_checked = rj;
    r.element_errors = wrong;
    r.result_fingerprint = fingerprint_bytes(got.data(), static_cast<std::size_t>(rj) * sizeof(double));
    r.result_norm2 = sum_of_squares(got.data(), static_cast<std::size_t>(rj));
    r.has_result_digest = true;
    MPI_Allreduce(MPI_IN_PLACE, &worst, 1, MPI_DOUBLE, MPI_MAX, act.comm());
    mesh_p = p;
    n_dup = ndup;
  }
  finish_active_subset(r, comm, act, l, static_cast<int>(cfg.placement.active_ppn), park);
  MPI_Bcast(&worst, 1, MPI_DOUBLE, 0, comm);
  MPI_Bcast(&mesh_p, 1, MPI_INT, 0, comm);
  MPI_Bcast(&n_dup, 1, MPI_INT, 0, comm);
  r.metrics.push_back({"max_relative_error", worst, "1"});
  r.metrics.push_back(count_value("mesh_p", mesh_p));
  r.metrics.push_back(count_value("n_dup", n_dup));
  return r;
}

MemoryEstimate matvec2d_memory(const Config& cfg, int, int size) {
  const double p = std::max(1.0, std::floor(std::sqrt(static_cast<double>(size)) + 0.5));
  const double b = std::ceil(static_cast<double>(cfg.params.get<Matvec2dConfig>().n) / p);
  MemoryEstimate m;
  m.knobs = fmt::format("[matvec2d] n = {}", cfg.params.get<Matvec2dConfig>().n);
  m.add("block of A", 8.0 * b * b);
  m.add("vectors", 4 * 8.0 * b);
  m.add("timeline", Timeline::bytes_estimate(cfg.run.warmup + cfg.run.iterations));
  return m;
}

}  // namespace desync
