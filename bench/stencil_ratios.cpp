// The stencil study's three ratios (issue 6), each measured side by side in one run:
//   1. matrix-free base vs. the SpMV (CRS) formulation on the same grid, ranks and threads
//      (goal >= 1.8);
//   2. the base sweep against the roofline: 24 B per point (docs/method.md section 14) over the
//      median sweep time, relative to desync's STREAM triad on arrays of the same traffic
//      (goal >= 0.85);
//   3. CA vs. base with an injected per-exchange latency L, for s in {1, 2, 4, 8}, next to the
//      latency model's prediction (run with 4 ranks: mpiexec -n 4 bench_stencil).
//   bench_stencil [--n N] [--steps K] [--ca-n M]   N: grid of ratios 1-2 (default 8192, 1 GB of
//   arrays, 2x this machine's L3); M: grid of the CA study (default 1024, ratio 0.5)
#include <fmt/core.h>
#include <mpi.h>

#include <Kokkos_Core.hpp>

#include "bench_util.hpp"
#include "code_balance.hpp"
#include "config/config.hpp"
#include "workloads/registry.hpp"
#include "core/mpi_util.hpp"
#include "metrics/phase_stats.hpp"
#include "workloads/stencil/stencil.hpp"
#include "workloads/triad/triad_kernels.hpp"

namespace {
using namespace desync;

WorkloadResult run(const std::string& stencil, std::int64_t steps) {
  const std::string deck = fmt::format("[run]\nworkload = \"stencil\"\niterations = {}\nwarmup = 2\nprogress_interval = 0\n"
                                       "[stencil]\n{}",
                                       steps, stencil);
  return run_stencil(load_deck(deck, "bench_stencil.toml", {}), MPI_COMM_WORLD);
}

double metric(const WorkloadResult& r, const char* name) {
  for (const auto& v : r.metrics)
    if (v.name == name) return v.value;
  return 0.0;
}

double median_phase(const WorkloadResult& r, const char* phase) {
  const PhaseLayout l = phase_layout(r.timeline.event_names(), r.composites);
  const auto d = phase_durations(r.timeline, l);
  double mine = min_med_max(d[static_cast<std::size_t>(l.index(phase))]).median;
  MPI_Allreduce(MPI_IN_PLACE, &mine, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return mine;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  {
    Kokkos::ScopeGuard kokkos(argc, argv);
    const int rank = comm_rank(MPI_COMM_WORLD), size = comm_size(MPI_COMM_WORLD);
    const std::int64_t n = bench::arg(argc, argv, "--n", 8192), steps = bench::arg(argc, argv, "--steps", 10);
    const std::int64_t ca_n = bench::arg(argc, argv, "--ca-n", 1024);

    const WorkloadResult base = run(fmt::format("n = {}\nvariant = \"base\"\n", n), steps);
    const WorkloadResult crs = run(fmt::format("n = {}\nvariant = \"spmv\"\n", n), steps);
    const double g_base = metric(base, "gflops"), g_crs = metric(crs, "gflops");

    // Roofline: the slowest rank's median sweep against the triad on as many bytes per rank.
    const double points = static_cast<double>(n) * static_cast<double>(n) / size;
    const double t_sweep = median_phase(base, "sweep");
    // 24 B per point: u read, the new value written with write-allocate; 16 without (a GPU).
    const double sweep_bytes = bench::store_allocates ? 24.0 : 16.0;
    const auto m = static_cast<Index>(sweep_bytes * points / bench::triad_bytes_per_element);
    Vector a("desync::bench::a", m), b("desync::bench::b", m), c("desync::bench::c", m), d("desync::bench::d", 0);
    Kokkos::parallel_for("desync::bench::init", RangePolicy(0, m), triad::Init{a, b, c, d, 0});
    Kokkos::fence();
    const double t_triad = bench::best_time(5, [&] {
      triad::stream_for("desync::triad::stream", m, triad::Stream{a, b, c, 3.0});
      Kokkos::fence();
    });
    const double bw_sweep = sweep_bytes * points / t_sweep,
                 bw_triad = bench::triad_bytes_per_element * static_cast<double>(m) / t_triad;

    if (rank == 0) {
      fmt::print("stencil benchmark: {} ranks x {} threads\n", size, Kokkos::DefaultExecutionSpace().concurrency());
      fmt::print("  {}^2 grid, {} steps: base {:.2f} Gflop/s, spmv {:.2f} Gflop/s\n", n, steps, g_base, g_crs);
      fmt::print("  ratio base/spmv: {:.2f} (goal >= 1.8)\n", g_base / g_crs);
      fmt::print("  base sweep {:.2f} GB/s per rank ({:.0f} B/point), triad {:.2f} GB/s per rank\n", 1e-9 * bw_sweep, sweep_bytes,
                 1e-9 * bw_triad);
      fmt::print("  ratio base/roofline: {:.3f} (goal >= 0.85)\n", bw_sweep / bw_triad);
      fmt::print("  CA vs base, {}^2 grid, ratio 0.5, time_base/time_ca (model in parentheses):\n", ca_n);
      fmt::print("  {:>10} {:>8} {:>8} {:>8} {:>8}\n", "latency", "s=1", "s=2", "s=4", "s=8");
    }
    for (double latency : {0.0, 50e-6, 200e-6, 1e-3}) {
      const std::string common = fmt::format("n = {}\nratio = 0.5\nlatency = {}\n", ca_n, latency);
      const WorkloadResult b0 = run(common + "variant = \"base\"\n", 64);
      const double gb = metric(b0, "gflops"), ts = median_phase(b0, "sweep");
      std::string line = fmt::format("  {:>8.0f}us", 1e6 * latency);
      for (int s : {1, 2, 4, 8}) {
        const WorkloadResult ca = run(common + fmt::format("variant = \"ca\"\nca_steps = {}\n", s), 64);
        const double rf = metric(ca, "redundant_fraction");
        const double model = s * (ts + latency) / (s * ts * (1 + rf) + latency);
        line += fmt::format(" {:>4.2f}({:.1f})", metric(ca, "gflops") / gb, model);
      }
      if (rank == 0) fmt::print("{}\n", line);
    }
    if (rank == 0) fmt::print("  (ratio > 1: CA faster; it grows with the latency as the model predicts)\n");
  }
  MPI_Finalize();
  return 0;
}
