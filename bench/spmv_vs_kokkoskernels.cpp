// desync's SpMV kernels, CRS and SELL-C-sigma, against KokkosKernels' spmv on the same matrix,
// vectors and threads, and against the memory roofline: each kernel's bytes by the code-balance
// model (bench/code_balance.hpp, docs/method.md section 27) over the STREAM triad bandwidth
// measured in the same run with the same threads. Every kernel runs twice: on one thread
// (Kokkos::Serial, against a one-thread triad: the bandwidth one core can always draw) and on
// all threads of the default execution space (against the all-thread triad). On a device build
// (CUDA, HIP) the matrix and vectors live in device memory, which Kokkos::Serial cannot read: the
// one-thread rows are skipped (one line says so) and the one-thread ratios print n/a.
// On a device also CRS with 2 .. 32 vector lanes per row (spmv_lanes.hpp: a GPU's candidate
// mapping, measured beside the thread per row).
//   bench_spmv [--matrix stencil5|spin|topi] [--size N] [--chunk C] [--sigma S] [--reps R]
//     stencil5: the 5-point operator on N x N points (default 4000: 80 M nonzeros, 1.3 GB), near-
//               diagonal columns: the streaming case
//     spin    : the SPIN chain with N sites at half filling (default 24: 2.7 M rows, 35 M
//               nonzeros); columns scatter over the vector
//     topi    : the topological insulator on an N x N x N lattice (default 80: 2 M rows, 27 M nonzeros), magnitudes of its
//               complex values (what the spmv workload multiplies)
#include <fmt/core.h>
#include <mpi.h>

#include <Kokkos_Core.hpp>
#include "kokkos_compat/sparse_spmv.hpp"
#include <array>
#include <cstring>
#include <memory>
#include <string>

#include "bench_util.hpp"
#include "code_balance.hpp"
#include "desync/build_info.hpp"
#include "kokkos_compat/staging_space.hpp"
#include "matrix/local_matrix.hpp"
#include "matrix/rank_pattern.hpp"
#include "matrix/sell_matrix.hpp"
#include "matrix/spin_chain.hpp"
#include "matrix/stencil5.hpp"
#include "matrix/topological_insulator.hpp"
#include "record/memory_domain.hpp"
#include "workloads/spmv/spmv_kernels.hpp"
#include "workloads/spmv/spmv_lanes.hpp"
#include "workloads/spmv/spmv_matrix.hpp"
#include "workloads/spmv/spmv_sell_kernel.hpp"
#include "workloads/triad/triad_kernels.hpp"

