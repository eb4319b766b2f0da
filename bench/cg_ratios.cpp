// The CG's kernels (workloads/cg/cg_kernels.hpp) on the miniFE-like matrix, side by side in one run:
//   - its SpMV (desync's row kernel spmv::LocalProduct on the CG's local CRS, as both CG
//     variants call it) against the SpMV workload's (the same kernel on its split copy of the
//     matrix; goal ratio >= 0.95: same code, so this measures placement and noise) and KokkosKernels' spmv (goal >= 1.0) on the
//     same CRS arrays, vectors and threads;
//   - everything else of one iteration (dot, fused x/r update with <r, r>, new direction:
//     88 bytes per row, docs/method.md section 17) against that traffic at the bandwidth of
//     desync's STREAM triad measured here on arrays of the same total traffic (goal: within
//     1.2x of the model, i.e. model time / measured time >= 1/1.2).
// Each variant keeps its best time over the repetitions, alternating. Sizes are well above the
// last-level cache (480 MiB on the development machine), so the ratios are memory-bound ones:
//   bench_cg [--elements E] [--vector-rows N] [--reps R]
//     E^3 elements for the SpMV (default 160: 4.1 M rows, 111 M nonzeros, 1.3 GB of CRS);
//     N rows for the vector operations (default 2^25: 1 GB of vectors, 2 GB of triad arrays)
#include <fmt/core.h>
#include <mpi.h>

#include <Kokkos_Core.hpp>
#include "kokkos_compat/sparse_spmv.hpp"
#include <cmath>

