#include <gtest/gtest.h>

#include "config/suggest.hpp"

namespace desync {
namespace {

TEST(Suggest, EditDistance) {
  EXPECT_EQ(edit_distance("", ""), 0u);
  EXPECT_EQ(edit_distance("abc", ""), 3u);
  EXPECT_EQ(edit_distance("iteratons", "iterations"), 1u);
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);
  EXPECT_EQ(edit_distance("Warmup", "warmup"), 0u);
}

TEST(Suggest, ClosestCandidate) {
  const std::vector<std::string> keys{"workload", "iterations", "warmup", "barrier"};
  EXPECT_EQ(closest("iteratons", keys), "iterations");
  EXPECT_EQ(closest("barier", keys), "barrier");
  EXPECT_EQ(closest("x", {}), "");
}

}  // namespace
}  // namespace desync
