// The delays of the delay slot (inject/delay_schedule.hpp): [[inject]] at its deck iteration
// after the warm-up, and [noise] drawn from one reproducible stream per (seed, rank), where every
// bit of the 64-bit seed counts.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "inject/delay_schedule.hpp"
#include "workloads/registry.hpp"

namespace desync {
namespace {

Config noisy(std::uint64_t seed) {
  return load_deck("[run]\niterations = 20\nwarmup = 3\n[noise]\nkind = \"uniform\"\nmean = 1e-3\nseed = " +
                       std::to_string(seed) + "\n[[inject]]\nrank = 1\niteration = 4\nduration = 0.5\n",
                   "n.toml", {});
}

TEST(DelaySchedule, InjectionLandsAfterTheWarmUp) {
  const auto d = delay_schedule(noisy(7), 1);
  ASSERT_EQ(d.size(), 23u);
  EXPECT_GT(d[7], 0.5);  // deck iteration 4 is row 3 + 4
  EXPECT_LT(d[6], 0.5);
  EXPECT_LT(d[8], 0.5);
}

TEST(DelaySchedule, NoiseIsReproducibleAndEverySeedBitCounts) {
  EXPECT_EQ(delay_schedule(noisy(1), 0), delay_schedule(noisy(1), 0));
  EXPECT_NE(delay_schedule(noisy(1), 0), delay_schedule(noisy(1), 1));   // per rank
  EXPECT_NE(delay_schedule(noisy(1), 0), delay_schedule(noisy(2), 0));   // per seed
  // std::seed_seq keeps 32 bits of a value: 1 and 1 + 2^32 were the same noise.
  EXPECT_NE(delay_schedule(noisy(1), 0), delay_schedule(noisy(1 + (std::uint64_t{1} << 32)), 0));
  for (double x : delay_schedule(noisy(1), 0)) {
    EXPECT_GE(x, 0.0);
    EXPECT_LE(x, 2e-3);
  }
}

// [noise] ranks and iterations: the listed ranks only, inside the window only, and there the same
// values as without a window or rank list (every iteration draws; the window only adds).
TEST(DelaySchedule, NoiseWindowAndRanks) {
  const Config full = noisy(9);
  const Config part = load_deck("[run]\niterations = 20\nwarmup = 3\n[noise]\nkind = \"uniform\"\nmean = 1e-3\nseed = 9\n"
                                "ranks = [1, 3]\niterations = [-1, 5]\n[[inject]]\nrank = 1\niteration = 4\nduration = 0.5\n",
                                "w.toml", {});
  for (int rank : {0, 2}) {  // not listed: no noise at all (rank 0 also no injection)
    for (double x : delay_schedule(part, rank)) EXPECT_EQ(x, 0.0) << "rank " << rank;
  }
  const auto all = delay_schedule(full, 1), some = delay_schedule(part, 1);
  ASSERT_EQ(some.size(), all.size());
  for (std::size_t i = 0; i < some.size(); ++i) {
    const std::int64_t it = static_cast<std::int64_t>(i) - 3;
    SCOPED_TRACE(it);
    if (it >= -1 && it < 5) {
      EXPECT_EQ(some[i], all[i]);  // the injection at iteration 4 included in both
      EXPECT_GT(some[i], 0.0);
    } else {
      EXPECT_EQ(some[i], 0.0);
    }
  }
}

}  // namespace
}  // namespace desync
