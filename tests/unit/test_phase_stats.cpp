// Phase definitions of docs/method.md on a synthetic timeline with known durations.
#include <gtest/gtest.h>

#include <cmath>

#include "metrics/phase_stats.hpp"
#include "record/iteration_events.hpp"

namespace desync {
namespace {

// Iteration k starts at 10k; compute 2, (delay 3 in iteration 2), post 0.5, wait 1 + k.
Timeline synthetic(bool barrier) {
  Timeline tl(iteration_event_names(), 5, 1);
  for (int k = 0; k < 5; ++k) {
    double t = 10.0 * k;
    tl.set(k, ev::compute_begin, t);
    tl.set(k, ev::compute_end, t += 2);
    if (k == 2) {
      tl.set(k, ev::delay_begin, t);
      tl.set(k, ev::delay_end, t += 3);
    }
    tl.set(k, ev::post_end, t += 0.5);
    tl.set(k, ev::wait_end, t += 1 + k);
    if (barrier) tl.set(k, ev::sync_end, t += 0.25);
  }
  return tl;
}

const PhaseLayout triad = phase_layout(iteration_event_names());
namespace phase {
const int compute = triad.index("compute"), delay = triad.index("delay"), post = triad.index("post"),
          wait = triad.index("wait"), barrier = triad.index("sync"), iteration = triad.index("iteration");
}

TEST(PhaseStats, LayoutFromEventNames) {
  EXPECT_EQ(triad.names, (std::vector<std::string>{"compute", "delay", "post", "wait", "sync", "iteration"}));
  const PhaseLayout l = phase_layout({"begin", "a_end", "b_end"}, {{"ab", {"a", "b"}}});
  EXPECT_EQ(l.names, (std::vector<std::string>{"a", "b", "ab", "iteration"}));
}

TEST(PhaseStats, DurationsFollowTheDefinitions) {
  const auto d = phase_durations(synthetic(false), triad);
  ASSERT_EQ(d.size(), triad.names.size());
  ASSERT_EQ(d[phase::compute].size(), 4u);  // warm-up excluded
  EXPECT_DOUBLE_EQ(d[phase::compute][0], 2.0);
  EXPECT_TRUE(std::isnan(d[phase::delay][0])) << "no delay in that iteration";
  EXPECT_DOUBLE_EQ(d[phase::delay][1], 3.0);
  EXPECT_DOUBLE_EQ(d[phase::post][1], 0.5);
  EXPECT_DOUBLE_EQ(d[phase::wait][0], 2.0);
  EXPECT_DOUBLE_EQ(d[phase::wait][3], 5.0);
  EXPECT_TRUE(std::isnan(d[phase::barrier][0]));
  EXPECT_DOUBLE_EQ(d[phase::iteration][0], 10.0);
  EXPECT_DOUBLE_EQ(d[phase::iteration][3], 2.0 + 0.5 + 5.0);  // last: to its final event
}

TEST(PhaseStats, BarrierPhaseWhenPresent) {
  const auto d = phase_durations(synthetic(true), triad);
  EXPECT_DOUBLE_EQ(d[phase::barrier][2], 0.25);
}

TEST(PhaseStats, MinMedianMaxIgnoresNaN) {
  const double nan = std::nan("");
  const auto s = min_med_max({4.0, nan, 1.0, 3.0, 2.0});
  EXPECT_DOUBLE_EQ(s.min, 1.0);
  EXPECT_DOUBLE_EQ(s.median, 2.5);
  EXPECT_DOUBLE_EQ(s.max, 4.0);
  EXPECT_DOUBLE_EQ(min_med_max({5.0, 1.0, 3.0}).median, 3.0);
  EXPECT_TRUE(std::isnan(min_med_max({nan, nan}).median));
}

TEST(PhaseStats, RankStatsOfSyntheticTimeline) {
  const auto s = rank_phase_stats(synthetic(false), triad);
  EXPECT_DOUBLE_EQ(s[phase::wait].min, 2.0);
  EXPECT_DOUBLE_EQ(s[phase::wait].median, 3.5);
  EXPECT_DOUBLE_EQ(s[phase::wait].max, 5.0);
}

}  // namespace
}  // namespace desync
