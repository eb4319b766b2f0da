// The recorder: preallocated, NaN where nothing was recorded, shifts onto a common time base.
#include <gtest/gtest.h>

#include <cmath>

#include "record/iteration_events.hpp"
#include "record/timeline.hpp"

namespace desync {
namespace {

TEST(Timeline, StartsAllNaNAndStoresMarks) {
  Timeline tl(iteration_event_names(), 5, 2);
  EXPECT_EQ(tl.iterations(), 5);
  EXPECT_EQ(tl.warmup(), 2);
  EXPECT_EQ(tl.events(), ev::count);
  EXPECT_EQ(tl.data().size(), 5u * ev::count);
  for (double t : tl.data()) EXPECT_TRUE(std::isnan(t));
  const double before = now();
  tl.mark(3, ev::wait_end);
  const double after = now();
  EXPECT_GE(tl.at(3, ev::wait_end), before);
  EXPECT_LE(tl.at(3, ev::wait_end), after);
  EXPECT_TRUE(std::isnan(tl.at(3, ev::post_end)));
  // Row-major [iteration][event] is the rank's slab of /timeline/events.
  EXPECT_EQ(tl.data()[3 * ev::count + ev::wait_end], tl.at(3, ev::wait_end));
}

TEST(Timeline, EventIndexByName) {
  Timeline tl(iteration_event_names(), 1, 0);
  EXPECT_EQ(tl.event_index("compute_begin"), ev::compute_begin);
  EXPECT_EQ(tl.event_index("sync_end"), ev::sync_end);
  EXPECT_EQ(tl.event_index("nope"), -1);
}

TEST(Timeline, ToCommonKeepsNaN) {
  Timeline tl(iteration_event_names(), 2, 0);
  tl.set(0, ev::compute_begin, 10.0);
  tl.set(1, ev::compute_begin, 12.5);
  tl.to_common(ClockMap(RankClock::exact(), 10.0));
  EXPECT_DOUBLE_EQ(tl.at(0, ev::compute_begin), 0.0);
  EXPECT_DOUBLE_EQ(tl.at(1, ev::compute_begin), 2.5);
  EXPECT_TRUE(std::isnan(tl.at(1, ev::sync_end)));
}

TEST(Timeline, RejectsBadSizesBeforeAllocating) {
  EXPECT_THROW(Timeline(iteration_event_names(), 2, 3), std::invalid_argument) << "more warm-up than iterations";
  EXPECT_THROW(Timeline(iteration_event_names(), -1, 0), std::invalid_argument) << "not a length_error or bad_alloc";
  EXPECT_THROW(Timeline(iteration_event_names(), 4, -1), std::invalid_argument);
}

}  // namespace
}  // namespace desync
