// The local dense product of SymmSquareCube, desync::gemm (dense/gemm.hpp: KokkosBlas::gemm on
// unmanaged LayoutLeft blocks), against the BLAS library called directly (dgemm_) on the same
// buffers and threads: C := op(A) op(B) + C (beta = 1, as a product accumulated over steps), n x n
// blocks, column-major. With KokkosKernels built on OpenBLAS (ci/install-deps.sh) both are the
// same OpenBLAS dgemm and the ratio measures the wrapper (goal >= 0.95); without it, it measures
// KokkosKernels' own kernel against the BLAS. After one untimed call of each from the same C, whose
// results are compared (max abs difference; a mismatch exits with 1), the two alternate, which
// goes first swapping every repetition; reported: best and median time of each, and the ratios
// desync/blas of speeds (BLAS time / desync time) from both. Also printed: where dgemm_ comes from
// (dladdr) and which KokkosKernels implementation ran (its profiling region).
//   bench_gemm [--n N] [--reps R] [--trans XY]
//     N: block size (default 1912, a SymmSquareCube block); R: timed calls of each (default 10);
//     XY: op(A) op(B), each N or T (default NN)
#include <dlfcn.h>
#include <fmt/core.h>
#include <mpi.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "bench_util.hpp"
#include "core/clock.hpp"
#include "core/types.hpp"
#include "dense/gemm.hpp"
#include "kokkos_compat/concurrency.hpp"

// The Fortran BLAS interface (gfortran ABI: one trailing underscore, hidden lengths of the
// character arguments last), which every BLAS exports and KokkosKernels itself calls.
extern "C" void dgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k,
                       const double* alpha, const double* a, const int* lda, const double* b, const int* ldb,
                       const double* beta, double* c, const int* ldc, std::size_t transa_len, std::size_t transb_len);
// OpenBLAS' own queries, weak: absent from another BLAS.
extern "C" __attribute__((weak)) char* openblas_get_config();
extern "C" __attribute__((weak)) int openblas_get_num_threads();
extern "C" __attribute__((weak)) int openblas_get_parallel();

