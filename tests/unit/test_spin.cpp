// SPIN generator: the spec's test vectors, an independent brute-force construction, closed-form
// counts and symmetry.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <vector>

#include "matrix/combinatorics.hpp"
#include "matrix/spin_chain.hpp"
#include "matrix_summary.hpp"

namespace desync {
namespace {

using test::summarize;

SpinParams spin(int L, int n, LatticeBoundary b) {
  SpinParams p;
  p.sites = L;
  p.up = n;
  p.boundary = b;
  return p;
}

TEST(Combinatorics, ColexRankIsThePositionAmongSortedMasks) {
  for (int L : {5, 8}) {
    for (int n = 0; n <= L; ++n) {
      std::int64_t expected = 0;
      for (std::uint64_t m = 0; m < (1u << L); ++m) {
        if (__builtin_popcountll(m) != n) continue;
        EXPECT_EQ(comb::colex_rank(m), expected);
        EXPECT_EQ(comb::colex_unrank(expected, L, n), m);
        ++expected;
      }
      EXPECT_EQ(expected, comb::binomial(L, n));
    }
  }
  EXPECT_EQ(comb::binomial(30, 15), 155117520);
  EXPECT_EQ(comb::binomial(3, 5), 0);
}

TEST(Spin, SpecTestVectors) {
  const auto a = summarize(SpinChain(spin(10, 5, LatticeBoundary::open)));
  EXPECT_EQ(a.bad_rows, 0);
  EXPECT_EQ(a.nr, 252);
  EXPECT_EQ(a.nnz, 1512);
  EXPECT_EQ(a.bandwidth, 70);
  EXPECT_EQ(a.hash, 0x845c798fea6bfd25ull);
  const auto b = summarize(SpinChain(spin(12, 6, LatticeBoundary::open)));
  EXPECT_EQ(b.bad_rows, 0);
  EXPECT_EQ(b.nr, 924);
  EXPECT_EQ(b.nnz, 6468);
  EXPECT_EQ(b.bandwidth, 252);
  EXPECT_EQ(b.hash, 0x8834466f27f0d81ull);
  const auto c = summarize(SpinChain(spin(10, 5, LatticeBoundary::periodic)));
  EXPECT_EQ(c.bad_rows, 0);
  EXPECT_EQ(c.nr, 252);
  EXPECT_EQ(c.nnz, 1652);
  EXPECT_EQ(c.bandwidth, 148);
  EXPECT_EQ(c.hash, 0x65bf29e282564c25ull);
}

// Builds the Hamiltonian from the definition: enumerate states numerically, look columns up in
// a map, apply each bond explicitly. Shares no code with the generator. States come in ascending
// order from Gosper's next-combination step, so sparse sectors of long chains (L up to 62) are cheap.
std::vector<std::map<GlobalIndex, double>> brute_force(const SpinParams& p) {
  std::vector<std::uint64_t> states;
  const std::uint64_t end = std::uint64_t{1} << p.sites;
  for (std::uint64_t m = (std::uint64_t{1} << p.up) - 1; m < end;) {
    states.push_back(m);
    if (m == 0) break;
    const std::uint64_t low = m & (~m + 1), carry = m + low;  // lowest set bit; carry past its run
    m = carry | (((carry ^ m) >> 2) / low);
  }
  std::map<std::uint64_t, GlobalIndex> index;
  for (std::size_t i = 0; i < states.size(); ++i) index[states[i]] = static_cast<GlobalIndex>(i);
  std::vector<std::pair<int, int>> bonds;
  for (int j = 0; j + 1 < p.sites; ++j) bonds.push_back({j, j + 1});
  if (p.boundary == LatticeBoundary::periodic && p.sites > 2) bonds.push_back({p.sites - 1, 0});
  std::vector<std::map<GlobalIndex, double>> rows(states.size());
  for (std::size_t r = 0; r < states.size(); ++r) {
    const std::uint64_t s = states[r];
    int parallel = 0;  // counted exactly, so a diagonal that vanishes is exactly zero here too
    for (auto [i, j] : bonds) {
      const unsigned a = (s >> i) & 1u, b = (s >> j) & 1u;
      parallel += a == b ? 1 : -1;
      if (a != b) rows[r][index.at(s ^ (std::uint64_t{1} << i) ^ (std::uint64_t{1} << j))] += 0.5 * p.jxy;
    }
    const double diag = p.jz * parallel / 4.0 + p.bz * (p.up - p.sites / 2.0);
    if (diag != 0.0) rows[r][static_cast<GlobalIndex>(r)] += diag;
  }
  return rows;
}

// Every row of SPIN(L, n) against brute_force; stops at the first wrong row.
void expect_matches_brute_force(int L, int n, LatticeBoundary b) {
  SpinParams p = spin(L, n, b);
  p.jxy = 1.5;
  p.jz = 0.7;
  p.bz = 0.3;
  const SpinChain g(p);
  const auto ref = brute_force(p);
  ASSERT_EQ(g.rows(), static_cast<GlobalIndex>(ref.size())) << "L=" << L << " up=" << n;
  std::vector<GlobalIndex> c(g.max_row_entries());
  std::vector<Scalar> v(c.size());
  for (GlobalIndex r = 0; r < g.rows(); ++r) {
    const int k = g.row(r, c.data(), v.data());
    ASSERT_EQ(static_cast<std::size_t>(k), ref[r].size()) << "L=" << L << " up=" << n << " row " << r;
    int i = 0;
    for (auto [col, val] : ref[r]) {
      ASSERT_EQ(c[i], col) << "L=" << L << " up=" << n << " row " << r;
      ASSERT_NEAR(v[i].real(), val, 1e-14) << "L=" << L << " up=" << n << " row " << r;
      ASSERT_EQ(v[i].imag(), 0.0);
      ++i;
    }
  }
}

TEST(Spin, MatchesBruteForceIncludingValues) {
  for (auto b : {LatticeBoundary::open, LatticeBoundary::periodic})
    for (auto [L, n] : std::vector<std::pair<int, int>>{{6, 3}, {7, 2}, {8, 4}, {9, 5}, {4, 0}, {5, 5}})
      expect_matches_brute_force(L, n, b);
}

// Regression for the bond test in SpinChain::row. With bool flags `bj != bk`, GCC 12.2 at -O2/-O3
// emitted a test of bk alone (wrong hops in nearly every row: caught here and above in Release
// builds); a bit taken as `s & (1 << j)` shifts an int past its width for j >= 32 (wrong for L > 32
// at any -O, and UBSan's shift check). So: every site of chains across the 32-bit boundary up to the
// 62-site limit, one or two spins up or down, both boundaries, columns and values.
TEST(Spin, MatchesBruteForceOnLongChains) {
  for (auto b : {LatticeBoundary::open, LatticeBoundary::periodic})
    for (int L : {31, 32, 33, 34, 47, 62})
      for (int n : {1, 2, L - 2, L - 1}) expect_matches_brute_force(L, n, b);
}

// The same bug class seen directly: one up spin at site i (colex rank i) hops to i-1 and i+1, one
// down spin at site i (rank L-1-i) likewise, and nothing else; parallel bonds give no entry.
TEST(Spin, SingleSpinHopsToItsNeighboursOnly) {
  for (auto b : {LatticeBoundary::open, LatticeBoundary::periodic}) {
    for (int L = 3; L <= 62; ++L) {
      for (bool flip : {false, true}) {
        SpinParams p = spin(L, flip ? L - 1 : 1, b);
        p.jz = 0.0;  // only hops remain
        const SpinChain g(p);
        std::vector<GlobalIndex> c(g.max_row_entries());
        std::vector<Scalar> v(c.size());
        for (int i = 0; i < L; ++i) {
          auto rank = [&](int site) { return static_cast<GlobalIndex>(flip ? L - 1 - site : site); };
          std::vector<GlobalIndex> want;
          if (i > 0) want.push_back(rank(i - 1));
          if (i + 1 < L) want.push_back(rank(i + 1));
          if (b == LatticeBoundary::periodic && (i == 0 || i == L - 1)) want.push_back(rank(L - 1 - i));
          std::sort(want.begin(), want.end());
          const int k = g.row(rank(i), c.data(), v.data());
          ASSERT_EQ(std::vector<GlobalIndex>(c.begin(), c.begin() + k), want)
              << "L=" << L << (flip ? " down" : " up") << " spin at site " << i;
          for (int e = 0; e < k; ++e) EXPECT_EQ(v[e].real(), 0.5 * p.jxy);
        }
      }
    }
  }
}

TEST(Spin, ClosedFormNonzerosAtHalfFillingOpen) {
  for (int L : {6, 8, 10, 12, 14}) {
    const auto s = summarize(SpinChain(spin(L, L / 2, LatticeBoundary::open)));
    EXPECT_EQ(s.bad_rows, 0) << "L=" << L;
    EXPECT_EQ(s.nnz, s.nr * (L / 2 + 1)) << "L=" << L;
    EXPECT_EQ(s.bandwidth, comb::binomial(L - 2, L / 2 - 1)) << "L=" << L;
  }
}

TEST(Spin, SymmetricWithDisorder) {
  SpinParams p = spin(10, 5, LatticeBoundary::periodic);
  p.disorder = 0.8;
  const SpinChain g(p);
  std::map<std::pair<GlobalIndex, GlobalIndex>, double> m;
  std::vector<GlobalIndex> c(g.max_row_entries());
  std::vector<Scalar> v(c.size());
  for (GlobalIndex r = 0; r < g.rows(); ++r) {
    const int k = g.row(r, c.data(), v.data());
    for (int i = 0; i < k; ++i) m[{r, c[i]}] = v[i].real();
  }
  for (const auto& [ij, x] : m) {
    const auto t = m.find({ij.second, ij.first});
    ASSERT_NE(t, m.end());
    EXPECT_EQ(t->second, x);
  }
}

TEST(Spin, RejectsBadParameters) {
  EXPECT_THROW(SpinChain(spin(1, 0, LatticeBoundary::open)), std::invalid_argument);
  EXPECT_THROW(SpinChain(spin(6, 7, LatticeBoundary::open)), std::invalid_argument);
  EXPECT_THROW(SpinChain(spin(63, 1, LatticeBoundary::open)), std::invalid_argument);
  EXPECT_THROW(SpinChain(spin(-1, 0, LatticeBoundary::open)), std::invalid_argument);  // not length_error
}

}  // namespace
}  // namespace desync
