// desync's Kokkos STREAM triad against a plain OpenMP loop on the same arrays and threads.
// The two variants alternate within each repetition so that drifts (frequency, neighbours on
// the machine) hit both alike; the ratio of their best times is the result.
//   bench_triad [--size N] [--reps R]
// N defaults to 80 M elements per array (3 x 640 MB), well above this machine's 480 MiB L3.
// On a device build (CUDA, HIP: the arrays live in device memory, which a host OpenMP loop cannot
// read) only the Kokkos triad runs, on the device; the OpenMP row is skipped and its ratio is n/a.
#include <fmt/core.h>
#include <mpi.h>
#include <omp.h>

#include <Kokkos_Core.hpp>
#include <functional>
#include <vector>

#include "bench_util.hpp"
#include "code_balance.hpp"
#include "kokkos_compat/concurrency.hpp"
#include "kokkos_compat/staging_space.hpp"
#include "workloads/triad/triad.hpp"
#include "workloads/triad/triad_kernels.hpp"
#include "workloads/triad/triad_config.hpp"

namespace {
using namespace desync;
// Launch shapes of the same triad, measured on a device beside the workload's (issue 32: Kokkos
// 3.4's CUDA range launch of an element per thread picks the smallest block of full theoretical
// occupancy, 64 threads on Hopper; on an H200 it moved 0.63 of what deep_copy moves, four
// elements per thread (triad::stream_for, the workload's shape on a device) 1.65x that).
struct StreamTeam {  // teams of 256 threads, 4 elements each, 256 apart
  Vector a, b, c;
  double s;
  Index n;
  KOKKOS_INLINE_FUNCTION void operator()(const Kokkos::TeamPolicy<ExecSpace>::member_type& t) const {
    const Index base = static_cast<Index>(t.league_rank()) * t.team_size() * 4 + t.team_rank();
    for (int u = 0; u < 4; ++u) {
      const Index j = base + static_cast<Index>(u) * t.team_size();
      if (j < n) a(j) = b(j) + s * c(j);
    }
  }
};

// Best time of each launch shape over reps, printed as bandwidths beside the default's.
bool launch_shapes(const Vector& a, const Vector& b, const Vector& c, double s, Index n, int reps, double bytes, double t_default,
                   const std::function<bool()>& verified) {
  bool all = true;
  struct Shape {
    const char* name;
    std::function<void()> run;
  };
  const std::vector<Shape> shapes{
      {"element per thread", [&] { triad::stream_for<ExecSpace, triad::StreamShape::element_per_thread>("desync::bench::triad_range", n, triad::Stream{a, b, c, s}); }},
      {"256-thread blocks", [&] { Kokkos::parallel_for("desync::bench::triad_lb", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<Index>, Kokkos::LaunchBounds<256, 8>>(0, n), triad::Stream{a, b, c, s}); }},
      {"teams of 256 x 4", [&] { Kokkos::parallel_for("desync::bench::triad_team", Kokkos::TeamPolicy<ExecSpace>(static_cast<int>((n + 1023) / 1024), 256), StreamTeam{a, b, c, s, n}); }},
  };
  for (const Shape& sh : shapes) {
    Kokkos::deep_copy(a, 0.0);  // each shape's values checked on their own
    double t = 1e300;
    for (int r = 0; r < reps; ++r)
      t = std::min(t, bench::best_time(1, [&] {
        sh.run();
        Kokkos::fence();
      }));
    const bool ok = verified();
    all = all && ok;
    fmt::print("  launch shape {:<18}: {:8.3f} ms  {:7.2f} GB/s  ({:.3f} x the triad's){}\n", sh.name, 1e3 * t, 1e-9 * bytes / t,
               t_default / t, ok ? "" : "  WRONG values");
  }
  return all;
}
}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  {
    Kokkos::ScopeGuard kokkos(argc, argv);
    using namespace desync;
    const Index n = bench::arg(argc, argv, "--size", 80'000'000);
    const int reps = static_cast<int>(bench::arg(argc, argv, "--reps", 10));
    Vector a("desync::bench::a", n), b("desync::bench::b", n), c("desync::bench::c", n), d("desync::bench::d", 0);
    Kokkos::parallel_for("desync::bench::init", RangePolicy(0, n), triad::Init{a, b, c, d, 0});
    Kokkos::fence();
    const double s = 3.0;
    // The OpenMP loop reads the Views' memory from host threads: only where the host can.
    constexpr bool host_loop = compat::default_memory_host_accessible;
    double* pa = a.data();
    const double* pb = b.data();
    const double* pc = c.data();

    double t_kokkos = 1e300, t_omp = 1e300;
    for (int r = 0; r < reps; ++r) {
      t_kokkos = std::min(t_kokkos, bench::best_time(1, [&] {
        triad::stream_for("desync::triad::stream", n, triad::Stream{a, b, c, s});  // the workload's launch
        Kokkos::fence();
      }));
      if constexpr (host_loop)
        t_omp = std::min(t_omp, bench::best_time(1, [&] {
#pragma omp parallel for schedule(static)
          for (Index i = 0; i < n; ++i) pa[i] = pb[i] + s * pc[i];
        }));
    }
    TriadConfig cfg;
    cfg.scalar = s;
    bool ok = triad_count_wrong(a, 0, cfg) == 0;
    const double bytes = static_cast<double>(n) * bench::triad_bytes_per_element;
    fmt::print("triad benchmark: {} elements per array ({:.0f} MB in all), {} threads, best of {}\n", n,
               3e-6 * 8 * static_cast<double>(n), compat::concurrency(), reps);
    if constexpr (bench::store_allocates)
      fmt::print("  bytes per element: 32 (24 + 8 write-allocate)\n");
    else
      fmt::print("  bytes per element: 24 (no write-allocate: a GPU's stores fill whole sectors)\n");
    fmt::print("  Kokkos triad : {:8.3f} ms  {:7.2f} GB/s\n", 1e3 * t_kokkos, 1e-9 * bytes / t_kokkos);
    if constexpr (host_loop) {
      fmt::print("  OpenMP loop  : {:8.3f} ms  {:7.2f} GB/s\n", 1e3 * t_omp, 1e-9 * bytes / t_omp);
      fmt::print("  ratio Kokkos/OpenMP bandwidth: {:.3f} (goal >= 0.95)\n", t_omp / t_kokkos);
    } else {
      fmt::print("  OpenMP loop  : skipped, the arrays live in device memory ({})\n", MemSpace::name());
      fmt::print("  ratio Kokkos/OpenMP bandwidth: n/a (goal >= 0.95)\n");
      // The device's own copy engine path (Kokkos::deep_copy is a cudaMemcpy between device
      // arrays): a second reference for the triad, 16 B per element moved, no kernel of desync's.
      double t_copy = 1e300;
      for (int r = 0; r < reps; ++r)
        t_copy = std::min(t_copy, bench::best_time(1, [&] {
          Kokkos::deep_copy(b, c);
          Kokkos::fence();
        }));
      fmt::print("  device copy  : {:8.3f} ms  {:7.2f} GB/s (Kokkos::deep_copy, 16 B per element)\n", 1e3 * t_copy,
                 1e-9 * 16.0 * static_cast<double>(n) / t_copy);
      fmt::print("  ratio triad/copy bandwidth: {:.3f}\n", (bytes / t_kokkos) / (16.0 * static_cast<double>(n) / t_copy));
      // deep_copy(b, c) changed b: the start values again, so each shape's result can be checked
      Kokkos::parallel_for("desync::bench::init", RangePolicy(0, n), triad::Init{a, b, c, d, 0});
      if (n < (Index{1} << 31))
        ok = launch_shapes(a, b, c, s, n, reps, bytes, t_kokkos, [&] { return triad_count_wrong(a, 0, cfg) == 0; }) && ok;
    }
    fmt::print("  values: {}\n", ok ? "verified" : "WRONG");
    if (!ok) return 1;
  }
  MPI_Finalize();
  return 0;
}
