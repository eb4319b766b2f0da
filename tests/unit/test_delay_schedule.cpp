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

}  // namespace
}  // namespace desync
