// Rank 0's progress line (report/progress.hpp): the time left comes from the iterations' own rate,
// so seconds spent flushing OUT.partial do not inflate it (docs/method.md, "Results on disk while
// a run runs").
#include <gtest/gtest.h>

#include "report/progress.hpp"

namespace desync {
namespace {

TEST(ProgressLine, TimeLeftExcludesFlushes) {
  EXPECT_DOUBLE_EQ(Progress::remaining(10.0, 0.0, 0.5), 10.0);
  EXPECT_DOUBLE_EQ(Progress::remaining(10.0, 4.0, 0.5), 6.0);   // 4 s of flushes left out
  EXPECT_DOUBLE_EQ(Progress::remaining(10.0, 4.0, 0.25), 18.0);
  EXPECT_DOUBLE_EQ(Progress::remaining(10.0, 12.0, 0.5), 0.0);  // never negative
  EXPECT_DOUBLE_EQ(Progress::remaining(10.0, 0.0, 0.0), 0.0);   // nothing done yet: no estimate
}

}  // namespace
}  // namespace desync
