// Ranks on one host share the monotonic clock, so the estimated offset must be zero within the
// estimate's own error bound (plus a little scheduling slack on an oversubscribed machine).
#include <gtest/gtest.h>

#include <cmath>

#include "comm/clock_sync.hpp"

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

}  // namespace
}  // namespace desync
