// core/mix64.hpp: splitmix64 as published (Steele, Lea, Flood 2014; Vigna's reference code): the
// first output of the generator seeded with 0 is 0xe220a8397b1dcdaf, the second
// 0x6e789e6aa1b965f4. The toy's message sizes and TOPI's disorder are drawn from it, and
// the fold of several values is the one the toy always used (its sizes, hence the simulated
// and measured toy runs, do not change with the shared header).
#include <gtest/gtest.h>

#include "core/mix64.hpp"

namespace desync {
namespace {

TEST(Mix64, SplitmixReferenceOutputs) {
  EXPECT_EQ(splitmix64(0), 0xe220a8397b1dcdafull);
  EXPECT_EQ(splitmix64(0x9e3779b97f4a7c15ull), 0x6e789e6aa1b965f4ull);  // the state after one step
  EXPECT_EQ(mix64(0), 0u);
}

TEST(Mix64, FoldOfSeveralValues) {
  const std::uint64_t a = 7, b = 3, c = 11, d = 5;
  EXPECT_EQ(mix64(a, b), splitmix64(splitmix64(a) ^ b));
  EXPECT_EQ(mix64(a, b, c, d), splitmix64(splitmix64(splitmix64(splitmix64(a) ^ b) ^ c) ^ d));
  EXPECT_NE(mix64(a, b), mix64(b, a));
}

}  // namespace
}  // namespace desync
