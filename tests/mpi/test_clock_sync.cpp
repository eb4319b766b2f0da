// Ranks on one host share the monotonic clock, so the estimated offset must be zero within the
// estimate's own error bound (plus a little scheduling slack on an oversubscribed machine), and
// two estimates a while apart show no drift. The drift and the map to the common time base
// (record/clock_offset.hpp) on made-up offsets.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <thread>

#include "comm/clock_sync.hpp"
#include "record/clock_offset.hpp"

namespace desync {
namespace {

TEST(ClockSync, SameHostOffsetIsZeroWithinTheErrorBound) {
  const ClockOffset c = estimate_clock_offset(MPI_COMM_WORLD);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    EXPECT_EQ(c.offset, 0.0);
    EXPECT_EQ(c.error, 0.0);
  } else {
    EXPECT_GT(c.error, 0.0);
    EXPECT_LT(c.error, 0.05);
    EXPECT_LE(std::fabs(c.offset), c.error + 1e-6);
  }
}

TEST(ClockSync, SameHostClocksDoNotDrift) {
  const ClockOffset a = estimate_clock_offset(MPI_COMM_WORLD);
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  const ClockOffset b = estimate_clock_offset(MPI_COMM_WORLD);
  const RankClock c = RankClock::of(a, b);
  EXPECT_EQ(c.drift, 0.0) << "offsets " << a.offset << " +- " << a.error << " and " << b.offset << " +- " << b.error;
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank != 0) {
    EXPECT_GT(b.at - a.at, 0.04);  // when each estimate was made, on the rank's clock
  }
}

TEST(ClockSync, DriftAppliedWhereItExceedsTheErrors) {
  // 0.1 ms more offset after 100 s: 1e-6 s/s, far above errors of 1 us each.
  const RankClock c = RankClock::of({1e-3, 1e-6, 100.0}, {1.1e-3, 1e-6, 200.0});
  EXPECT_NEAR(c.drift, 1e-6, 1e-15);
  const ClockMap m(c, 5.0);  // origin: rank 0's first measured iteration at 5 s
  EXPECT_NEAR(m(100.0), 100.0 - 1e-3 - 5.0, 1e-12);
  EXPECT_NEAR(m(150.0), 150.0 - 1.05e-3 - 5.0, 1e-12);
  EXPECT_NEAR(m(200.0), 200.0 - 1.1e-3 - 5.0, 1e-12);
  // The offsets 1.5 us apart, their errors 2 us together: not resolved, the start offset alone.
  const RankClock u = RankClock::of({1e-3, 1e-6, 100.0}, {1.0015e-3, 1e-6, 200.0});
  EXPECT_EQ(u.drift, 0.0);
  EXPECT_NEAR(ClockMap(u, 5.0)(200.0), 200.0 - 1e-3 - 5.0, 1e-12);
  // A run still running (a flush) has no end: no drift, the end NaN in its file.
  RankClock running;
  running.start = {1e-3, 1e-6, 100.0};
  EXPECT_EQ(running.drift, 0.0);
  EXPECT_TRUE(std::isnan(running.end.offset));
  EXPECT_NEAR(ClockMap(running, 5.0)(300.0), 300.0 - 1e-3 - 5.0, 1e-12);
  // Clock values of about 1e7 s (days since boot): the map keeps nanoseconds.
  const RankClock big = RankClock::of({2e-3, 1e-6, 1e7}, {2.5e-3, 1e-6, 1e7 + 100.0});
  EXPECT_NEAR(ClockMap(big, 1e7)(1e7 + 50.0), 50.0 - 2.25e-3, 1e-9);
}

}  // namespace
}  // namespace desync
