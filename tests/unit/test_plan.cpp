// `desync plan` machinery: the papers' TOPI M1-M9 communication table for rank 630 of 1280
// (topi-ordering.md), the profile statistics, and plan totals against the generator.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <sstream>
#include <string>

#include "matrix/make_generator.hpp"
#include "matrix/sampled_nnz.hpp"
#include "matrix/topi_decomposition.hpp"
#include "matrix/local_matrix.hpp"
#include "matrix/sell_matrix.hpp"
#include "plan/plan.hpp"
#include "workloads/spmv/spmv_matrix.hpp"

namespace desync {
namespace {

struct Expected {
  double kb;      // decimal kB as printed
  double half_ulp;  // half a unit of the printed last digit, in bytes
};

// "+1:1049 -20:104.7 ..." -> distance -> expected size
std::map<int, Expected> parse(const std::string& list) {
  std::map<int, Expected> m;
  std::istringstream in(list);
  std::string item;
  while (in >> item) {
    const auto colon = item.find(':');
    const std::string kb = item.substr(colon + 1);
    const auto dot = kb.find('.');
    const int decimals = dot == std::string::npos ? 0 : static_cast<int>(kb.size() - dot - 1);
    m[std::stoi(item.substr(0, colon))] = {std::stod(kb), 0.5 * std::pow(10.0, 3 - decimals)};
  }
  return m;
}

class TopiTable7 : public ::testing::TestWithParam<std::pair<const char*, const char*>> {};

TEST_P(TopiTable7, Rank630PartnersAndSizes) {
  MatrixConfig cfg;
  cfg.generator = GeneratorKind::topi;
  cfg.topi.block = {128, 128, 64};
  cfg.topi.nodes = *topi_decomposition(GetParam().first, 64);
  cfg.topi.boundary = {LatticeBoundary::periodic, LatticeBoundary::periodic, LatticeBoundary::open};
  cfg.topi.ordering = TopiOrdering::node_block;
  cfg.partition = PartitionKind::rows;
  const auto g = make_generator(cfg);
  PlanOptions opt;
  opt.ranks = 1280;
  opt.ranks_per_node = 20;
  opt.nb = 2;
  opt.only_rank = 630;
  const Plan p = build_plan(*g, cfg, opt);
  ASSERT_EQ(p.nr, 268435456);
  ASSERT_EQ(p.ranks_info.size(), 1u);
  const auto expected = parse(GetParam().second);
  std::map<int, std::int64_t> got;
  for (const auto& m : p.ranks_info[0].partners) got[m.distance] = m.bytes;
  std::string got_text;
  for (auto [d, b] : got) got_text += " " + std::to_string(d) + ":" + std::to_string(b);
  ASSERT_EQ(got.size(), expected.size()) << GetParam().first << " partners:" << got_text;
  for (auto [d, e] : expected) {
    ASSERT_TRUE(got.count(d)) << GetParam().first << " misses distance " << d << "; got" << got_text;
    EXPECT_LE(std::fabs(static_cast<double>(got[d]) - 1000.0 * e.kb), e.half_ulp)
        << GetParam().first << " distance " << d << ": " << got[d] << " B";
  }
}

// topi-ordering.md, "Rank 630 (node 31, local rank 10), computed (decimal kB)".
INSTANTIATE_TEST_SUITE_P(
    M1toM9, TopiTable7,
    ::testing::Values(
        std::make_pair("M1", "+1:1049 -1:1049 +20:104.7 -20:104.7 +19:0.128 -19:0.128"),
        std::make_pair("M2", "+1:1049 -1:1049 +20:49.15 -20:49.15 -19:8.19 +19:4.10"),
        std::make_pair("M3", "+1:1049 -1:1049"),
        std::make_pair("M4", "+1:1049 -1:1049 -20:104.7 -19:0.128 +160:49.15 -160:49.15 -159:8.19 +159:4.10"),
        std::make_pair("M5", "+1:1049 -1:1049 -20:104.7 -19:0.128"),
        std::make_pair("M6", "+1:1049 -1:1049 -20:49.15 -19:8.19 -140:49.15 -141:4.10"),
        std::make_pair("M7", "+1:1049 -1:1049 -20:104.7 -19:0.128 -160:49.15 -159:8.19 -480:49.15 -481:4.10"),
        std::make_pair("M8", "+1:1049 -1:1049 -20:104.7 -19:0.128 -80:49.15 -79:8.19 -560:49.15 -561:4.10"),
        std::make_pair("M9", "+1:1049 -1:1049 -20:104.7 -19:0.128 -80:98.3 -79:8.19 -81:4.10")),
    [](const auto& p) { return std::string(p.param.first); });

TEST(PlanProfile, StatisticsOverMessages) {
  std::vector<PlanRank> ranks(3);
  ranks[0].partners = {{1, 10, 100, 1, true}};
  ranks[1].partners = {{0, 10, 100, -1, true}, {2, 30, 300, 1, false}};
  ranks[2].partners = {{1, 50, 500, -1, false}};
  const PlanProfile f = plan_profile(ranks);
  EXPECT_EQ(f.msg_bytes_min, 100);
  EXPECT_EQ(f.msg_bytes_max, 500);
  EXPECT_DOUBLE_EQ(f.msg_bytes_mean, 250.0);
  EXPECT_EQ(f.partners_min, 1);
  EXPECT_EQ(f.partners_max, 2);
  EXPECT_DOUBLE_EQ(f.partners_mean, 4.0 / 3.0);
  ASSERT_EQ(f.distances.size(), 2u);
  EXPECT_EQ(f.distances[0].distance, -1);
  EXPECT_EQ(f.distances[0].count, 2);
  EXPECT_EQ(f.distances[0].bytes, 500);  // median of {100, 500}: the upper middle
  EXPECT_EQ(f.distances[1].bytes, 300);
}

TEST(Plan, TotalsMatchTheGeneratorAndEveryRankIsCovered) {
  MatrixConfig cfg;
  cfg.generator = GeneratorKind::spin;
  cfg.spin.sites = 12;
  cfg.spin.up = 6;
  cfg.partition = PartitionKind::nnz;
  const auto g = make_generator(cfg);
  PlanOptions opt;
  opt.ranks = 5;
  opt.ranks_per_node = 2;
  const Plan p = build_plan(*g, cfg, opt);
  EXPECT_EQ(p.nr, 924);
  EXPECT_EQ(p.nnz, 6468);
  EXPECT_EQ(p.bandwidth, 252);
  ASSERT_EQ(p.ranks_info.size(), 5u);
  GlobalIndex rows = 0;
  for (const auto& r : p.ranks_info) {
    rows += r.rows;
    for (const auto& m : r.partners) {
      EXPECT_NE(m.rank, r.rank);
      EXPECT_EQ(m.distance, m.rank - r.rank);
      EXPECT_EQ(m.intra_node, m.rank / 2 == r.rank / 2);
      EXPECT_EQ(m.bytes, m.entries * 8);
    }
  }
  EXPECT_EQ(rows, 924);
  const std::string json = plan_json(p);
  for (const char* key : {"\"nr\": 924", "\"nnz\": 6468", "\"bandwidth\": 252", "\"partners\": [", "\"profile\": {",
                          "\"msg_bytes_mean\"", "\"intra_node\""})
    EXPECT_NE(json.find(key), std::string::npos) << key;
}

}  // namespace
}  // namespace desync

