// The delays of the delay slot (inject/delay_schedule.hpp): [[inject]] at its deck iteration
// after the warm-up, and [noise] drawn from one reproducible stream per (seed, rank), where every
// bit of the 64-bit seed counts.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>

#include "core/errors.hpp"
#include "inject/delay_schedule.hpp"
#include "record/timeline.hpp"
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

// [[inject]] duration_iterations: a multiple of the rank's warm-up iteration time, kept apart from
// the seconds until the warm-up is done; the deck rules (one of the two keys; measured iterations;
// a warm-up to measure in).
TEST(DelaySchedule, DelaysInIterationsWaitForTheWarmUp) {
  const Config c = load_deck("[run]\niterations = 10\nwarmup = 3\n[[inject]]\nrank = 1\niteration = 4\n"
                             "duration_iterations = 2.5\n[[inject]]\nrank = 1\niteration = 4\nduration = 0.1\n",
                             "i.toml", {});
  auto d = delay_schedule(c, 1);
  const auto m = delay_multiples(c, 1);
  ASSERT_EQ(m.size(), 13u);
  EXPECT_EQ(d[7], 0.1);  // the seconds only
  EXPECT_EQ(m[7], 2.5);
  EXPECT_TRUE(delay_multiples(c, 0).empty());
  add_scaled_delays(d, m, 0.02);
  EXPECT_DOUBLE_EQ(d[7], 0.1 + 2.5 * 0.02);
  for (std::size_t i = 0; i < d.size(); ++i) {
    if (i != 7) {
      EXPECT_EQ(d[i], 0.0);
    }
  }
}

TEST(DelaySchedule, DelayInIterationsDeckRules) {
  const auto error = [](const std::string& deck) {
    try {
      load_deck(deck, "i.toml", {});
    } catch (const DeckError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  const std::string head = "[run]\niterations = 10\nwarmup = 3\n[[inject]]\nrank = 0\n";
  EXPECT_NE(error(head + "iteration = 2\nduration = 0.1\nduration_iterations = 2\n")
                .find("give either duration (seconds) or duration_iterations"),
            std::string::npos);
  EXPECT_NE(error(head + "iteration = 2\n").find("needs rank, iteration and duration (seconds) or duration_iterations"),
            std::string::npos);
  EXPECT_NE(error(head + "iteration = -1\nduration_iterations = 2\n")
                .find("iteration = -1 is a warm-up iteration; a delay in iterations acts in measured iterations only"),
            std::string::npos);
  EXPECT_NE(error("[run]\niterations = 10\nwarmup = 0\n[[inject]]\nrank = 0\niteration = 2\nduration_iterations = 2\n")
                .find("set [run] warmup >= 1"),
            std::string::npos);
  EXPECT_NE(error(head + "iteration = 2\nduration_iterations = 0\n").find("duration_iterations = 0"), std::string::npos);
  EXPECT_EQ(error(head + "iteration = 0\nduration_iterations = 1e-3\n"), "");
}

// The iteration time the multiples scale: the median over rows of earliest-to-latest event.
TEST(DelaySchedule, MedianSpanOfTheWarmUpRows) {
  Timeline tl({"a_begin", "a_end", "b_end"}, 6, 4);
  const double spans[] = {1.0, 5.0, 2.0, 3.0};
  for (int row = 0; row < 4; ++row) {
    tl.set(row, 0, 10.0 * row);
    tl.set(row, 2, 10.0 * row + spans[row]);  // a_end stays NaN: the span is over what happened
  }
  EXPECT_DOUBLE_EQ(tl.median_span(0, 4), 2.5);  // median of 1, 5, 2, 3
  EXPECT_DOUBLE_EQ(tl.median_span(0, 3), 2.0);  // of 1, 5, 2
  EXPECT_TRUE(std::isnan(tl.median_span(4, 6)));  // rows without events
}

}  // namespace
}  // namespace desync
