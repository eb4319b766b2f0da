// TOPI generator (matrices.md §5, topi-ordering.md): the published test vectors and the closed-form
// counts, checked against full enumeration. Orderings, pattern, values, disorder and parameter
// validation: test_topi_structure.cpp; shared helpers: topi_test_support.hpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <ios>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "topi_test_support.hpp"

namespace desync::test::topi {
namespace {

// --- Published numbers --------------------------------------------------------------------------

struct Vector {
  TopiExtent lattice, block;
  Bc bc;
  GlobalIndex nr, nnz, bw;
  std::uint64_t hash;
};

TEST(Topi, MatchesTheSpecTestVectors) {  // matrices.md §9, ScaMaC block order, m = 2
  const std::vector<Vector> vectors = {
      {{4, 4, 4}, {2, 2, 2}, {P, P, P}, 256, 3328, 145, 0xc74f1a1fd3bb6925ull},
      {{4, 4, 4}, {2, 2, 2}, {P, P, O}, 256, 3072, 113, 0x32c59a2e9b5e9525ull},
      {{3, 5, 4}, {2, 2, 3}, {P, P, O}, 240, 2880, 149, 0xfaa2290aa2be7d25ull},
      {{6, 4, 4}, {3, 2, 4}, {O, P, P}, 384, 4736, 207, 0x519ae9007d7d7a55ull},
      {{4, 4, 4}, {4, 4, 4}, {P, P, P}, 256, 3328, 193, 0xf0733527709b2325ull},
  };
  for (const auto& v : vectors) {
    SCOPED_TRACE(describe({v.lattice, v.block, v.block}, v.bc, TopiOrdering::scamac));
    const TopologicalInsulator g(params(v.block, {1, 1, 1}, v.bc, TopiOrdering::scamac), v.lattice);
    const MatrixSummary s = summarize(g);
    EXPECT_EQ(s.bad_rows, 0);
    EXPECT_EQ(s.nr, v.nr);
    EXPECT_EQ(s.nnz, v.nnz);
    EXPECT_EQ(s.bandwidth, v.bw);
    EXPECT_EQ(s.hash, v.hash) << std::hex << s.hash;
    EXPECT_EQ(topi_nnz(v.lattice, v.bc, 1.0, true), v.nnz);
    // Where the block tiles the lattice, the TopiParams constructor (L = block * nodes) agrees.
    if (v.lattice[0] % v.block[0] == 0 && v.lattice[1] % v.block[1] == 0 && v.lattice[2] % v.block[2] == 0) {
      const TopiExtent nodes{v.lattice[0] / v.block[0], v.lattice[1] / v.block[1], v.lattice[2] / v.block[2]};
      const TopiParams p = params(v.block, nodes, v.bc, TopiOrdering::scamac);
      const TopologicalInsulator g2(p);
      EXPECT_EQ(g2.lattice(), v.lattice);
      const MatrixSummary s2 = summarize(g2);
      EXPECT_EQ(s2.bad_rows, 0);
      EXPECT_EQ(s2.hash, v.hash);
      EXPECT_EQ(topi_nnz(p), v.nnz);
    }
  }
}

TEST(Topi, PeriodicExtentTwoCancelsTheOffDiagonalOrbitals) {  // matrices.md §5.3: 960, not 1056
  for (auto o : {TopiOrdering::scamac, TopiOrdering::node_block}) {
    const TopologicalInsulator g(params({1, 3, 2}, {2, 1, 2}, {P, P, P}, o));
    const MatrixSummary s = summarize(g);
    EXPECT_EQ(s.bad_rows, 0);
    EXPECT_EQ(s.nr, 96);
    EXPECT_EQ(s.nnz, 960);
    EXPECT_EQ(topi_nnz(params({1, 3, 2}, {2, 1, 2}, {P, P, P}, o)), 960);
  }
}

TEST(Topi, IscCaseSingleBlockFullyPeriodic) {  // matrices.md §5.4 / §8: 128 x 64 x 64
  const TopiParams p = params({128, 64, 64}, {1, 1, 1}, {P, P, P}, TopiOrdering::scamac);
  const MatrixSummary s = summarize(TopologicalInsulator(p));
  EXPECT_EQ(s.bad_rows, 0);
  EXPECT_EQ(s.nr, 2097152);
  EXPECT_EQ(s.nnz, 27262976);
  EXPECT_EQ(s.bandwidth, 2064385);
  EXPECT_EQ(topi_nnz(p), 27262976);
}

TEST(Topi, ClosedFormReproducesThePublishedLargeCounts) {  // §5.4 and topi-ordering.md
  auto nnz = [](TopiExtent nodes, Bc bc) {
    return topi_nnz(params({128, 128, 64}, nodes, bc, TopiOrdering::node_block));
  };
  EXPECT_EQ(TopologicalInsulator(params({128, 128, 64}, {2, 4, 8}, {P, P, O}, TopiOrdering::node_block)).rows(),
            268435456);
  EXPECT_EQ(nnz({2, 4, 8}, {P, P, O}), 3487563776);
  EXPECT_EQ(nnz({4, 2, 8}, {P, P, O}), 3487563776);
  EXPECT_EQ(nnz({4, 4, 4}, {O, P, P}), 3487563776);
  EXPECT_EQ(nnz({4, 4, 4}, {P, P, O}), 3485466624);
  // Missing entries by mz (periodic x, y, open z, 64 nodes), §5.4.
  const std::vector<std::pair<TopiExtent, GlobalIndex>> missing = {
      {{8, 8, 1}, 16777216}, {{4, 8, 2}, 8388608}, {{4, 4, 4}, 4194304}, {{2, 4, 8}, 2097152},
      {{2, 2, 16}, 1048576}, {{1, 2, 32}, 524288}, {{1, 1, 64}, 262144}};
  for (const auto& [nodes, m] : missing) EXPECT_EQ(13 * GlobalIndex{268435456} - nnz(nodes, {P, P, O}), m);
  // topi-ordering.md: the M1-M9 grids.
  EXPECT_EQ(nnz({1, 1, 64}, {P, P, O}), 3489398784);
  EXPECT_EQ(nnz({1, 64, 1}, {P, P, O}), 3472883712);
  EXPECT_EQ(nnz({8, 8, 1}, {P, P, O}), 3472883712);
  EXPECT_EQ(nnz({1, 8, 8}, {P, P, O}), 3487563776);
  EXPECT_EQ(nnz({8, 1, 8}, {P, P, O}), 3487563776);
  EXPECT_EQ(nnz({2, 8, 4}, {P, P, O}), 3485466624);
  EXPECT_EQ(nnz({8, 2, 4}, {P, P, O}), 3485466624);
}

// --- Enumeration against the closed form and the independent model ------------------------------

TEST(Topi, ClosedFormMatchesEnumeration) {
  const std::vector<std::tuple<double, double, double>> values = {  // mass, disorder, t
      {2.0, 0.0, 1.0}, {0.0, 0.0, 1.0}, {0.0, 1.0, 1.0}, {-1.5, 0.5, 0.7}, {2.0, 0.0, 0.0}};
  for (const auto& c : cases)
    for (const auto& bc : all_boundaries())
      for (auto o : {TopiOrdering::scamac, TopiOrdering::node_block})
        for (const auto& [mass, disorder, t] : values) {
          SCOPED_TRACE(describe(c, bc, o) + " mass " + std::to_string(mass) + " disorder " +
                       std::to_string(disorder) + " t " + std::to_string(t));
          const MatrixSummary s = summarize(make(c, o, bc, mass, disorder, t));
          EXPECT_EQ(s.bad_rows, 0);
          const bool diagonal = mass != 0.0 || disorder != 0.0;
          EXPECT_EQ(s.nr, 4 * c.lattice[0] * c.lattice[1] * c.lattice[2]);
          EXPECT_EQ(s.nnz, topi_nnz(c.lattice, bc, t, diagonal));
          // The spec's form, 13 nr - sum over open d of 16 A_d, where it applies.
          if (diagonal && t != 0.0 && std::min({c.lattice[0], c.lattice[1], c.lattice[2]}) >= 3) {
            GlobalIndex expect = 13 * s.nr;
            for (int d = 0; d < 3; ++d)
              if (bc[d] == O) expect -= 16 * (s.nr / 4 / c.lattice[d]);
            EXPECT_EQ(s.nnz, expect);
          }
        }
}

}  // namespace
}  // namespace desync::test::topi
