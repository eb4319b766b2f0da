// Cost of the timeline recorder relative to one iteration of the triad workload at its default
// size. Two measurements side by side:
//   direct: the cost of one Timeline::mark (best of many), times the marks per iteration, divided
//           by the median iteration time without recording;
//   A/B   : the same loop of sweeps with and without the marks, alternating, best of each.
// The direct estimate is the stable one on a noisy machine; the A/B one is a sanity check.
//   bench_recorder [--size N] [--iterations K]
#include <fmt/core.h>
#include <mpi.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <vector>

#include "bench_util.hpp"
#include "record/iteration_events.hpp"
#include "record/timeline.hpp"
#include "workloads/triad/triad_kernels.hpp"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  {
    Kokkos::ScopeGuard kokkos(argc, argv);
    using namespace desync;
    const Index n = bench::arg(argc, argv, "--size", 2'000'000);  // [triad] size_per_rank default
    const std::int64_t iters = bench::arg(argc, argv, "--iterations", 200);
    Vector a("desync::bench::a", n), b("desync::bench::b", n), c("desync::bench::c", n), d("desync::bench::d", 0);
    Kokkos::parallel_for("desync::bench::init", RangePolicy(0, n), triad::Init{a, b, c, d, 0});
    auto sweep = [&] {
      triad::stream_for("desync::triad::stream", n, triad::Stream{a, b, c, 3.0});
      Kokkos::fence();
    };
    constexpr int marks_per_iteration = 5;  // compute_begin/end, post_end, wait_end, sync_end

    Timeline tl(iteration_event_names(), iters, 0);
    const double t_mark = bench::best_time(20, [&] {
                            for (std::int64_t i = 0; i < iters; ++i)
                              for (int e = 0; e < marks_per_iteration; ++e) tl.mark(i, e);
                          }) / static_cast<double>(iters * marks_per_iteration);

    std::vector<double> plain;
    for (std::int64_t i = 0; i < iters; ++i) plain.push_back(bench::best_time(1, sweep));
    std::nth_element(plain.begin(), plain.begin() + iters / 2, plain.end());
    const double t_iter = plain[static_cast<std::size_t>(iters / 2)];

    double t_with = 1e300, t_without = 1e300;
    for (int r = 0; r < 5; ++r) {
      t_without = std::min(t_without, bench::best_time(1, [&] {
        for (std::int64_t i = 0; i < iters; ++i) sweep();
      }));
      t_with = std::min(t_with, bench::best_time(1, [&] {
        for (std::int64_t i = 0; i < iters; ++i) {
          tl.mark(i, ev::compute_begin);
          sweep();
          tl.mark(i, ev::compute_end);
          tl.mark(i, ev::post_end);
          tl.mark(i, ev::wait_end);
          tl.mark(i, ev::sync_end);
        }
      }));
    }
    const double direct = marks_per_iteration * t_mark / t_iter;
    fmt::print("recorder overhead: {} elements per array, {} iterations\n", n, iters);
    fmt::print("  one mark: {:.1f} ns; median iteration (sweep only): {:.3f} ms\n", 1e9 * t_mark, 1e3 * t_iter);
    fmt::print("  direct ratio recorder/iteration: {:.5f} % (goal < 1 %)\n", 100.0 * direct);
    fmt::print("  A/B ratio with/without recording: {:.4f}\n", t_with / t_without);
  }
  MPI_Finalize();
  return 0;
}
