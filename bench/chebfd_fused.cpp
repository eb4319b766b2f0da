// ChebFD's fused degree step, on CRS and on SELL-C-sigma, against the same step composed of
// separate KokkosKernels calls (spmv on the block, axpy, two block dots, axpy) on the same matrix,
// blocks and threads, and against the memory roofline: the step's bytes by the code-balance model
// (bench/code_balance.hpp, docs/method.md section 27) over the STREAM triad bandwidth measured in
// the same run with the same threads. The fused kernels run on one thread (Kokkos::Serial, against
// a one-thread triad) and on all threads; the composed step on all threads (KokkosKernels is
// instantiated for the default execution space only). Matrix: the 5-point operator, sized per
// block width so that matrix plus three blocks take about 1.2 GB (2.5x this machine's L3).
// On a device build (CUDA, HIP) the matrix and blocks live in device memory, which Kokkos::Serial
// cannot read: the one-thread rows are skipped (one line says so), the rest runs on the device.
// --launch-sweep 1 adds, per block width, the CRS step under other launch shapes of the element
// mapping (chebfd_launch_sweep.hpp), against the same roof.
//   bench_chebfd [--bytes B] [--reps R] [--chunk C] [--sigma S] [--nb N] [--launch-sweep 1]
#include <fmt/core.h>
#include <mpi.h>

#include <Kokkos_Core.hpp>
#include <cmath>
#include <string>
#include <vector>

#include "bench_util.hpp"
#include "chebfd_composed.hpp"
#include "chebfd_launch_sweep.hpp"
#include "code_balance.hpp"
#include "desync/build_info.hpp"
#include "kokkos_compat/staging_space.hpp"
#include "matrix/local_matrix.hpp"
#include "matrix/sell_matrix.hpp"
#include "matrix/stencil5.hpp"
#include "workloads/chebfd/chebfd.hpp"
#include "workloads/chebfd/chebfd_element_kernels.hpp"
#include "workloads/chebfd/chebfd_kernels.hpp"
#include "workloads/chebfd/chebfd_sell_kernels.hpp"
#include "record/memory_domain.hpp"
#include "workloads/spmv/spmv_matrix.hpp"
#include "workloads/triad/triad_kernels.hpp"

