// desync's CRS SpMV kernel against KokkosKernels' spmv on the same matrix, vectors and threads,
// and against the memory-bandwidth roofline: bytes moved by one product (12 per nonzero + 24 per
// row, docs/method.md section 13) over the bandwidth of desync's STREAM triad on arrays of the
// same total size, measured in the same run.
//   bench_spmv [--sites L] [--grid N] [--reps R]
//     --sites L : SPIN chain, L sites at half filling (26: 145 M nonzeros, 1.8 GB of CRS, ~4x this
//                 machine's L3); its columns scatter over the whole vector (latency-bound gathers)
//     --grid N  : instead, the 5-point stencil on N x N points (default 4000: 80 M nonzeros,
//                 1.3 GB), near-diagonal columns: the streaming case the roofline describes
#include <fmt/core.h>
#include <mpi.h>

#include <Kokkos_Core.hpp>
#include <KokkosSparse_spmv.hpp>

#include "bench_util.hpp"
#include "matrix/local_matrix.hpp"
#include "matrix/spin_chain.hpp"
#include "matrix/stencil5.hpp"
#include "spmv/spmv.hpp"
#include "spmv/spmv_kernels.hpp"
#include "spmv/spmv_matrix.hpp"
#include "triad/triad_kernels.hpp"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  {
    Kokkos::ScopeGuard kokkos(argc, argv);
    using namespace desync;
    const int sites = static_cast<int>(bench::arg(argc, argv, "--sites", 0));
    const int reps = static_cast<int>(bench::arg(argc, argv, "--reps", 10));
    std::unique_ptr<MatrixGenerator> g;
    std::string name;
    if (sites > 0) {
      SpinParams sp;
      sp.sites = sites;
      sp.up = sites / 2;
      g = std::make_unique<SpinChain>(sp);
      name = fmt::format("SPIN{}", sites);
    } else {
      Stencil5Params st;
      st.nx = st.ny = bench::arg(argc, argv, "--grid", 4000);
      g = std::make_unique<Stencil5>(st);
      name = fmt::format("5-point {}x{}", st.nx, st.ny);
    }
    const SplitMatrix a = split_matrix(build_local_matrix<double>(*g, partition_by_rows(g->rows(), 1), 0), true);
    const std::int32_t n = a.rows;
    Vector x("desync::bench::x", n), y("desync::bench::y", n), y_kk("desync::bench::y_kk", n);
    Kokkos::deep_copy(x, 1.5);
    const Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int32_t>> rows(0, n);
    const spmv::LocalProduct own{a.local.row_ptr, a.local.col, a.local.val, x, y};

    const double bytes = spmv_bytes(n, a.local.nnz, 0, false);
    // Triad arrays sized to the same traffic: 32 B per element with write-allocate.
    const auto m = static_cast<Index>(bytes / 32.0);
    Vector ta("desync::bench::a", m), tb("desync::bench::b", m), tc("desync::bench::c", m), td("desync::bench::d", 0);
    Kokkos::parallel_for("desync::bench::init", RangePolicy(0, m), triad::Init{ta, tb, tc, td, 0});
    Kokkos::fence();

    double t_own = 1e300, t_kk = 1e300, t_triad = 1e300;
    for (int r = 0; r < reps; ++r) {
      t_own = std::min(t_own, bench::best_time(1, [&] {
        Kokkos::parallel_for("desync::spmv::local", rows, own);
        Kokkos::fence();
      }));
      t_kk = std::min(t_kk, bench::best_time(1, [&] {
        KokkosSparse::spmv("N", 1.0, a.kk_local, x, 0.0, y_kk);
        Kokkos::fence();
      }));
      t_triad = std::min(t_triad, bench::best_time(1, [&] {
        Kokkos::parallel_for("desync::triad::stream", RangePolicy(0, m), triad::Stream{ta, tb, tc, 3.0});
        Kokkos::fence();
      }));
    }
    auto h_own = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y);
    auto h_kk = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y_kk);
    std::int64_t differ = 0;
    for (std::int32_t i = 0; i < n; ++i) differ += std::fabs(h_own(i) - h_kk(i)) > 1e-12 * std::fabs(h_kk(i));
    const double bw_triad = 32.0 * static_cast<double>(m) / t_triad;
    fmt::print("SpMV benchmark: {} ({} rows, {} nonzeros, {:.2f} GB moved per product), {} threads, best of {}\n",
               name, n, a.local.nnz, 1e-9 * bytes, Kokkos::DefaultExecutionSpace().concurrency(), reps);
    fmt::print("  desync CRS kernel : {:8.3f} ms  {:6.2f} Gflop/s  {:6.2f} GB/s\n", 1e3 * t_own,
               2e-9 * static_cast<double>(a.local.nnz) / t_own, 1e-9 * bytes / t_own);
    fmt::print("  KokkosKernels spmv: {:8.3f} ms  {:6.2f} Gflop/s\n", 1e3 * t_kk, 2e-9 * static_cast<double>(a.local.nnz) / t_kk);
    fmt::print("  STREAM triad      : {:8.3f} ms  {:6.2f} GB/s (roofline bandwidth)\n", 1e3 * t_triad, 1e-9 * bw_triad);
    fmt::print("  ratio desync/KokkosKernels speed: {:.3f} (goal >= 1.0)\n", t_kk / t_own);
    fmt::print("  ratio desync/roofline: {:.3f} (goal >= 0.85)\n", (bytes / t_own) / bw_triad);
    fmt::print("  results: {}\n", differ == 0 ? "agree" : fmt::format("{} rows differ", differ));
  }
  MPI_Finalize();
  return 0;
}
