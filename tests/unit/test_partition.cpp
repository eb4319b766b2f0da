// Row partitions: the by-rows rule, the by-nonzeros rule, owners, and that the ranks' rows
// together are exactly the single-rank matrix.
#include <gtest/gtest.h>

#include <vector>

#include "matrix/row_partition.hpp"
#include "matrix/spin_chain.hpp"

namespace desync {
namespace {

SpinChain small_spin() {
  SpinParams p;
  p.sites = 12;
  p.up = 6;
  p.boundary = LatticeBoundary::periodic;
  return SpinChain(p);
}

TEST(Partition, ByRowsTruncatesAndGivesTheRemainderToTheLastRank) {
  const RowPartition p = partition_by_rows(10, 4);
  EXPECT_EQ(p.first, (std::vector<GlobalIndex>{0, 2, 4, 6, 10}));
  // The TOPI table's rule: 268435456 rows on 1280 ranks: 209715 each, 209971 on the last.
  const RowPartition t = partition_by_rows(268435456, 1280);
  EXPECT_EQ(t.rows(0), 209715);
  EXPECT_EQ(t.rows(1279), 209971);
  EXPECT_EQ(t.begin(630), 630 * 209715);
}

TEST(Partition, OwnerFindsTheRankOfEveryRow) {
  const RowPartition p = partition_by_rows(11, 3);
  for (int k = 0; k < 3; ++k)
    for (GlobalIndex r = p.begin(k); r < p.end(k); ++r) EXPECT_EQ(p.owner(r), k);
  const RowPartition empty_ranks = partition_by_rows(2, 5);  // ranks 0..3 own nothing
  EXPECT_EQ(empty_ranks.owner(0), 4);
  EXPECT_EQ(empty_ranks.owner(1), 4);
}

TEST(Partition, ByNonzerosBalancesPrefixCounts) {
  const SpinChain g = small_spin();
  std::vector<GlobalIndex> row_nnz;
  std::vector<GlobalIndex> c(g.max_row_entries());
  std::vector<Scalar> v(c.size());
  for (GlobalIndex r = 0; r < g.rows(); ++r) row_nnz.push_back(g.row(r, c.data(), v.data()));
  for (int P : {1, 2, 3, 4, 7}) {
    GlobalIndex nnz = 0;
    const RowPartition p = partition_by_nnz(g, P, &nnz);
    ASSERT_EQ(p.ranks(), P);
    EXPECT_EQ(p.begin(0), 0);
    EXPECT_EQ(p.end(P - 1), g.rows());
    for (int k = 1; k < P; ++k) {
      // first row whose preceding rows hold at least ceil(k*nnz/P) nonzeros
      const GlobalIndex target = (k * nnz + P - 1) / P;
      GlobalIndex before = 0, r = 0;
      while (before < target) before += row_nnz[static_cast<std::size_t>(r++)];
      EXPECT_EQ(p.begin(k), r) << "P=" << P << " k=" << k;
    }
  }
}

TEST(Partition, UnionOfRanksIsTheSingleRankMatrix) {
  const SpinChain g = small_spin();
  std::vector<GlobalIndex> c(g.max_row_entries());
  std::vector<Scalar> v(c.size());
  std::uint64_t whole = fnv_offset;
  for (GlobalIndex r = 0; r < g.rows(); ++r) whole = fnv1a_row(whole, r, c.data(), g.row(r, c.data(), v.data()));
  for (auto kind : {PartitionKind::rows, PartitionKind::nnz})
    for (int P : {1, 2, 3, 4, 7}) {
      const RowPartition p = make_partition(g, kind, P);
      std::uint64_t h = fnv_offset;
      for (int k = 0; k < P; ++k)
        for (GlobalIndex r = p.begin(k); r < p.end(k); ++r) h = fnv1a_row(h, r, c.data(), g.row(r, c.data(), v.data()));
      EXPECT_EQ(h, whole) << "P=" << P;
    }
}

}  // namespace
}  // namespace desync
