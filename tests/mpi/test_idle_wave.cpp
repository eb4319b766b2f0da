// The idle wave: a long delay on rank 0 at iteration k, next-neighbour open-boundary exchange.
// Rank r >= 1 must first wait long in iteration k + r - 1: the wave moves one rank per iteration.
// Without the injection no rank waits that long. The threshold is half the delay, far above the
// scheduling noise of 4 ranks on 2 cores, far below the wave itself.
#include <gtest/gtest.h>
#include <mpi.h>

#include <vector>

#include "workloads/registry.hpp"
#include "core/mpi_util.hpp"
#include "record/iteration_events.hpp"
#include "workloads/triad/triad.hpp"

namespace desync {
namespace {

constexpr double delay = 0.4;
constexpr std::int64_t k = 8, warmup = 2, iterations = 20;

// Wait durations of the measured iterations of every rank: [rank][iteration].
std::vector<std::vector<double>> waits(bool inject) {
  std::string deck = "[run]\niterations = 20\nwarmup = 2\nprogress_interval = 0\n"
                     "[triad]\nsize_per_rank = 2000\noffsets = [1, -1]\nboundary = \"open\"\n";
  if (inject) deck += "[[inject]]\nrank = 0\niteration = 8\nduration = 0.4\n";
  const WorkloadResult r = run_triad(load_deck(deck, "wave.toml", {}), MPI_COMM_WORLD);
  std::vector<double> mine;
  for (std::int64_t it = warmup; it < warmup + iterations; ++it)
    mine.push_back(r.timeline.at(it, ev::wait_end) - r.timeline.at(it, ev::post_end));
  const int size = comm_size(MPI_COMM_WORLD);
  std::vector<double> all(mine.size() * size);
  MPI_Allgather(mine.data(), static_cast<int>(mine.size()), MPI_DOUBLE, all.data(), static_cast<int>(mine.size()),
                MPI_DOUBLE, MPI_COMM_WORLD);
  std::vector<std::vector<double>> w(size);
  for (int p = 0; p < size; ++p) w[p].assign(all.begin() + p * iterations, all.begin() + (p + 1) * iterations);
  return w;
}

TEST(IdleWave, TravelsOneRankPerIteration) {
  ASSERT_EQ(comm_size(MPI_COMM_WORLD), 4) << "this test is registered for 4 ranks";
  const auto w = waits(true);
  for (int r = 1; r < 4; ++r) {
    std::int64_t first_long = -1;
    for (std::int64_t it = 0; it < iterations && first_long < 0; ++it)
      if (w[r][it] > delay / 2) first_long = it;
    EXPECT_EQ(first_long, k + r - 1) << "rank " << r << " should first wait long in iteration " << k + r - 1;
    EXPECT_GT(w[r][k + r - 1], delay * 0.8) << "rank " << r;
  }
  // The delayed rank itself does not wait for it.
  for (std::int64_t it = 0; it < iterations; ++it) EXPECT_LT(w[0][it], delay / 2) << "iteration " << it;
}

TEST(IdleWave, NoWaveWithoutInjection) {
  ASSERT_EQ(comm_size(MPI_COMM_WORLD), 4);
  const auto w = waits(false);
  for (int r = 0; r < 4; ++r)
    for (std::int64_t it = 0; it < iterations; ++it) EXPECT_LT(w[r][it], delay / 2) << "rank " << r << " it " << it;
}

}  // namespace
}  // namespace desync