namespace {
using namespace desync;

// Whether the one-thread rows can run: Kokkos::Serial is a host space, and the matrix, blocks and
// triad arrays are Views in the default memory space (device memory on a CUDA or HIP build).
constexpr bool one_thread_rows = compat::default_memory_host_accessible;

struct Times {
  double crs = 1e300, sell = 1e300, triad = 1e300;
  double crs_item = 1e300, sell_item = 1e300;  // a device's kernels under the host's mapping (an item per thread)
};

struct Result {
  Times one, all;
  double t_kk = 1e300, bytes_crs = 0, bytes_sell = 0, flops = 0, beta = 1;
  std::vector<bench::LaunchPoint> shapes;  // --launch-sweep
};

template <class Space>
Times fused_times(const chebfd::Fused<double, false>& f, const SellMatrix<double>& s, int nb, const chebfd::Step& st,
                  Index tm, int reps) {
  Vector ta("desync::bench::a", tm), tb("desync::bench::b", tm), tc("desync::bench::c", tm), td("desync::bench::d", 0);
  Kokkos::parallel_for("desync::bench::init", RangePolicy(0, tm), triad::Init{ta, tb, tc, td, 0});
  Kokkos::fence();
  // The kernels as the workload runs them: on a device an element (row, column) per thread
  // (chebfd_element_kernels.hpp), on the host a row per thread; the sums where each mapping
  // leaves them (device memory for the element mapping), as the workload keeps them.
  constexpr bool device = chebfd::block_mapping_for<Space> == chebfd::BlockMapping::element_per_thread;
  const Kokkos::View<double*, chebfd::SumsMemory<Space, chebfd::block_mapping_for<Space>>> sums_view("desync::bench::sums", f.value_count);
  std::vector<double> item_sums(f.value_count), scratch(f.value_count);
  double* const sums = sums_view.data();
  chebfd::ColumnSums<Space> cs;
  if constexpr (device) cs = chebfd::ColumnSums<Space>(nb, 1);
  const auto rows = static_cast<std::int64_t>(f.row_ptr.extent(0)) - 1;
  Times t;
  for (int k = 0; k < reps; ++k) {
    t.crs = std::min(t.crs, bench::best_time(1, [&] {
      chebfd::fused_rows<Space>("desync::chebfd::fused", 0, rows, f, cs, sums, scratch.data());
      Kokkos::fence();
    }));
    t.sell = std::min(t.sell, bench::best_time(1, [&] {
      chebfd::fused_chunks<double, false, Space>("desync::chebfd::fused", 0, s.chunks, s, f.value_count, f.u, f.w, f.x, 0, nb, st,
                                                 cs, sums, scratch.data());
      Kokkos::fence();
    }));
    if constexpr (device) {  // the host mapping on the device, for the comparison
      t.crs_item = std::min(t.crs_item, bench::best_time(1, [&] {
        chebfd::fused_rows<Space, chebfd::BlockMapping::item_per_thread>("desync::chebfd::fused_item", 0, rows, f, cs, item_sums.data(),
                                                                         scratch.data());
        Kokkos::fence();
      }));
      t.sell_item = std::min(t.sell_item, bench::best_time(1, [&] {
        chebfd::fused_chunks<double, false, Space, chebfd::BlockMapping::item_per_thread>(
            "desync::chebfd::fused_item", 0, s.chunks, s, f.value_count, f.u, f.w, f.x, 0, nb, st, cs, item_sums.data(), scratch.data());
        Kokkos::fence();
      }));
    }
    t.triad = std::min(t.triad, bench::best_time(1, [&] {
      triad::stream_for<Space>("desync::triad::stream", tm, triad::Stream{ta, tb, tc, 3.0});
      Kokkos::fence();
    }));
  }
  t.triad = bench::triad_bytes_per_element * static_cast<double>(tm) / t.triad;  // now a bandwidth
  return t;
}

// The one-thread rows (Kokkos::Serial), where they can run. A template, so that a device build
// discards the branch without instantiating every Serial-space kernel (a discarded branch of a
// plain function is still compiled).
template <bool HostMemory = one_thread_rows>
Times one_thread_times(const chebfd::Fused<double, false>& f, const SellMatrix<double>& s, int nb, const chebfd::Step& st,
                       Index tm, int reps) {
#if defined(KOKKOS_ENABLE_SERIAL)
  if constexpr (HostMemory) return fused_times<Kokkos::Serial>(f, s, nb, st, tm, reps);
#endif
  return Times{};
}

Result measure(int nb, double budget, int reps, int chunk, int sigma, bool sweep) {
  const auto rows_wanted = budget / (60.0 + 24.0 * nb);
  Stencil5Params sp;
  sp.nx = sp.ny = static_cast<std::int64_t>(std::sqrt(rows_wanted));
  const Stencil5 g(sp);
  const LocalMatrix<double> m = build_local_matrix<double>(g, partition_by_rows(g.rows(), 1), 0);
  const SplitMatrix a = split_matrix(m, false);
  const SellMatrix<double> s = make_sell(m.row_ptr, m.col, m.val, m.rows, chunk, sigma, "desync::bench");
  const std::int32_t n = m.rows;
  const auto len = static_cast<std::size_t>(n) * nb;

  // Fused: row-major blocks, one pass, dots as an array reduction.
  Values<double> u("desync::bench::u", len), w("desync::bench::w", len), x("desync::bench::x", len);
  Kokkos::deep_copy(u, 0.5);
  const chebfd::Step st{2 * 0.1, 2 * 0.05, 0.01, 0.0};
  const chebfd::Fused<double, false> fused{static_cast<unsigned>(2 * nb), m.row_ptr, m.col, m.val, u, w, x, 0, nb, st};

  // The 5-point operator's bandwidth is nx: its window of u fits a core's L2 for these sizes.
  bench::SparseShape shape{double(n), double(m.nnz), double(m.nnz), double(sp.nx), 0, 8};
  const double l2 = bench::window_cache_bytes();
  const bool once = bench::x_once(shape, nb, l2 > 0 ? l2 : 512.0 * 1024);
  Result r;
  r.bytes_crs = bench::fused_bytes_model(shape, nb, once);
  shape.stored = static_cast<double>(s.stored);
  shape.chunk = chunk;
  r.bytes_sell = bench::fused_bytes_model(shape, nb, once);
  r.flops = chebfd::flops_per_step(false, n, static_cast<double>(m.nnz), nb);
  r.beta = s.beta();
  const auto tm = static_cast<Index>(r.bytes_crs / bench::triad_bytes_per_element);

  r.one = one_thread_times(fused, s, nb, st, tm, reps);
  r.all = fused_times<ExecSpace>(fused, s, nb, st, tm, reps);
  r.t_kk = bench::composed_step_time(a.kk_local, n, nb, reps);
  if (sweep) r.shapes = bench::sweep_launch_shapes(fused, reps);
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  {
    Kokkos::ScopeGuard kokkos(argc, argv);
    const double budget = static_cast<double>(bench::arg(argc, argv, "--bytes", 1'200'000'000));
    const int reps = static_cast<int>(bench::arg(argc, argv, "--reps", 5));
    const int chunk = static_cast<int>(bench::arg(argc, argv, "--chunk", 8));
    const int sigma = static_cast<int>(bench::arg(argc, argv, "--sigma", 32));
    const int threads = Kokkos::DefaultExecutionSpace().concurrency();
    fmt::print("ChebFD fused-kernel benchmark: 5-point matrix, real, {}{} threads, best of {}, SELL-{}-{}\n",
               one_thread_rows ? "1 and " : "", threads, reps, chunk, sigma);
    fmt::print("  build: {}\n", desync_build_description);
    if constexpr (!one_thread_rows)
      fmt::print("  1-thread rows (Kokkos::Serial): skipped, the matrix and blocks live in device memory ({})\n", MemSpace::name());
    fmt::print("  {:>4} {:>8} {:>10} {:>10} {:>12} {:>15} {:>15} {:>12} {:>12}\n", "nb", "threads", "CRS GF/s", "SELL GF/s",
               "composed GF/s", "CRS/composed", "SELL/composed", "CRS/roof", "SELL/roof");
    // --nb N: that block width only (e.g. for callgrind's instruction counts, docs/method.md section 27)
    const int only = static_cast<int>(bench::arg(argc, argv, "--nb", 0));
    const bool sweep = bench::arg(argc, argv, "--launch-sweep", 0) != 0;
    const std::vector<int> widths = only > 0 ? std::vector<int>{only} : std::vector<int>{1, 4, 16, 32};
    for (int nb : widths) {
      const Result r = measure(nb, budget, reps, chunk, sigma, sweep);
      const auto line = [&](int th, const Times& t, bool composed) {
        const std::string kk = composed ? fmt::format("{:.2f}", 1e-9 * r.flops / r.t_kk) : "-";
        const std::string c1 = composed ? fmt::format("{:.2f}", r.t_kk / t.crs) : "-";
        const std::string c2 = composed ? fmt::format("{:.2f}", r.t_kk / t.sell) : "-";
        fmt::print("  {:>4} {:>8} {:>10.2f} {:>10.2f} {:>12} {:>15} {:>15} {:>12.3f} {:>12.3f}\n", nb, th, 1e-9 * r.flops / t.crs,
                   1e-9 * r.flops / t.sell, kk, c1, c2, r.bytes_crs / t.crs / t.triad, r.bytes_sell / t.sell / t.triad);
      };
      if constexpr (one_thread_rows) {
#if defined(KOKKOS_ENABLE_SERIAL)
        line(1, r.one, false);
#endif
      }
      line(threads, r.all, true);
      if (r.all.crs_item < 1e300)
        fmt::print("  {:>4} {:>8} item per thread (the host mapping, before issue 32): CRS/roof {:.3f}, SELL/roof {:.3f}; "
                   "element per thread is {:.2f}x / {:.2f}x faster\n",
                   nb, threads, r.bytes_crs / r.all.crs_item / r.all.triad, r.bytes_sell / r.all.sell_item / r.all.triad,
                   r.all.crs_item / r.all.crs, r.all.sell_item / r.all.sell);
      // The first shape is the workload's; the rest against it (same run, same roof).
      for (const bench::LaunchPoint& p : r.shapes) {
        const std::string asked = p.team_threads > 0 ? std::to_string(p.team_threads) : "default";
        if (p.seconds <= 0) {
          fmt::print("  launch nb {} team {} waves {} depth {} columns {}: refused ({})\n", nb, asked, p.waves, p.depth, p.columns,
                     p.refused);
          continue;
        }
        // n/a: the workload's own shape was refused here (a host with fewer threads than nb)
        const double front = r.shapes.front().seconds;
        const std::string vs = front > 0 ? fmt::format("{:.2f}", front / p.seconds) : std::string("n/a ");
        fmt::print("  launch nb {} team {} waves {} depth {} columns {}: CRS/roof {:.3f} ({}x the workload's shape; {} teams of {})\n", nb,
                   asked, p.waves, p.depth, p.columns, r.bytes_crs / p.seconds / r.all.triad, vs, p.teams, p.team);
      }
    }
    fmt::print("  roof: the step's bytes by the code-balance model over the triad bandwidth with the same threads\n");
    fmt::print("  goals: fused/composed >= 1.5 at nb = 1, >= 2 at nb >= 4; one thread: fused/roof >= 0.8\n");
  }
  MPI_Finalize();
  return 0;
}