namespace {

std::string arg_string(int argc, char** argv, const char* name, const char* def) {
  for (int i = 1; i + 1 < argc; ++i)
    if (std::strcmp(argv[i], name) == 0) return argv[i + 1];
  return def;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

// The KokkosBlas::gemm profiling region seen during one call: "[TPL_BLAS,double]" when the
// third-party BLAS ran, "[ETI]" / "[noETI]" for KokkosKernels' own kernel.
std::string gemm_region;
void record_region(const char* name) {
  if (gemm_region.empty() && std::strncmp(name, "KokkosBlas::gemm", 16) == 0) gemm_region = name;
}

std::string library_of(void* symbol) {
  Dl_info info{};
  return dladdr(symbol, &info) != 0 && info.dli_fname != nullptr ? info.dli_fname : "(unknown)";
}

std::string blas_description() {
  if (openblas_get_config == nullptr) return "not OpenBLAS";
  const int parallel = openblas_get_parallel != nullptr ? openblas_get_parallel() : -1;
  const char* model = parallel == 0 ? "sequential" : parallel == 1 ? "pthreads" : parallel == 2 ? "OpenMP" : "?";
  return fmt::format("{}; {} threading, {} threads", openblas_get_config(), model,
                     openblas_get_num_threads != nullptr ? openblas_get_num_threads() : -1);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  bool mismatch = false;
  {
    Kokkos::ScopeGuard kokkos(argc, argv);
    using namespace desync;
    const int n = static_cast<int>(bench::arg(argc, argv, "--n", 1912));
    const int reps = static_cast<int>(std::max<long long>(1, bench::arg(argc, argv, "--reps", 10)));
    const std::string trans = arg_string(argc, argv, "--trans", "NN");
    const auto n_or_t = [](char x) { return x == 'N' || x == 'T'; };
    if (n < 1 || trans.size() != 2 || !n_or_t(trans[0]) || !n_or_t(trans[1])) {
      fmt::print(stderr, "bench_gemm: --n must be >= 1 and --trans one of NN, NT, TN, TT\n");
      MPI_Finalize();
      return 2;
    }
    const char ta[2] = {trans[0], '\0'}, tb[2] = {trans[1], '\0'};
    const double alpha = 1.0, beta = 1.0;

    // Square blocks: op() does not change their shape, only how they are read.
    using Block = Kokkos::View<double**, Kokkos::LayoutLeft, MemSpace>;
    Block a("desync::bench::a", n, n), b("desync::bench::b", n, n), c0("desync::bench::c0", n, n);
    Block c_desync("desync::bench::c_desync", n, n), c_blas("desync::bench::c_blas", n, n);
    // Deterministic values in [-1, 1], first touched by the Kokkos threads, column by column.
    Kokkos::parallel_for("desync::bench::gemm_init", Kokkos::RangePolicy<ExecSpace>(0, n), KOKKOS_LAMBDA(int j) {
      for (int i = 0; i < n; ++i) {
        a(i, j) = ((7 * i + 13 * j) % 101) / 50.0 - 1.0;
        b(i, j) = ((11 * i + 5 * j) % 97) / 48.0 - 1.0;
        c0(i, j) = ((3 * i + 17 * j) % 89) / 44.0 - 1.0;
        c_desync(i, j) = c0(i, j);
        c_blas(i, j) = c0(i, j);
      }
    });
    Kokkos::fence();
    const ConstDenseBlock da(a.data(), n, n), db(b.data(), n, n);
    const DenseBlock dc(c_desync.data(), n, n);

    auto run_desync = [&] {
      desync::gemm(ta, tb, alpha, da, db, beta, dc);
      Kokkos::fence();
    };
    auto run_blas = [&] {
      dgemm_(ta, tb, &n, &n, &n, &alpha, a.data(), &n, b.data(), &n, &beta, c_blas.data(), &n, 1, 1);
    };

    // First call of each, untimed (thread pools, page faults), from the same C: compare.
    Kokkos::Tools::Experimental::set_push_region_callback(record_region);
    run_desync();
    Kokkos::Tools::Experimental::set_push_region_callback(nullptr);
    run_blas();
    double diff = 0.0, cmax = 0.0;
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) {
        const double d = std::fabs(c_desync(i, j) - c_blas(i, j));
        diff = d == d ? std::max(diff, d) : d;  // a NaN stays (std::max would drop it)
        cmax = std::max(cmax, std::fabs(c_blas(i, j)));
      }
    // Rounding bound for sums of n products of entries in [-1, 1].
    const double tol = 4.0 * n * static_cast<double>(n) * std::numeric_limits<double>::epsilon();
    mismatch = !(diff <= tol);

    std::vector<double> t_desync, t_blas;
    for (int r = 0; r < reps; ++r) {
      if (r % 2) t_blas.push_back(bench::best_time(1, run_blas));
      t_desync.push_back(bench::best_time(1, run_desync));
      if (r % 2 == 0) t_blas.push_back(bench::best_time(1, run_blas));
    }
    const double flop = 2.0 * n * static_cast<double>(n) * n;
    const double best_d = *std::min_element(t_desync.begin(), t_desync.end());
    const double best_b = *std::min_element(t_blas.begin(), t_blas.end());
    const double med_d = median(t_desync), med_b = median(t_blas);

    fmt::print("gemm C := op(A) op(B) + C, n = {} ({}), {} threads, {:.3g} Gflop per call, {} repetitions\n", n, trans,
               compat::concurrency(), 1e-9 * flop, reps);
    fmt::print("  KokkosKernels TPL BLAS: {}; KokkosBlas::gemm ran as {}\n", gemm_uses_tpl_blas() ? "yes" : "no",
               gemm_region.empty() ? "(no profiling region)" : gemm_region);
    fmt::print("  BLAS called directly: dgemm_ from {} ({})\n", library_of(reinterpret_cast<void*>(&dgemm_)),
               blas_description());
    fmt::print("  desync::gemm : best {:9.3f} ms {:7.2f} Gflop/s, median {:9.3f} ms {:7.2f} Gflop/s\n", 1e3 * best_d,
               1e-9 * flop / best_d, 1e3 * med_d, 1e-9 * flop / med_d);
    fmt::print("  BLAS dgemm_  : best {:9.3f} ms {:7.2f} Gflop/s, median {:9.3f} ms {:7.2f} Gflop/s\n", 1e3 * best_b,
               1e-9 * flop / best_b, 1e3 * med_b, 1e-9 * flop / med_b);
    fmt::print("  max |C_desync - C_blas| = {:.3g} (max |C| = {:.3g}, tolerance {:.3g}){}\n", diff, cmax, tol,
               mismatch ? ": MISMATCH" : "");
    fmt::print("  ratio desync/blas = {:.3f} (best), {:.3f} (median) (goal >= 0.95)\n", best_b / best_d, med_b / med_d);
  }
  MPI_Finalize();
  return mismatch ? 1 : 0;
}