#include "bench_util.hpp"
#include "workloads/cg/cg_kernels.hpp"
#include "core/clock.hpp"
#include "matrix/local_matrix.hpp"
#include "matrix/minife.hpp"
#include "workloads/spmv/spmv_kernels.hpp"
#include "workloads/spmv/spmv_matrix.hpp"
#include "workloads/triad/triad_kernels.hpp"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  {
    Kokkos::ScopeGuard kokkos(argc, argv);
    using namespace desync;
    const auto e = bench::arg(argc, argv, "--elements", 160);
    const auto nv = static_cast<std::int32_t>(bench::arg(argc, argv, "--vector-rows", std::int64_t{1} << 25));
    const int reps = static_cast<int>(bench::arg(argc, argv, "--reps", 10));
    const Minife g(MinifeParams{{e, e, e}, {1, 1, 1}});
    const LocalMatrix<double> m = build_local_matrix<double>(g, partition_by_rows(g.rows(), 1), 0);
    const SplitMatrix a = split_matrix(m, false);
    const std::int32_t n = m.rows;
    Vector p("desync::bench::p", n), q("desync::bench::q", n), q_ref("desync::bench::q_ref", n), q_kk("desync::bench::q_kk", n);
    Kokkos::parallel_for("desync::bench::init", cg::RowPolicy(0, n), KOKKOS_LAMBDA(std::int32_t i) { p(i) = 1.0 + (i % 7) * 0.125; });
    const spmv::LocalProduct cg_product{m.row_ptr, m.col, m.val, p, q};  // what the CG calls, on its CRS
    const spmv::LocalProduct ref{a.local.row_ptr, a.local.col, a.local.val, p, q_ref};
    // The vector operations on their own, larger vectors.
    Vector vx("desync::bench::x", nv), vr("desync::bench::r", nv), vp("desync::bench::vp", nv), vq("desync::bench::vq", nv);
    Kokkos::parallel_for("desync::bench::init_vectors", cg::RowPolicy(0, nv), KOKKOS_LAMBDA(std::int32_t i) {
      vp(i) = 1.0 + (i % 7) * 0.125;
      vq(i) = 2.0 - (i % 5) * 0.25;
      vr(i) = 0.5;
      vx(i) = 0.0;
    });
    Kokkos::fence();

    const double vec_bytes = 88.0 * nv;
    const auto tm = static_cast<Index>(vec_bytes / 32.0);  // triad: 32 B per element with write-allocate
    Vector ta("desync::bench::a", tm), tb("desync::bench::b", tm), tc("desync::bench::c", tm), td("desync::bench::d", 0);
    Kokkos::parallel_for("desync::bench::init_triad", RangePolicy(0, tm), triad::Init{ta, tb, tc, td, 0});
    Kokkos::fence();

    double t_cg = 1e300, t_ref = 1e300, t_kk = 1e300, t_vec = 1e300, t_triad = 1e300, sink = 0.0;
    double t_part[3] = {1e300, 1e300, 1e300};  // dot, update, direction
    for (int k = 0; k < reps; ++k) {
      t_cg = std::min(t_cg, bench::best_time(1, [&] {
        Kokkos::parallel_for("desync::cg::spmv", cg::RowPolicy(0, n), cg_product);
        Kokkos::fence();
      }));
      t_ref = std::min(t_ref, bench::best_time(1, [&] {
        Kokkos::parallel_for("desync::spmv::local", cg::RowPolicy(0, n), ref);
        Kokkos::fence();
      }));
      t_kk = std::min(t_kk, bench::best_time(1, [&] {
        KokkosSparse::spmv("N", 1.0, a.kk_local, p, 0.0, q_kk);
        Kokkos::fence();
      }));
      t_vec = std::min(t_vec, bench::best_time(1, [&] {
        double t0 = desync::now();
        const double pq = cg::dot(vp, vq, nv);
        double t1 = desync::now();
        const double rr = cg::update(vx, vr, vp, vq, 1e-9 / (1.0 + std::fabs(pq)), nv);
        double t2 = desync::now();
        cg::direction(vp, vr, 1e-3 / (1.0 + rr), nv);  // small steps: values stay bounded over the repetitions
        double t3 = desync::now();
        t_part[0] = std::min(t_part[0], t1 - t0);
        t_part[1] = std::min(t_part[1], t2 - t1);
        t_part[2] = std::min(t_part[2], t3 - t2);
        sink += pq + rr;
      }));
      t_triad = std::min(t_triad, bench::best_time(1, [&] {
        triad::stream_for("desync::triad::stream", tm, triad::Stream{ta, tb, tc, 3.0});
        Kokkos::fence();
      }));
    }
    const double bw = 32.0 * static_cast<double>(tm) / t_triad;
    const double nnz = static_cast<double>(m.nnz);
    fmt::print("CG kernels: minife {}^3 elements ({} rows, {} nonzeros), vector operations on {} rows, {} threads, best of {}\n",
               e, n, m.nnz, nv, Kokkos::DefaultExecutionSpace().concurrency(), reps);
    fmt::print("  CG row product     : {:8.3f} ms  {:6.2f} Gflop/s\n", 1e3 * t_cg, 2e-9 * nnz / t_cg);
    fmt::print("  desync SpMV kernel : {:8.3f} ms  {:6.2f} Gflop/s\n", 1e3 * t_ref, 2e-9 * nnz / t_ref);
    fmt::print("  KokkosKernels spmv : {:8.3f} ms  {:6.2f} Gflop/s\n", 1e3 * t_kk, 2e-9 * nnz / t_kk);
    fmt::print("  vector operations  : {:8.3f} ms  {:6.2f} GB/s ({:.0f} B per row)\n", 1e3 * t_vec, 1e-9 * vec_bytes / t_vec, 88.0);
    fmt::print("    dot {:.1f} GB/s (16 B/row), update {:.1f} GB/s (48 B/row), direction {:.1f} GB/s (24 B/row)\n",
               16e-9 * nv / t_part[0], 48e-9 * nv / t_part[1], 24e-9 * nv / t_part[2]);
    fmt::print("  STREAM triad       : {:8.3f} ms  {:6.2f} GB/s (model bandwidth)\n", 1e3 * t_triad, 1e-9 * bw);
    fmt::print("  ratio CG SpMV / desync SpMV speed: {:.3f} (goal >= 0.95)\n", t_ref / t_cg);
    fmt::print("  ratio CG SpMV / KokkosKernels speed: {:.3f} (goal >= 1.0)\n", t_kk / t_cg);
    fmt::print("  ratio vector model time / measured: {:.3f} (goal >= {:.3f}, i.e. within 1.2x)\n", (vec_bytes / bw) / t_vec, 1 / 1.2);
    if (!std::isfinite(sink)) fmt::print("  (non-finite values)\n");
  }
  MPI_Finalize();
  return 0;
}
