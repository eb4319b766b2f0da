// TOPI generator (matrices.md §5, topi-ordering.md): the node-block walk against its formula, the
// pattern against the independent lattice model, the orderings as permutations of one matrix,
// Hermiticity, the disorder, concurrent rows, and parameter validation. Counts: test_topi.cpp.
// A hand-run check of the full paper case (disabled, so not run by ctest): streams all 268M rows
// with DESYNC_STREAM_THREADS threads (default 2); DESYNC_TOPI_ORDERING=scamac for the other order.
//   ./tests/test_topi --gtest_also_run_disabled_tests --gtest_filter='*PaperCase*'
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "topi_test_support.hpp"

namespace desync::test::topi {
namespace {

// --- Orderings and pattern against the independent model ----------------------------------------

TEST(Topi, NodeBlockWalkAgreesWithTheDocumentedFormula) {
  for (const auto& c : cases) {
    const auto site = walk_numbering(c.lattice, c.node_block, TopiOrdering::node_block);
    for (GlobalIndex z = 0; z < c.lattice[2]; ++z)
      for (GlobalIndex y = 0; y < c.lattice[1]; ++y)
        for (GlobalIndex x = 0; x < c.lattice[0]; ++x)
          ASSERT_EQ(site[static_cast<std::size_t>(lex(c.lattice, x, y, z))],
                    node_block_formula(c.lattice, c.node_block, x, y, z));
  }
  // topi-ordering.md's numbers for one 128 x 128 x 64 node block of a 2-4-8 machine.
  const TopiExtent L{256, 512, 512}, b{128, 128, 64};
  EXPECT_EQ(node_block_formula(L, b, 0, 0, 1), 1);
  EXPECT_EQ(node_block_formula(L, b, 0, 1, 0), 64);
  EXPECT_EQ(node_block_formula(L, b, 1, 0, 0), 8192);
  EXPECT_EQ(node_block_formula(L, b, 0, 0, 64), 1048576);         // next z node: stride 1
  EXPECT_EQ(node_block_formula(L, b, 0, 128, 0), 8 * 1048576);    // next y node: stride mz
  EXPECT_EQ(node_block_formula(L, b, 128, 0, 0), 32 * 1048576);   // next x node: stride my mz
}

TEST(Topi, PatternEqualsTheIndependentLatticeModel) {
  for (const auto& c : cases)
    for (const auto& bc : all_boundaries())
      for (auto o : {TopiOrdering::scamac, TopiOrdering::node_block})
        for (double mass : {2.0, 0.0}) {
          SCOPED_TRACE(describe(c, bc, o) + (mass != 0.0 ? " mass" : " no mass"));
          const TopiExtent& b = o == TopiOrdering::node_block ? c.node_block : c.scamac_block;
          const auto site = walk_numbering(c.lattice, b, o);
          const auto expect = model_pattern(c.lattice, bc, mass != 0.0, site);
          const TopologicalInsulator g = make(c, o, bc, mass, 0.0);
          std::set<std::pair<GlobalIndex, GlobalIndex>> got;
          for (const auto& [ij, v] : entries(g)) got.insert(ij);
          ASSERT_EQ(got, expect);
          // site_of / coords_of agree with the walk.
          for (GlobalIndex z = 0; z < c.lattice[2]; ++z)
            for (GlobalIndex y = 0; y < c.lattice[1]; ++y)
              for (GlobalIndex x = 0; x < c.lattice[0]; ++x) {
                const GlobalIndex s = site[static_cast<std::size_t>(lex(c.lattice, x, y, z))];
                ASSERT_EQ(g.site_of({x, y, z}), s);
                ASSERT_EQ(g.coords_of(s), (TopiExtent{x, y, z}));
              }
        }
}

// (lattice point, orbital) pairs with values: the matrix with the ordering factored out.
using Couplings = std::map<std::pair<std::pair<GlobalIndex, int>, std::pair<GlobalIndex, int>>, Scalar>;

Couplings couplings(const MatrixGenerator& g, const std::vector<GlobalIndex>& site_of_lex) {
  std::vector<GlobalIndex> lex_of_site(site_of_lex.size());
  for (std::size_t l = 0; l < site_of_lex.size(); ++l)
    lex_of_site[static_cast<std::size_t>(site_of_lex[l])] = static_cast<GlobalIndex>(l);
  Couplings c;
  for (const auto& [ij, v] : entries(g))
    c[{{lex_of_site[static_cast<std::size_t>(ij.first / 4)], static_cast<int>(ij.first % 4)},
       {lex_of_site[static_cast<std::size_t>(ij.second / 4)], static_cast<int>(ij.second % 4)}}] = v;
  return c;
}

TEST(Topi, OrderingsArePermutationsOfOneMatrix) {
  for (const auto& c : cases)
    for (const auto& bc : all_boundaries()) {
      SCOPED_TRACE(describe(c, bc, TopiOrdering::scamac));
      const auto a = couplings(make(c, TopiOrdering::scamac, bc, 1.5, 0.8, 1.3),
                               walk_numbering(c.lattice, c.scamac_block, TopiOrdering::scamac));
      const auto b = couplings(make(c, TopiOrdering::node_block, bc, 1.5, 0.8, 1.3),
                               walk_numbering(c.lattice, c.node_block, TopiOrdering::node_block));
      ASSERT_FALSE(a.empty());
      ASSERT_EQ(a, b);
    }
}

// --- Values ---------------------------------------------------------------------------------------

TEST(Topi, HermitianWithTheDocumentedValues) {
  const double t = 1.3, mass = 1.5, disorder = 0.8;
  const std::array<double, 4> gamma1{1.0, -1.0, 1.0, -1.0};
  for (const auto& c : cases)
    for (const auto& bc : all_boundaries())
      for (auto o : {TopiOrdering::scamac, TopiOrdering::node_block}) {
        SCOPED_TRACE(describe(c, bc, o));
        const TopologicalInsulator g = make(c, o, bc, mass, disorder, t);
        const Entries e = entries(g);
        for (const auto& [ij, v] : e) {
          const auto back = e.find({ij.second, ij.first});
          ASSERT_NE(back, e.end()) << ij.first << "," << ij.second;
          ASSERT_EQ(back->second, std::conj(v)) << ij.first << "," << ij.second;
          const int a = static_cast<int>(ij.first % 4), b = static_cast<int>(ij.second % 4);
          if (ij.first == ij.second) {
            // mass Gamma1 plus the site's potential, the same for the site's four orbitals
            const GlobalIndex s = ij.first / 4;
            const double vsite = g.potential(g.coords_of(s));
            EXPECT_EQ(v, Scalar(mass * gamma1[static_cast<std::size_t>(a)] + vsite));
            EXPECT_LE(std::abs(vsite), disorder / 2);
          } else if (ij.first / 4 == ij.second / 4) {
            ADD_FAILURE() << "on-site off-diagonal orbital entry " << ij.first << "," << ij.second;
          } else if (a == b) {
            // orbital-diagonal hopping: -(t/2) Gamma1[a][a] per neighbour; doubled where the two
            // neighbours coincide (L_d = 2 periodic)
            const double h = -0.5 * t * gamma1[static_cast<std::size_t>(a)];
            EXPECT_TRUE(v == Scalar(h) || v == Scalar(2 * h)) << v;
          } else {
            // -(t/2) times +-1 or +-i
            EXPECT_TRUE(v == Scalar(t / 2) || v == Scalar(-t / 2) || v == Scalar(0, t / 2) || v == Scalar(0, -t / 2))
                << v;
          }
        }
      }
}

TEST(Topi, DisorderIsDeterministicPerSiteAndUniform) {
  const TopiParams p = params({8, 8, 8}, {2, 2, 2}, {P, P, O}, TopiOrdering::node_block, 0.0, 2.0);
  const TopologicalInsulator g(p), same(p);
  TopiParams q = p;
  q.seed = p.seed + 1;
  const TopologicalInsulator other(q);
  double lo = 1e9, hi = -1e9, sum = 0;
  int differ = 0;
  const TopiExtent L = g.lattice();
  for (GlobalIndex z = 0; z < L[2]; ++z)
    for (GlobalIndex y = 0; y < L[1]; ++y)
      for (GlobalIndex x = 0; x < L[0]; ++x) {
        const double v = g.potential({x, y, z});
        ASSERT_EQ(v, same.potential({x, y, z}));
        ASSERT_NE(v, 0.0);
        differ += v != other.potential({x, y, z});
        lo = std::min(lo, v);
        hi = std::max(hi, v);
        sum += v;
      }
  const double n = static_cast<double>(L[0] * L[1] * L[2]);  // 4096 sites
  EXPECT_GE(lo, -1.0);
  EXPECT_LE(hi, 1.0);
  EXPECT_LT(lo, -0.95);
  EXPECT_GT(hi, 0.95);
  EXPECT_LT(std::abs(sum / n), 0.05);
  EXPECT_GT(differ, 4000);
  // With mass 0 the diagonal is the potential itself, identical for the 4 orbitals of a site.
  std::vector<GlobalIndex> cols(13);
  std::vector<Scalar> vals(13);
  for (GlobalIndex r = 0; r < g.rows(); r += 37) {
    const int k = g.row(r, cols.data(), vals.data());
    const auto it = std::find(cols.begin(), cols.begin() + k, r);
    ASSERT_NE(it, cols.begin() + k);
    EXPECT_EQ(vals[static_cast<std::size_t>(it - cols.begin())], Scalar(g.potential(g.coords_of(r / 4))));
  }
}

TEST(Topi, ConcurrentRowsEqualSequentialRows) {
  const TopologicalInsulator g(params({3, 4, 2}, {2, 2, 3}, {P, O, P}, TopiOrdering::node_block, 1.0, 0.5));
  const Entries want = entries(g);
  std::vector<Entries> got(2);
  std::vector<std::thread> threads;
  for (int k = 0; k < 2; ++k)
    threads.emplace_back([&, k] {
      GlobalIndex cols[13];
      Scalar vals[13];
      for (GlobalIndex r = g.rows() - 1 - k; r >= 0; r -= 2) {
        const int n = g.row(r, cols, vals);
        for (int i = 0; i < n; ++i) got[static_cast<std::size_t>(k)][{r, cols[i]}] = vals[i];
      }
    });
  for (auto& th : threads) th.join();
  Entries merged = got[0];
  merged.insert(got[1].begin(), got[1].end());
  EXPECT_EQ(merged, want);
}

TEST(Topi, InvalidParametersThrow) {
  const auto no = TopiOrdering::node_block;
  const TopiParams ok = params({2, 2, 2}, {1, 1, 1}, {P, P, O}, no);
  EXPECT_NO_THROW(TopologicalInsulator{ok});
  auto with = [&](auto change) {
    TopiParams p = ok;
    change(p);
    return p;
  };
  EXPECT_THROW(TopologicalInsulator{with([](TopiParams& p) { p.block[1] = 0; })}, std::invalid_argument);
  EXPECT_THROW(TopologicalInsulator{with([](TopiParams& p) { p.block[2] = -4; })}, std::invalid_argument);
  EXPECT_THROW(TopologicalInsulator{with([](TopiParams& p) { p.nodes[0] = 0; })}, std::invalid_argument);
  EXPECT_THROW(TopologicalInsulator{with([](TopiParams& p) { p.disorder = -1.0; })}, std::invalid_argument);
  EXPECT_THROW(TopologicalInsulator{with([](TopiParams& p) { p.t = std::nan(""); })}, std::invalid_argument);
  EXPECT_THROW(TopologicalInsulator{with([](TopiParams& p) { p.mass = std::numeric_limits<double>::infinity(); })},
               std::invalid_argument);
  EXPECT_THROW(TopologicalInsulator{with([](TopiParams& p) { p.boundary[0] = static_cast<LatticeBoundary>(7); })},
               std::invalid_argument);
  EXPECT_THROW(TopologicalInsulator{with([](TopiParams& p) { p.ordering = static_cast<TopiOrdering>(9); })},
               std::invalid_argument);
  // 2^63 sites, and 2^62 sites (4 rows each): beyond 64-bit indices
  EXPECT_THROW(TopologicalInsulator{with([](TopiParams& p) { p.block = {1 << 21, 1 << 21, 1 << 21}; })},
               std::invalid_argument);
  EXPECT_THROW(TopologicalInsulator{with([](TopiParams& p) { p.block = {1 << 20, 1 << 21, 1 << 21}; })},
               std::invalid_argument);
  EXPECT_THROW(topi_nnz(with([](TopiParams& p) { p.nodes[2] = 0; })), std::invalid_argument);
  // explicit lattice: node-block needs tiling blocks; scamac does not
  EXPECT_THROW(TopologicalInsulator(ok, TopiExtent{3, 4, 4}), std::invalid_argument);
  EXPECT_THROW(TopologicalInsulator(ok, TopiExtent{4, 0, 4}), std::invalid_argument);
  TopiParams sc = ok;
  sc.ordering = TopiOrdering::scamac;
  EXPECT_NO_THROW(TopologicalInsulator(sc, TopiExtent{3, 5, 1}));
}

// --- Hand-run: the paper's 2-4-8 x 128-128-64 case, every row streamed ------------------------

TEST(TopiLarge, DISABLED_PaperCaseStreamsEveryRow) {
  const char* env = std::getenv("DESYNC_STREAM_THREADS");
  const int threads = env ? std::max(1, std::atoi(env)) : 2;
  const char* ord = std::getenv("DESYNC_TOPI_ORDERING");
  const bool scamac = ord && std::string(ord) == "scamac";
  const TopiParams p =
      params({128, 128, 64}, {2, 4, 8}, {P, P, O}, scamac ? TopiOrdering::scamac : TopiOrdering::node_block);
  const TopologicalInsulator g(p);
  ASSERT_EQ(g.rows(), 268435456);
  std::vector<GlobalIndex> nnz(static_cast<std::size_t>(threads)), bw(nnz.size());
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<std::thread> pool;
  for (int k = 0; k < threads; ++k)
    pool.emplace_back([&, k] {
      const GlobalIndex r0 = g.rows() / threads * k, r1 = k + 1 == threads ? g.rows() : g.rows() / threads * (k + 1);
      GlobalIndex cols[13];
      Scalar vals[13];
      GlobalIndex count = 0, band = 0;
      for (GlobalIndex r = r0; r < r1; ++r) {
        const int n = g.row(r, cols, vals);
        count += n;
        band = std::max({band, r - cols[0], cols[n - 1] - r});
      }
      nnz[static_cast<std::size_t>(k)] = count;
      bw[static_cast<std::size_t>(k)] = band;
    });
  for (auto& th : pool) th.join();
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  GlobalIndex total = 0, band = 0;
  for (std::size_t k = 0; k < nnz.size(); ++k) {
    total += nnz[k];
    band = std::max(band, bw[k]);
  }
  std::printf("TOPI 2-4-8 x 128-128-64 (per, per, open), %s ordering, %d threads: nr %lld nnz %lld bandwidth %lld\n"
              "  %.2f s, %.2f M rows/s, %.1f M nonzeros/s\n",
              scamac ? "scamac" : "node-block", threads, static_cast<long long>(g.rows()),
              static_cast<long long>(total), static_cast<long long>(band), s, g.rows() / s / 1e6, total / s / 1e6);
  EXPECT_EQ(total, 3487563776);
  EXPECT_EQ(total, topi_nnz(p));
  if (scamac) {
    EXPECT_EQ(band, 29425665);  // matrices.md §5.4
  }
}

}  // namespace
}  // namespace desync::test::topi
