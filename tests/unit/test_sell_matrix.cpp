// SELL-C-sigma construction (matrix/sell_matrix.hpp): every CRS entry stored once in its row's
// lane in CRS order, padding zero, rows sorted only inside sigma windows, beta = nnz / stored;
// and GHOST's chunk-aligned partition.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <vector>

#include "matrix/local_matrix.hpp"
#include "matrix/row_partition.hpp"
#include "matrix/sell_matrix.hpp"
#include "matrix/spin_chain.hpp"
#include "matrix/topological_insulator.hpp"

namespace desync {
namespace {

template <class T>
void expect_sell_holds_crs(const LocalMatrix<T>& m, int chunk, int sigma) {
  const SellMatrix<T> s = make_sell(m.row_ptr, m.col, m.val, m.rows, chunk, sigma, "test");
  auto rp = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), m.row_ptr);
  auto col = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), m.col);
  auto val = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), m.val);
  auto cp = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), s.chunk_ptr);
  auto ro = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), s.row_of);
  auto sc = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), s.col);
  auto sv = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), s.val);
  ASSERT_EQ(s.chunks, (m.rows + chunk - 1) / chunk);
  EXPECT_EQ(s.nnz, m.nnz);
  EXPECT_EQ(s.stored, static_cast<std::int64_t>(cp(s.chunks)));
  EXPECT_DOUBLE_EQ(s.beta(), static_cast<double>(m.nnz) / static_cast<double>(s.stored));
  std::vector<int> seen(static_cast<std::size_t>(m.rows), 0);
  for (std::int32_t c = 0; c < s.chunks; ++c) {
    const std::size_t width = (cp(c + 1) - cp(c)) / chunk;
    ASSERT_EQ((cp(c + 1) - cp(c)) % chunk, 0u);
    bool full = false;
    for (int l = 0; l < chunk; ++l) {
      const std::int32_t r = ro(static_cast<std::size_t>(c) * chunk + l);
      const std::size_t n = r < 0 ? 0 : rp(r + 1) - rp(r);
      full = full || n == width;
      if (r >= 0) {
        ++seen[static_cast<std::size_t>(r)];
        // Sorted only inside its window: the row stays in the window of its slot.
        if (sigma > 1) {
          EXPECT_EQ(r / sigma, (c * chunk + l) / sigma);
        } else {
          EXPECT_EQ(r, c * chunk + l);
        }
      }
      for (std::size_t j = 0; j < width; ++j) {
        const std::size_t e = cp(c) + j * chunk + l;
        if (j < n) {
          EXPECT_EQ(sc(e), col(rp(r) + j));
          EXPECT_TRUE(sv(e) == val(rp(r) + j));
        } else {
          EXPECT_EQ(sc(e), 0);
          EXPECT_TRUE(sv(e) == T(0.0)) << "padding must be zero";
        }
      }
    }
    EXPECT_TRUE(full || width == 0) << "chunk " << c << " wider than its longest row";
  }
  for (auto k : seen) ASSERT_EQ(k, 1) << "every row in exactly one lane";
  std::vector<std::int32_t> lengths(static_cast<std::size_t>(m.rows));
  for (std::int32_t i = 0; i < m.rows; ++i) lengths[static_cast<std::size_t>(i)] = static_cast<std::int32_t>(rp(i + 1) - rp(i));
  EXPECT_DOUBLE_EQ(sell_beta(lengths, chunk, sigma), s.beta()) << "plan's beta is the built matrix's";
}

TEST(SellMatrix, HoldsEveryCrsEntryInOrderRealAndComplex) {
  SpinParams sp;
  sp.sites = 10;
  sp.up = 5;
  const SpinChain spin(sp);
  TopiParams tp;
  tp.block = {3, 2, 4};
  tp.disorder = 0.5;
  const TopologicalInsulator topi(tp);
  for (int ranks : {1, 3}) {
    const auto ps = partition_by_rows(spin.rows(), ranks);
    const auto pt = partition_by_rows(topi.rows(), ranks);
    for (auto [c, sigma] : std::vector<std::pair<int, int>>{{1, 1}, {4, 1}, {4, 16}, {8, 8}, {32, 64}, {2, 1 << 20}}) {
      expect_sell_holds_crs(build_local_matrix<double>(spin, ps, ranks - 1), c, sigma);
      expect_sell_holds_crs(build_local_matrix<Complex>(topi, pt, ranks - 1), c, sigma);
    }
  }
}

TEST(SellMatrix, SortingScopeReducesPadding) {
  const std::vector<std::int32_t> lengths{1, 9, 1, 9, 1, 9, 1, 9};
  EXPECT_DOUBLE_EQ(sell_beta(lengths, 2, 1), 40.0 / 72.0);  // every chunk {1, 9}: padded to 9
  EXPECT_DOUBLE_EQ(sell_beta(lengths, 2, 8), 1.0);          // sorted: {9, 9} {9, 9} {1, 1} {1, 1}
  EXPECT_DOUBLE_EQ(sell_beta(lengths, 1, 1), 1.0);          // C = 1 is CRS
  EXPECT_DOUBLE_EQ(sell_beta({}, 4, 4), 1.0);
  const auto order = sell_row_order({3, 5, 5, 1, 2, 7}, 4);  // windows {0..3} {4, 5}; stable
  EXPECT_EQ(order, (std::vector<std::int32_t>{1, 2, 0, 3, 5, 4}));
  EXPECT_THROW(sell_beta(lengths, 3, 1), std::invalid_argument);
  EXPECT_THROW(sell_beta(lengths, 4, 6), std::invalid_argument);
}

TEST(SellMatrix, AlignedPartitionStartsRanksOnChunks) {
  for (GlobalIndex nr : {5, 64, 1000, 1003})
    for (int ranks : {1, 2, 3, 7, 16})
      for (int c : {1, 4, 32}) {
        const RowPartition p = align_partition(partition_by_rows(nr, ranks), c);
        ASSERT_EQ(p.ranks(), ranks);
        EXPECT_EQ(p.begin(0), 0);
        EXPECT_EQ(p.end(ranks - 1), nr);
        const RowPartition plain = partition_by_rows(nr, ranks);
        for (int k = 1; k < ranks; ++k) {
          EXPECT_LE(p.begin(k - 1), p.begin(k));
          EXPECT_TRUE(p.begin(k) % c == 0 || p.begin(k) == nr || p.begin(k) == p.begin(k - 1)) << nr << " " << ranks << " " << c;
          EXPECT_LE(std::abs(p.begin(k) - plain.begin(k)), c) << "moved to a neighbouring chunk edge at most";
        }
      }
}

}  // namespace
}  // namespace desync