namespace desync {
namespace {

// Sends per rank are the others' receives from it; the imbalance follows its two formulas; for
// the symmetric minife matrix what a rank sends equals what it receives.
// The memory estimates' sampled nonzeros: no aliasing with a lattice whose period divides the
// sample stride (minife 63^3: 64^3 rows, 2048 samples 128 rows apart all fell on the x = 0 face,
// 18 entries instead of 27: 33 % low); exact where every row is sampled.
TEST(SampledNnz, NoAliasingWithTheLattice) {
  MatrixConfig cfg;
  cfg.generator = GeneratorKind::minife;
  cfg.minife = MinifeParams{{63, 63, 63}, {1, 1, 1}};
  const auto g = make_generator(cfg);
  const double exact = 190.0 * 190.0 * 190.0;  // (3 x 64 - 2)^3
  EXPECT_NEAR(sampled_nnz(*g, 0, g->rows()) / exact, 1.0, 0.03);
  cfg.minife = MinifeParams{{9, 7, 5}, {1, 1, 1}};
  const auto small = make_generator(cfg);
  EXPECT_DOUBLE_EQ(sampled_nnz(*small, 0, small->rows()), 28.0 * 22.0 * 16.0);  // every row: (3 x 10 - 2)(3 x 8 - 2)(3 x 6 - 2)
}

TEST(PlanImbalance, SendsFromReceiveListsOnTheMinifeBox) {
  MatrixConfig cfg;
  cfg.generator = GeneratorKind::minife;
  cfg.partition = PartitionKind::box;
  cfg.minife = MinifeParams{{9, 7, 5}, {3, 2, 1}};
  const auto g = make_generator(cfg);
  PlanOptions opt;
  opt.ranks = 6;
  const Plan p = build_plan(*g, cfg, opt);
  ASSERT_TRUE(p.profile.all_ranks);
  std::vector<double> sent;
  for (int r = 0; r < 6; ++r) {
    std::int64_t to_others = 0, received = 0, messages = 0;
    for (const auto& q : p.ranks_info)
      for (const auto& m : q.partners)
        if (m.rank == r) to_others += m.bytes, ++messages;
    for (const auto& m : p.ranks_info[static_cast<std::size_t>(r)].partners) received += m.bytes;
    EXPECT_EQ(p.profile.send_bytes[static_cast<std::size_t>(r)], to_others);
    EXPECT_EQ(p.profile.send_messages[static_cast<std::size_t>(r)], messages);
    EXPECT_EQ(to_others, received) << "rank " << r << ": a symmetric matrix sends what it receives";
    sent.push_back(static_cast<double>(to_others));
  }
  double mx = 0, mean = 0;
  for (double s : sent) mx = std::max(mx, s), mean += s / 6;
  EXPECT_NEAR(p.profile.bytes_imbalance, mx / mean - 1, 1e-12);
  EXPECT_NEAR(p.profile.bytes_imbalance_of_max, 1 - mean / mx, 1e-12);
  EXPECT_GT(p.profile.bytes_imbalance, 0.0) << "corner boxes have fewer neighbours than middle ones";
}

}  // namespace
}  // namespace desync