namespace {
using namespace desync;

// Whether the one-thread rows can run: Kokkos::Serial is a host space, and the matrix, vectors and
// triad arrays are Views in the default memory space (device memory on a CUDA or HIP build).
constexpr bool one_thread_rows = compat::default_memory_host_accessible;

std::unique_ptr<MatrixGenerator> make(const std::string& kind, long long n, std::string& name) {
  if (kind == "spin") {
    SpinParams sp;
    sp.sites = static_cast<int>(n > 0 ? n : 24);
    sp.up = sp.sites / 2;
    name = fmt::format("SPIN{}", sp.sites);
    return std::make_unique<SpinChain>(sp);
  }
  if (kind == "topi") {
    TopiParams tp;
    const std::int64_t l = n > 0 ? n : 80;
    tp.block = {l, l, l};
    name = fmt::format("TOPI {}^3", l);
    return std::make_unique<TopologicalInsulator>(tp);
  }
  Stencil5Params st;
  st.nx = st.ny = n > 0 ? n : 4000;
  name = fmt::format("5-point {}x{}", st.nx, st.ny);
  return std::make_unique<Stencil5>(st);
}

// CRS with vector lanes per row (workloads/spmv/spmv_lanes.hpp), timed beside the row per thread.
constexpr int lane_counts[] = {2, 4, 8, 16, 32};
constexpr int n_lanes = sizeof(lane_counts) / sizeof(lane_counts[0]);
constexpr std::array<double, n_lanes> filled_with(double v) {
  std::array<double, n_lanes> a{};
  for (double& e : a) e = v;
  return a;
}

struct Timing {
  double crs = 1e300, sell = 1e300, kk = 1e300, triad = 1e300;
  std::array<double, n_lanes> lanes = filled_with(1e300);
};

// Best-of-reps times of every kernel on execution space Space.
template <class Space>
Timing measure(const SplitMatrix& a, const SellMatrix<double>& s, const Vector& x, const Vector& y, const Vector& y_sell,
               const Vector& y_kk, const Vector& y_lanes, Index tm, int reps, bool with_kk) {
  Vector ta("desync::bench::a", tm), tb("desync::bench::b", tm), tc("desync::bench::c", tm), td("desync::bench::d", 0);
  Kokkos::parallel_for("desync::bench::init", RangePolicy(0, tm), triad::Init{ta, tb, tc, td, 0});
  Kokkos::fence();
  const spmv::LocalProduct crs{a.local.row_ptr, a.local.col, a.local.val, x, y};
  const Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int32_t>> rows(0, a.rows);
  Timing t;
  for (int r = 0; r < reps; ++r) {
    t.crs = std::min(t.crs, bench::best_time(1, [&] {
      Kokkos::parallel_for("desync::spmv::local", rows, crs);
      Kokkos::fence();
    }));
    t.sell = std::min(t.sell, bench::best_time(1, [&] {
      spmv::sell_product<Space>(s, x, y_sell, 0, s.chunks);
      Kokkos::fence();
    }));
    // A device's candidates, on a device only: a host's teams of a few threads make a team per
    // few rows, whose start costs more than the rows (and its lanes run in order, i.e. CRS).
    for (int l = 0; l < n_lanes && with_kk && !compat::host_accessible<Space>; ++l) {
      const spmv::LocalProductLanes<Space> f{a.local.row_ptr, a.local.col, a.local.val, x, y_lanes, a.rows};
      const auto policy = spmv::lanes_policy(f, lane_counts[l]);
      t.lanes[l] = std::min(t.lanes[l], bench::best_time(1, [&] {
        Kokkos::parallel_for("desync::spmv::local_lanes", policy, f);
        Kokkos::fence();
      }));
    }
    if (with_kk)
      t.kk = std::min(t.kk, bench::best_time(1, [&] {
        KokkosSparse::spmv("N", 1.0, a.kk_local, x, 0.0, y_kk);
        Kokkos::fence();
      }));
    t.triad = std::min(t.triad, bench::best_time(1, [&] {
      triad::stream_for<Space>("desync::triad::stream", tm, triad::Stream{ta, tb, tc, 3.0});
      Kokkos::fence();
    }));
  }
  return t;
}

std::int64_t differing(const Vector& a, const Vector& b, std::int32_t n) {
  auto ha = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), a);
  auto hb = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), b);
  std::int64_t d = 0;
  // Written as "not within": a NaN on either side differs (a NaN compares false with anything).
  for (std::int32_t i = 0; i < n; ++i) d += !(std::fabs(ha(i) - hb(i)) <= 1e-12 * std::fabs(hb(i)));
  return d;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int status = 0;
  {
    Kokkos::ScopeGuard kokkos(argc, argv);
    std::string kind = "stencil5", name;
    for (int i = 1; i + 1 < argc; ++i)
      if (std::strcmp(argv[i], "--matrix") == 0) kind = argv[i + 1];
    const long long n_arg = bench::arg(argc, argv, "--size", bench::arg(argc, argv, "--grid", 0));
    const int chunk = static_cast<int>(bench::arg(argc, argv, "--chunk", 8));
    const int sigma = static_cast<int>(bench::arg(argc, argv, "--sigma", 32));
    const int reps = static_cast<int>(bench::arg(argc, argv, "--reps", 10));
    const auto g = make(kind, n_arg, name);
    const RowPartition part = partition_by_rows(g->rows(), 1);
    const SplitMatrix a = split_matrix(real_local_matrix(*g, part, 0), true);
    const SellMatrix<double> s = make_sell(a.local.row_ptr, a.local.col, a.local.val, a.rows, chunk, sigma, "desync::bench");
    const std::int32_t n = a.rows;
    Vector x("desync::bench::x", n), y("desync::bench::y", n), y_sell("desync::bench::y_sell", n), y_kk("desync::bench::y_kk", n),
        y_lanes("desync::bench::y_lanes", n);
    Kokkos::deep_copy(x, 1.5);

    bench::SparseShape crs_shape{double(n), double(a.local.nnz), double(a.local.nnz), double(scan_rank(*g, part, 0).bandwidth), 0, 8};
    bench::SparseShape sell_shape = crs_shape;
    sell_shape.stored = static_cast<double>(s.stored);
    sell_shape.chunk = chunk;
    const double l2 = bench::window_cache_bytes();
    const bool once = bench::x_once(crs_shape, 1, l2 > 0 ? l2 : 512.0 * 1024);
    const double b_crs = bench::spmv_bytes_model(crs_shape, 1, once), b_sell = bench::spmv_bytes_model(sell_shape, 1, once);
    const double flops = 2.0 * static_cast<double>(a.local.nnz);
    // triad arrays: the same traffic (32 B per element; 24 on a GPU, bench::store_allocates)
    const auto tm = static_cast<Index>(b_crs / bench::triad_bytes_per_element);

    fmt::print("SpMV benchmark: {} ({} rows, {} nonzeros, {:.1f} per row, bandwidth {}), best of {}\n", name, n, a.local.nnz,
               a.local.nnz / double(n), crs_shape.bandwidth, reps);
    fmt::print("  build: {}\n", desync_build_description);
    fmt::print("  code balance (x {} : window 2 x bandwidth x 8 B {} the {:.0f} KiB L2): CRS {:.2f} B/flop, SELL-{}-{} {:.2f} "
               "B/flop (beta {:.3f}); with x {} instead: CRS {:.2f} B/flop\n",
               once ? "loaded once" : "loaded per nonzero", once ? "fits" : "exceeds", l2 / 1024, b_crs / flops, chunk, sigma,
               b_sell / flops, s.beta(), once ? "per nonzero" : "once", bench::spmv_bytes_model(crs_shape, 1, !once) / flops);
    fmt::print("  {:>8} {:>22} {:>10} {:>9} {:>11} {:>11} {:>12}\n", "threads", "kernel", "time ms", "Gflop/s", "model GB/s",
               "implied GB", "model/triad");
    auto row = [&](int threads, const char* k, double t, double bytes, double bw) {
      fmt::print("  {:>8} {:>22} {:>10.3f} {:>9.2f} {:>11.2f} {:>11.3f} {:>12.3f}\n", threads, k, 1e3 * t, 1e-9 * flops / t,
                 1e-9 * bytes / t, 1e-9 * t * bw, bytes / t / bw);
    };
    double sell_over_crs[2] = {0, 0}, best_over_triad[2] = {0, 0};
    int idx = 0;
    const auto report = [&](int threads, const Timing& t, bool with_kk) {
      const double bw = bench::triad_bytes_per_element * static_cast<double>(tm) / t.triad;
      row(threads, "CRS (desync)", t.crs, b_crs, bw);
      row(threads, fmt::format("SELL-{}-{}", chunk, sigma).c_str(), t.sell, b_sell, bw);
      if (with_kk) row(threads, "CRS (KokkosKernels)", t.kk, b_crs, bw);
      fmt::print("  {:>8} {:>22} {:>10.3f} {:>9} {:>11.2f}\n", threads, "STREAM triad", 1e3 * t.triad, "", 1e-9 * bw);
      if (with_kk && !one_thread_rows)
        for (int l = 0; l < n_lanes; ++l) row(threads, fmt::format("CRS lanes {}", lane_counts[l]).c_str(), t.lanes[l], b_crs, bw);
      sell_over_crs[idx] = t.crs / t.sell;
      best_over_triad[idx] = std::max(b_crs / t.crs, b_sell / t.sell) / bw;
      ++idx;
    };
    if constexpr (one_thread_rows) {
#if defined(KOKKOS_ENABLE_SERIAL)
      const Timing one = measure<Kokkos::Serial>(a, s, x, y, y_sell, y_kk, y_lanes, tm, reps, false);
      report(1, one, false);
#endif
    } else {
      fmt::print("  1-thread rows (Kokkos::Serial): skipped, the matrix and vectors live in device memory ({})\n",
                 MemSpace::name());
    }
    const Timing all = measure<ExecSpace>(a, s, x, y, y_sell, y_kk, y_lanes, tm, reps, true);
    report(ExecSpace().concurrency(), all, true);
    const std::int64_t differ_kk = differing(y, y_kk, n), differ_sell = differing(y, y_sell, n),
                       differ_lanes = one_thread_rows ? 0 : differing(y, y_lanes, n);
    // A one-thread ratio: [0] (the all-threads one where Serial is not built, as always), n/a on a device.
    const auto one_thread = [](double v) { return one_thread_rows ? fmt::format("{:.3f}", v) : std::string("n/a"); };
    fmt::print("  ratio SELL/CRS speed: {} (1 thread), {:.3f} (all threads) (goal >= 1.0)\n", one_thread(sell_over_crs[0]),
               sell_over_crs[idx - 1]);
    fmt::print("  ratio desync CRS/KokkosKernels speed: {:.3f} (goal >= 1.0)\n", all.kk / all.crs);
    fmt::print("  ratio best format/roofline by the model: {} (1 thread, goal >= 0.85), {:.3f} (all threads)\n",
               one_thread(best_over_triad[0]), best_over_triad[idx - 1]);
    fmt::print("  results: {}\n", differ_kk == 0 && differ_sell == 0 && differ_lanes == 0
                                      ? "agree"
                                      : fmt::format("{} rows differ from KokkosKernels, {} from SELL, {} from CRS lanes", differ_kk,
                                                    differ_sell, differ_lanes));
    // Non-zero when they differ: the GPU kit's report and ctest judge a benchmark by its exit code.
    if (differ_kk != 0 || differ_sell != 0 || differ_lanes != 0) status = 1;
  }
  MPI_Finalize();
  return status;
}
