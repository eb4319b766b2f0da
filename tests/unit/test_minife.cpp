// The miniFE-like finite-element matrix (matrix/minife.hpp): the numbering is a bijection whose
// boxes are contiguous row ranges, the matrix is symmetric positive definite with the assembled
// trilinear stencil in the interior, identity rows on the boundary, and the box partition gives
// rank k box k.
#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <vector>

#include "matrix/minife.hpp"
#include "matrix/row_partition.hpp"

namespace desync {
namespace {

std::vector<double> dense(const Minife& g) {
  const auto n = static_cast<std::size_t>(g.rows());
  std::vector<double> a(n * n, 0.0);
  std::vector<GlobalIndex> cols(27);
  std::vector<Scalar> vals(27);
  for (GlobalIndex r = 0; r < g.rows(); ++r) {
    const int k = g.row(r, cols.data(), vals.data());
    for (int j = 0; j < k; ++j) {
      if (j > 0) {
        EXPECT_LT(cols[j - 1], cols[j]) << "row " << r << " sorted, no duplicates";
      }
      a[static_cast<std::size_t>(r) * n + static_cast<std::size_t>(cols[j])] = vals[j].real();
    }
  }
  return a;
}

TEST(Minife, NumberingIsABijectionWithContiguousBoxes) {
  const Minife g(MinifeParams{{3, 4, 2}, {2, 1, 2}});
  ASSERT_EQ(g.rows(), 4 * 5 * 3);
  ASSERT_EQ(g.box_starts().size(), 5u);
  std::set<GlobalIndex> seen;
  for (GlobalIndex r = 0; r < g.rows(); ++r) {
    const auto n = g.node(r);
    EXPECT_EQ(g.row_of(n), r);
    seen.insert(n[0] + 4 * (n[1] + 5 * n[2]));
    // Box k holds x in [0, 2) or [2, 4) and z in [0, 2) or [2, 3): nodes split 2 + 2 and 2 + 1.
    const int box = static_cast<int>(std::upper_bound(g.box_starts().begin(), g.box_starts().end(), r) - g.box_starts().begin() - 1);
    EXPECT_EQ(box % 2, n[0] >= 2 ? 1 : 0) << "row " << r;
    EXPECT_EQ(box / 2, n[2] >= 2 ? 1 : 0) << "row " << r;
  }
  EXPECT_EQ(seen.size(), static_cast<std::size_t>(g.rows()));
  const RowPartition p = make_partition(g, PartitionKind::box, 4);
  EXPECT_EQ(p.first, g.box_starts());
  EXPECT_THROW(make_partition(g, PartitionKind::box, 3), std::invalid_argument);
}

TEST(Minife, SymmetricPositiveDefiniteWithTheAssembledStencil) {
  const Minife g(MinifeParams{{4, 4, 5}, {2, 2, 1}});
  const auto n = static_cast<std::size_t>(g.rows());
  const std::vector<double> a = dense(g);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < i; ++j) ASSERT_EQ(a[i * n + j], a[j * n + i]) << i << "," << j;
  std::vector<GlobalIndex> cols(27);
  std::vector<Scalar> vals(27);
  int deep = 0;
  for (GlobalIndex r = 0; r < g.rows(); ++r) {
    const auto c = g.node(r);
    const int k = g.row(r, cols.data(), vals.data());
    if (g.on_boundary(c)) {
      EXPECT_EQ(a[static_cast<std::size_t>(r) * (n + 1)], 1.0);
      double off = 0;
      for (int j = 0; j < k; ++j) off += std::fabs(vals[j].real());
      EXPECT_EQ(off, 1.0) << "a boundary row is the identity";
      continue;
    }
    EXPECT_EQ(k, 27) << "an interior node has the full 27-point pattern";
    EXPECT_DOUBLE_EQ(a[static_cast<std::size_t>(r) * (n + 1)], 8.0 / 3.0);
    bool all_inner = true;
    for (int j = 0; j < k; ++j) all_inner = all_inner && !g.on_boundary(g.node(cols[j]));
    if (all_inner) {  // away from the boundary: the assembled stencil sums to 0
      double sum = 0;
      for (int j = 0; j < k; ++j) sum += vals[j].real();
      EXPECT_NEAR(sum, 0.0, 1e-14);
      const auto face = g.row_of({c[0] + 1, c[1] + 1, c[2]}), corner = g.row_of({c[0] - 1, c[1] + 1, c[2] - 1});
      const auto edge = g.row_of({c[0], c[1], c[2] + 1});
      EXPECT_DOUBLE_EQ(a[static_cast<std::size_t>(r) * n + static_cast<std::size_t>(face)], -1.0 / 6.0);
      EXPECT_DOUBLE_EQ(a[static_cast<std::size_t>(r) * n + static_cast<std::size_t>(corner)], -1.0 / 12.0);
      EXPECT_EQ(a[static_cast<std::size_t>(r) * n + static_cast<std::size_t>(edge)], 0.0);
      ++deep;
    }
  }
  EXPECT_GT(deep, 0);
  // Positive definite: a Cholesky factorization exists (all pivots > 0).
  std::vector<double> l = a;
  for (std::size_t j = 0; j < n; ++j) {
    double d = l[j * n + j];
    for (std::size_t k = 0; k < j; ++k) d -= l[j * n + k] * l[j * n + k];
    ASSERT_GT(d, 0.0) << "pivot " << j;
    d = std::sqrt(d);
    l[j * n + j] = d;
    for (std::size_t i = j + 1; i < n; ++i) {
      double s = l[i * n + j];
      for (std::size_t k = 0; k < j; ++k) s -= l[i * n + k] * l[j * n + k];
      l[i * n + j] = s / d;
    }
  }
}

}  // namespace
}  // namespace desync
