// TOPI generator (matrices.md §5, topi-ordering.md): the published test vectors, the closed-form
// counts, an independent lattice model of the pattern under both orderings, the orderings as
// permutations of one matrix, Hermiticity, the disorder, and parameter validation.
// A hand-run check of the full paper case (disabled, so not run by ctest): streams all 268M rows
// with DESYNC_STREAM_THREADS threads (default 2); DESYNC_TOPI_ORDERING=scamac for the other order.
//   ./tests/test_topi --gtest_also_run_disabled_tests --gtest_filter='*PaperCase*'
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

#include "matrix/topological_insulator.hpp"
#include "matrix_summary.hpp"

namespace desync {
namespace {

constexpr LatticeBoundary O = LatticeBoundary::open;
constexpr LatticeBoundary P = LatticeBoundary::periodic;
using Bc = std::array<LatticeBoundary, 3>;

TopiParams params(const TopiExtent& block, const TopiExtent& nodes, const Bc& bc, TopiOrdering ordering,
                  double mass = 2.0, double disorder = 0.0, double t = 1.0) {
  TopiParams p;
  p.block = block;
  p.nodes = nodes;
  p.boundary = bc;
  p.ordering = ordering;
  p.mass = mass;
  p.disorder = disorder;
  p.t = t;
  return p;
}

using test::MatrixSummary;

// Every row, in order (rows sorted, duplicate-free and inside the matrix: bad_rows); also checks
// that no stored value is zero, reporting the first few.
MatrixSummary summarize(const MatrixGenerator& g) {
  int bad = 0;
  return test::summarize(g, [&bad](GlobalIndex r, GlobalIndex c, const Scalar& v) {
    if (v == Scalar(0.0) && bad++ < 5) ADD_FAILURE() << "row " << r << " col " << c << " stores a zero";
  });
}

using Entries = std::map<std::pair<GlobalIndex, GlobalIndex>, Scalar>;

Entries entries(const MatrixGenerator& g) {
  Entries e;
  std::vector<GlobalIndex> cols(static_cast<std::size_t>(g.max_row_entries()));
  std::vector<Scalar> vals(cols.size());
  for (GlobalIndex r = 0; r < g.rows(); ++r) {
    const int n = g.row(r, cols.data(), vals.data());
    for (int i = 0; i < n; ++i) e[{r, cols[i]}] = vals[i];
  }
  return e;
}

// --- Test-side model, written from the documents, independent of the generator -----------------

GlobalIndex lex(const TopiExtent& L, GlobalIndex x, GlobalIndex y, GlobalIndex z) { return x + L[0] * (y + L[1] * z); }

// site number of every lattice point (indexed by lex), by walking the lattice in the documented
// order and counting: scamac per matrices.md §5.2, node-block per topi-ordering.md.
std::vector<GlobalIndex> walk_numbering(const TopiExtent& L, const TopiExtent& b, TopiOrdering ordering) {
  std::vector<GlobalIndex> site(static_cast<std::size_t>(L[0] * L[1] * L[2]), -1);
  GlobalIndex next = 0;
  auto assign = [&](GlobalIndex x, GlobalIndex y, GlobalIndex z) {
    auto& s = site[static_cast<std::size_t>(lex(L, x, y, z))];
    EXPECT_EQ(s, -1) << "visited twice";
    s = next++;
  };
  if (ordering == TopiOrdering::scamac) {
    // blocks x-block fastest, then y, then z; inside x fastest; the last block may be thinner
    for (GlobalIndex z0 = 0; z0 < L[2]; z0 += b[2])
      for (GlobalIndex y0 = 0; y0 < L[1]; y0 += b[1])
        for (GlobalIndex x0 = 0; x0 < L[0]; x0 += b[0])
          for (GlobalIndex z = z0; z < std::min(z0 + b[2], L[2]); ++z)
            for (GlobalIndex y = y0; y < std::min(y0 + b[1], L[1]); ++y)
              for (GlobalIndex x = x0; x < std::min(x0 + b[0], L[0]); ++x) assign(x, y, z);
  } else {
    // nodes Nz fastest, Nx slowest; inside a node z fastest, x slowest
    for (GlobalIndex nx = 0; nx < L[0] / b[0]; ++nx)
      for (GlobalIndex ny = 0; ny < L[1] / b[1]; ++ny)
        for (GlobalIndex nz = 0; nz < L[2] / b[2]; ++nz)
          for (GlobalIndex x = 0; x < b[0]; ++x)
            for (GlobalIndex y = 0; y < b[1]; ++y)
              for (GlobalIndex z = 0; z < b[2]; ++z) assign(nx * b[0] + x, ny * b[1] + y, nz * b[2] + z);
  }
  EXPECT_EQ(next, L[0] * L[1] * L[2]);
  return site;
}

// topi-ordering.md's closed formula: site = node * (bx by bz) + x by bz + y bz + z,
// node = (Nx my + Ny) mz + Nz.
GlobalIndex node_block_formula(const TopiExtent& L, const TopiExtent& b, GlobalIndex X, GlobalIndex Y, GlobalIndex Z) {
  const GlobalIndex my = L[1] / b[1], mz = L[2] / b[2];
  const GlobalIndex node = (X / b[0] * my + Y / b[1]) * mz + Z / b[2];
  return node * b[0] * b[1] * b[2] + (X % b[0]) * b[1] * b[2] + (Y % b[1]) * b[2] + Z % b[2];
}

// Zero patterns of M_x, M_y (index 0, 1) and M_z (index 2), matrices.md §5.3.
bool pattern(int d, int a, int b) {
  if (d < 2) return a == b || a + b == 3;
  return a / 2 == b / 2;
}

// The expected (row, col) set from the lattice: diagonal, and per direction the neighbours that
// exist; with L_d = 2 periodic the two neighbours coincide and only the diagonal orbital survives.
std::set<std::pair<GlobalIndex, GlobalIndex>> model_pattern(const TopiExtent& L, const Bc& bc, bool diagonal,
                                                            const std::vector<GlobalIndex>& site) {
  std::set<std::pair<GlobalIndex, GlobalIndex>> s;
  for (GlobalIndex z = 0; z < L[2]; ++z)
    for (GlobalIndex y = 0; y < L[1]; ++y)
      for (GlobalIndex x = 0; x < L[0]; ++x) {
        const std::array<GlobalIndex, 3> c{x, y, z};
        const GlobalIndex here = site[static_cast<std::size_t>(lex(L, x, y, z))];
        for (int a = 0; a < 4; ++a) {
          const GlobalIndex r = 4 * here + a;
          if (diagonal) s.insert({r, r});
          for (int d = 0; d < 3; ++d) {
            if (L[d] == 1) continue;
            for (int step : {-1, 1}) {
              auto n = c;
              n[d] += step;
              if (n[d] < 0 || n[d] >= L[d]) {
                if (bc[d] == O) continue;
                n[d] = (n[d] + L[d]) % L[d];
              }
              const GlobalIndex there = site[static_cast<std::size_t>(lex(L, n[0], n[1], n[2]))];
              for (int b = 0; b < 4; ++b) {
                const bool merged = L[d] == 2 && bc[d] == P;
                if (merged ? a == b : pattern(d, a, b)) s.insert({r, 4 * there + b});
              }
            }
          }
        }
      }
  return s;
}

// Small lattices with a tiling block (node-block) and a block for scamac that often does not
// divide (thinner last block, one block larger than the lattice).
struct Case {
  TopiExtent lattice, node_block, scamac_block;
};
const std::vector<Case> cases = {
    {{1, 1, 1}, {1, 1, 1}, {1, 1, 1}}, {{2, 2, 2}, {1, 2, 1}, {2, 1, 2}}, {{2, 3, 4}, {1, 3, 2}, {2, 2, 3}},
    {{3, 5, 4}, {3, 5, 2}, {2, 2, 3}}, {{4, 6, 3}, {2, 3, 3}, {3, 4, 2}}, {{5, 1, 6}, {5, 1, 3}, {2, 1, 4}},
    {{6, 4, 5}, {3, 2, 5}, {4, 3, 2}}, {{3, 2, 2}, {1, 1, 2}, {5, 1, 1}}, {{1, 4, 3}, {1, 2, 1}, {1, 3, 2}},
};

std::vector<Bc> all_boundaries() {
  std::vector<Bc> v;
  for (int m = 0; m < 8; ++m) v.push_back({m & 1 ? P : O, m & 2 ? P : O, m & 4 ? P : O});
  return v;
}

TopologicalInsulator make(const Case& c, TopiOrdering o, const Bc& bc, double mass, double disorder,
                          double t = 1.0) {
  const TopiExtent& b = o == TopiOrdering::node_block ? c.node_block : c.scamac_block;
  return TopologicalInsulator(params(b, {1, 1, 1}, bc, o, mass, disorder, t), c.lattice);
}

std::string describe(const Case& c, const Bc& bc, TopiOrdering o) {
  std::string s = std::to_string(c.lattice[0]) + "x" + std::to_string(c.lattice[1]) + "x" + std::to_string(c.lattice[2]);
  for (auto b : bc) s += b == P ? " per" : " open";
  return s + (o == TopiOrdering::scamac ? " scamac" : " node-block");
}

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
}  // namespace desync