namespace desync {
namespace {

// The spy grid is counted during the plan's scan: every nonzero lands in the block of its row and
// column (block of index i = floor(i G / nr)), so the grid sums to nnz and each block holds
// exactly the nonzeros a direct count of the generated rows puts there. G = 0 counts nothing.
TEST(PlanSpyGrid, CountsEveryNonzeroInItsBlock) {
  MatrixConfig cfg;
  cfg.generator = GeneratorKind::spin;
  cfg.spin.sites = 12;
  cfg.spin.up = 6;
  cfg.partition = PartitionKind::rows;
  const auto g = make_generator(cfg);
  PlanOptions opt;
  opt.ranks = 5;
  opt.spy_grid = 7;  // 924 rows: blocks of 132 rows
  const Plan p = build_plan(*g, cfg, opt);
  ASSERT_EQ(p.spy.size, 7);
  ASSERT_EQ(p.spy.counts.size(), 49u);
  std::vector<std::int64_t> direct(49, 0);
  std::vector<GlobalIndex> cols(static_cast<std::size_t>(g->max_row_entries()));
  std::vector<Scalar> vals(cols.size());
  for (GlobalIndex r = 0; r < g->rows(); ++r) {
    const int n = g->row(r, cols.data(), vals.data());
    for (int i = 0; i < n; ++i) ++direct[static_cast<std::size_t>(r * 7 / 924 * 7 + cols[static_cast<std::size_t>(i)] * 7 / 924)];
  }
  EXPECT_EQ(p.spy.counts, direct);
  std::int64_t sum = 0;
  for (auto c : p.spy.counts) sum += c;
  EXPECT_EQ(sum, p.nnz);
  EXPECT_EQ(SpyGrid::edge(0, 924, 7), 0);
  EXPECT_EQ(SpyGrid::edge(1, 924, 7), 132);
  EXPECT_EQ(SpyGrid::edge(7, 924, 7), 924);
  const std::string json = plan_json(p);
  EXPECT_NE(json.find("\"spy_grid\": {\"size\": 7, \"edges\": [0, 132, 264, 396, 528, 660, 792, 924]"), std::string::npos);

  opt.spy_grid = 0;
  const Plan none = build_plan(*g, cfg, opt);
  EXPECT_EQ(none.spy.size, 0);
  EXPECT_TRUE(none.spy.counts.empty());
  EXPECT_EQ(plan_json(none).find("spy_grid"), std::string::npos);

  opt.spy_grid = -1;  // default: min(256, nr)
  opt.only_rank = 2;  // one rank scanned: its rows only
  const Plan one = build_plan(*g, cfg, opt);
  ASSERT_EQ(one.spy.size, 256);
  sum = 0;
  for (auto c : one.spy.counts) sum += c;
  EXPECT_EQ(sum, one.nnz);
}

// The plan's SELL-C-sigma fill-in is that of the matrices the ranks build (whole rows and the
// own-column part), and chunk alignment starts every rank on a chunk and changes the messages.
TEST(PlanSell, BetaIsTheBuiltMatricesAndAlignmentMovesBoundaries) {
  MatrixConfig cfg;
  cfg.generator = GeneratorKind::spin;
  cfg.spin.sites = 12;
  cfg.spin.up = 6;
  cfg.format = MatrixFormat::sell;
  cfg.sell = {8, 32, false};
  const auto g = make_generator(cfg);
  PlanOptions opt;
  opt.ranks = 7;
  opt.spy_grid = 0;
  const Plan p = build_plan(*g, cfg, opt);
  for (const PlanRank& r : p.ranks_info) {
    const LocalMatrix<double> m = build_local_matrix<double>(*g, p.partition, r.rank);
    const SellMatrix<double> whole = make_sell(m.row_ptr, m.col, m.val, m.rows, 8, 32, "test");
    EXPECT_EQ(r.sell_stored, whole.stored) << "rank " << r.rank;
    const SplitMatrix split = split_matrix(m, false);
    const SellMatrix<double> own = make_sell(split.local.row_ptr, split.local.col, split.local.val, m.rows, 8, 32, "test");
    EXPECT_EQ(r.sell_stored_local, own.stored) << "rank " << r.rank;
    EXPECT_EQ(r.local_nnz, split.local.nnz);
  }
  EXPECT_GT(p.sell_beta, 0.5);
  EXPECT_LT(p.sell_beta, 1.0) << "SPIN rows differ in length: some padding";
  EXPECT_NE(plan_text(p).find("SELL-8-32"), std::string::npos);
  EXPECT_NE(plan_json(p).find("\"beta_local\""), std::string::npos);

  cfg.sell.align_rows = true;
  const Plan a = build_plan(*g, cfg, opt);
  bool moved = false;
  for (int k = 1; k < opt.ranks; ++k) {
    EXPECT_EQ(a.partition.begin(k) % 8, 0);
    moved = moved || a.partition.begin(k) != p.partition.begin(k);
  }
  ASSERT_TRUE(moved) << "924 rows over 7 ranks: 132-row blocks are not multiples of 8";
  EXPECT_NE(a.profile.msg_bytes_mean, p.profile.msg_bytes_mean) << "moved boundaries change the halo";
}

}  // namespace
}  // namespace desync
