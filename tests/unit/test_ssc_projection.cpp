// SymmSquareCube's check above verify_n (workloads/symmsquarecube/ssc_projection.hpp): on blocks
// computed here with plain loops (N = 41) it passes, and it fails on a block with one entry off by a
// millionth of its size, on swapped columns, on the transposed block (j, i), on a NaN, on a D^3
// block that is D^2's, and on blocks computed from another seed. The entrywise check agrees on
// every case it can run (the same blocks, both N below its limit).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include "workloads/symmsquarecube/ssc_input.hpp"
#include "workloads/symmsquarecube/ssc_projection.hpp"

namespace desync {
namespace {

struct Blocks {
  std::vector<double> d2, d3;  // column-major rows(i) x rows(j)
};

// D^2_{i,j} and D^3_{i,j} by plain loops from the entry function.
Blocks exact_blocks(std::int64_t n, std::uint64_t seed, bool pur, const BlockCut& cut, int i, int j) {
  std::vector<double> d(static_cast<std::size_t>(n * n)), d2(d.size(), 0.0);
  for (std::int64_t r = 0; r < n; ++r)
    for (std::int64_t t = 0; t < n; ++t) d[static_cast<std::size_t>(r * n + t)] = ssc_entry(r, t, n, seed, pur);
  for (std::int64_t r = 0; r < n; ++r)
    for (std::int64_t t = 0; t < n; ++t)
      for (std::int64_t k = 0; k < n; ++k) d2[static_cast<std::size_t>(r * n + k)] += d[static_cast<std::size_t>(r * n + t)] * d[static_cast<std::size_t>(t * n + k)];
  const std::int64_t r0 = cut.first(i), nr = cut.rows(i), c0 = cut.first(j), nc = cut.rows(j);
  Blocks b;
  for (std::int64_t col = 0; col < nc; ++col)
    for (std::int64_t r = 0; r < nr; ++r) {
      b.d2.push_back(d2[static_cast<std::size_t>((r0 + r) * n + c0 + col)]);
      double s = 0;
      for (std::int64_t t = 0; t < n; ++t) s += d2[static_cast<std::size_t>((r0 + r) * n + t)] * d[static_cast<std::size_t>(t * n + c0 + col)];
      b.d3.push_back(s);
    }
  return b;
}

struct Case {
  SymmSquareCubeConfig c;
  BlockCut cut;
  int i = 0, j = 1;  // blocks of 14 x 14 (N = 41 in blocks of 14, 14, 13)
  std::uint64_t seed = 11;
};

Case make_case(std::int64_t n, bool pur) {
  Case k;
  k.c.n = n;
  k.c.input = pur ? SscInput::purification : SscInput::random;
  k.cut = BlockCut{n, 3};
  return k;
}

SscCheck projection(const Case& k, const Blocks& b) { return ssc_projection_check(k.c, k.seed, k.cut, k.i, k.j, b.d2, b.d3); }
SscCheck entrywise(const Case& k, const Blocks& b) { return ssc_check(k.c, k.seed, k.cut, k.i, k.j, b.d2, b.d3); }

TEST(SscProjection, PassesOnTheProductsAndFailsOnAnyChange) {
  for (bool pur : {false, true}) {
    SCOPED_TRACE(pur ? "purification" : "random");
    const Case k = make_case(41, pur);
    const Blocks good = exact_blocks(k.c.n, k.seed, pur, k.cut, k.i, k.j);
    const std::int64_t nr = k.cut.rows(k.i), nc = k.cut.rows(k.j);
    const SscCheck ok = projection(k, good);
    EXPECT_EQ(ok.wrong, 0);
    EXPECT_EQ(ok.checked, 2 * nr * nc);
    EXPECT_LT(ok.max_error, 2e-14) << "rounding only: far below the bound, 16 N eps = 1.5e-13";
    EXPECT_EQ(entrywise(k, good).wrong, 0);

    const auto expect_caught = [&](Blocks bad, const char* what) {
      EXPECT_GT(projection(k, bad).wrong, 0) << what;
      EXPECT_GT(entrywise(k, bad).wrong, 0) << what << " (entrywise)";
    };
    Blocks b = good;
    b.d2[5] *= 1.0 + 1e-6;
    expect_caught(b, "one D^2 entry off by 1e-6");
    b = good;
    b.d3[static_cast<std::size_t>(nr * nc - 1)] *= 1.0 + 1e-6;
    expect_caught(b, "the last D^3 entry off by 1e-6");
    b = good;
    for (std::int64_t r = 0; r < nr; ++r) std::swap(b.d2[static_cast<std::size_t>(r)], b.d2[static_cast<std::size_t>(nr + r)]);
    expect_caught(b, "D^2's first two columns swapped");
    b = good;
    b.d3[7] = std::numeric_limits<double>::quiet_NaN();
    expect_caught(b, "a NaN in D^3");
    b = good;
    b.d3 = b.d2;
    expect_caught(b, "D^2 delivered as D^3");
    // D^2 and D^3 are symmetric: block (j, i) is (i, j) transposed, a plausible mix-up.
    expect_caught(exact_blocks(k.c.n, k.seed, pur, k.cut, k.j, k.i), "block (j, i) in place of (i, j)");
    expect_caught(exact_blocks(k.c.n, k.seed + 1, pur, k.cut, k.i, k.j), "another seed's blocks");
  }
}

TEST(SscProjection, WeightsAreBoundedAwayFromZeroAndMixSigns) {
  int negative = 0;
  for (std::int64_t g = 0; g < 1000; ++g) {
    const double w = ssc_projection_weight(g, 5);
    EXPECT_GE(std::abs(w), 0.5);
    EXPECT_LT(std::abs(w), 1.0);
    negative += w < 0;
  }
  EXPECT_GT(negative, 400);
  EXPECT_LT(negative, 600);
}

}  // namespace
}  // namespace desync
