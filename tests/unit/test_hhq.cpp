// HHQ generator (matrices.md §4): the phonon order against a brute-force sort, the spec's test
// vectors, closed-form counts, an independent brute-force construction (values included),
// symmetry and parameter checks. DISABLED_LargeCases streams HHQ-large and HHQ-small (minutes;
// run by hand with --gtest_also_run_disabled_tests and OMP_NUM_THREADS=2).
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <numeric>
#include <stdexcept>
#include <vector>

#include "matrix/combinatorics.hpp"
#include "matrix/holstein_hubbard.hpp"
#include "matrix/phonon_basis.hpp"
#include "matrix/row_stream.hpp"
#include "matrix_summary.hpp"

namespace desync {
namespace {

using Occupation = std::vector<int>;

// Every occupation of M modes with total <= N, sorted by the documented key: head sum over the
// first ceil(M/2) modes, then the occupations lexicographically, p_0 first.
std::vector<Occupation> sorted_phonon_states(int M, int N) {
  std::vector<Occupation> all;
  Occupation p(static_cast<std::size_t>(M), 0);
  // Odometer over [0, N]^M, keeping those with total <= N.
  while (true) {
    if (std::accumulate(p.begin(), p.end(), 0) <= N) all.push_back(p);
    int m = M - 1;
    while (m >= 0 && p[static_cast<std::size_t>(m)] == N) p[static_cast<std::size_t>(m--)] = 0;
    if (m < 0) break;
    ++p[static_cast<std::size_t>(m)];
  }
  const int K = (M + 1) / 2;
  std::sort(all.begin(), all.end(), [K](const Occupation& a, const Occupation& b) {
    const int ha = std::accumulate(a.begin(), a.begin() + K, 0), hb = std::accumulate(b.begin(), b.begin() + K, 0);
    if (ha != hb) return ha < hb;
    return a < b;  // lexicographic, element 0 most significant
  });
  return all;
}

TEST(PhononBasis, OrderIsTheGradedHeadSortAndRankRoundTrips) {
  const std::vector<std::pair<int, int>> cases{{1, 0}, {1, 4}, {2, 0}, {2, 3},  {3, 4}, {4, 3},
                                               {5, 5}, {6, 2}, {7, 4}, {5, 15}, {7, 10}};
  for (auto [M, N] : cases) {
    SCOPED_TRACE("M=" + std::to_string(M) + " N=" + std::to_string(N));
    const PhononBasis b(M, N);
    const auto states = sorted_phonon_states(M, N);
    ASSERT_EQ(b.size(), static_cast<GlobalIndex>(states.size()));
    ASSERT_EQ(b.size(), comb::binomial(N + M, M));
    EXPECT_EQ(b.head_modes(), (M + 1) / 2);
    std::map<Occupation, GlobalIndex> index;
    for (std::size_t i = 0; i < states.size(); ++i) index[states[i]] = static_cast<GlobalIndex>(i);
    Occupation occ(static_cast<std::size_t>(M));
    std::vector<GlobalIndex> up(static_cast<std::size_t>(M)), down(static_cast<std::size_t>(M));
    for (std::size_t i = 0; i < states.size(); ++i) {
      const auto r = static_cast<GlobalIndex>(i);
      ASSERT_EQ(b.rank(states[i].data()), r);
      b.unrank(r, occ.data());
      ASSERT_EQ(occ, states[i]) << "index " << i;
      b.neighbour_ranks(states[i].data(), up.data(), down.data());
      const int total = std::accumulate(occ.begin(), occ.end(), 0);
      for (int m = 0; m < M; ++m) {
        Occupation q = states[i];
        ++q[static_cast<std::size_t>(m)];
        ASSERT_EQ(up[static_cast<std::size_t>(m)], total < N ? index.at(q) : -1) << "index " << i << " mode " << m;
        q[static_cast<std::size_t>(m)] -= 2;
        ASSERT_EQ(down[static_cast<std::size_t>(m)], q[static_cast<std::size_t>(m)] >= 0 ? index.at(q) : -1)
            << "index " << i << " mode " << m;
      }
    }
  }
}

TEST(PhononBasis, RejectsInvalidSizes) {
  EXPECT_THROW(PhononBasis(0, 3), std::invalid_argument);
  EXPECT_THROW(PhononBasis(3, -1), std::invalid_argument);
  EXPECT_THROW(PhononBasis(10, 60), std::invalid_argument);
  EXPECT_NO_THROW(PhononBasis(10, 54));
}

// Every stored value is a nonzero real (§1 drops exact zeros; the model is real).
test::MatrixSummary summarize(const MatrixGenerator& g) {
  return test::summarize(g, [](GlobalIndex r, GlobalIndex, const Scalar& v) {
    EXPECT_NE(v, Scalar(0.0)) << "row " << r << " stores a zero";
    EXPECT_EQ(v.imag(), 0.0);
  });
}

HhqParams hhq(int L, int up, int down, int N, PhononOrder order, LatticeBoundary boundary = LatticeBoundary::periodic) {
  HhqParams p;
  p.sites = L;
  p.up = up;
  p.down = down;
  p.phonons = N;
  p.order = order;
  p.boundary = boundary;
  return p;
}

TEST(Hhq, SpecTestVectors) {
  struct Vector {
    int L, up, down, N;
    PhononOrder order;
    GlobalIndex nr, nnz, bandwidth;
    std::uint64_t hash;
  };
  constexpr auto pe = PhononOrder::pe;
  constexpr auto ep = PhononOrder::ep;
  const std::vector<Vector> table{
      {4, 1, 1, 3, pe, 320, 2008, 240, 0x393924fc652b7f55ull},
      {4, 1, 1, 3, ep, 320, 2008, 128, 0x33b4d0ee039189f1ull},
      {5, 2, 1, 3, pe, 1750, 13590, 1225, 0x94c533d3f16b4c4dull},
      {5, 2, 1, 3, ep, 1750, 13590, 800, 0x91e1a97452bccb1dull},
      {4, 2, 2, 4, pe, 1260, 11214, 840, 0xfd110482b500dbadull},
      {4, 2, 2, 4, ep, 1260, 11214, 396, 0x70fa0ae555832ee1ull},
      {6, 2, 2, 3, pe, 12600, 119400, 9240, 0xe2b8c832f78cb78dull},
      {6, 2, 2, 3, ep, 12600, 119400, 6075, 0xa7a1bc753dbcdb09ull},
  };
  for (const auto& t : table) {
    const HhqParams p = hhq(t.L, t.up, t.down, t.N, t.order);
    SCOPED_TRACE("L=" + std::to_string(t.L) + " " + std::to_string(t.up) + "+" + std::to_string(t.down) +
                 " N=" + std::to_string(t.N) + (t.order == pe ? " pe" : " ep"));
    const HolsteinHubbard g(p);
    EXPECT_FALSE(g.is_complex());
    const auto s = summarize(g);
    EXPECT_EQ(s.bad_rows, 0);
    EXPECT_EQ(s.nr, t.nr);
    EXPECT_EQ(s.nnz, t.nnz);
    EXPECT_EQ(s.bandwidth, t.bandwidth);
    EXPECT_EQ(s.hash, t.hash) << std::hex << s.hash;
    EXPECT_EQ(hhq_rows(p), t.nr);
    EXPECT_EQ(hhq_closed_form_nnz(p), t.nnz);
    EXPECT_EQ(hhq_bandwidth(p), t.bandwidth);
  }
}

// Closed forms of §4.6 and hhq_bandwidth against full enumeration, with open and periodic rings,
// empty / full spin species, no phonons, and t or g switched off.
TEST(Hhq, ClosedFormsMatchEnumeration) {
  struct Case {
    int L, up, down, N;
  };
  const std::vector<Case> cases{{3, 1, 1, 2}, {3, 2, 1, 3}, {3, 2, 2, 1}, {4, 0, 2, 3}, {4, 4, 1, 2}, {4, 2, 1, 0},
                                {5, 1, 3, 2}, {5, 2, 2, 3}, {6, 3, 1, 2}, {6, 0, 0, 3}, {7, 2, 3, 1}, {8, 3, 3, 1}};
  for (const auto& c : cases) {
    for (auto b : {LatticeBoundary::periodic, LatticeBoundary::open}) {
      for (auto o : {PhononOrder::pe, PhononOrder::ep}) {
        for (int variant = 0; variant < 3; ++variant) {
          HhqParams p = hhq(c.L, c.up, c.down, c.N, o, b);
          if (variant == 1) p.t = 0.0;
          if (variant == 2) p.g = 0.0;
          SCOPED_TRACE("L=" + std::to_string(c.L) + " " + std::to_string(c.up) + "+" + std::to_string(c.down) +
                       " N=" + std::to_string(c.N) + (b == LatticeBoundary::open ? " open" : " periodic") +
                       (o == PhononOrder::pe ? " pe" : " ep") + " variant " + std::to_string(variant));
          const auto s = summarize(HolsteinHubbard(p));
          EXPECT_EQ(s.bad_rows, 0);
          EXPECT_EQ(hhq_rows(p), s.nr);
          EXPECT_EQ(hhq_closed_form_nnz(p), s.nnz);
          EXPECT_EQ(hhq_bandwidth(p), s.bandwidth);
        }
      }
    }
  }
}

// Builds the Hamiltonian from §4.3-4.5 with nothing shared with the generator: electron states
// by numeric enumeration (colex = numeric order), phonon states from the brute-force sort,
// columns through maps, fermion signs by counting the electrons between the bond's sites.
std::vector<std::map<GlobalIndex, double>> brute_force(const HhqParams& p) {
  const int L = p.sites, M = L - 1;
  auto masks = [L](int ones) {
    std::vector<std::uint64_t> v;
    for (std::uint64_t m = 0; m < (std::uint64_t{1} << L); ++m)
      if (__builtin_popcountll(m) == ones) v.push_back(m);
    return v;
  };
  const auto ups = masks(p.up), dns = masks(p.down);
  const auto phonons = sorted_phonon_states(M, p.phonons);
  std::map<std::uint64_t, GlobalIndex> up_index, dn_index;
  for (std::size_t i = 0; i < ups.size(); ++i) up_index[ups[i]] = static_cast<GlobalIndex>(i);
  for (std::size_t i = 0; i < dns.size(); ++i) dn_index[dns[i]] = static_cast<GlobalIndex>(i);
  std::map<Occupation, GlobalIndex> ph_index;
  for (std::size_t i = 0; i < phonons.size(); ++i) ph_index[phonons[i]] = static_cast<GlobalIndex>(i);
  const auto E = static_cast<GlobalIndex>(ups.size() * dns.size()), P = static_cast<GlobalIndex>(phonons.size());
  const auto index = [&](std::uint64_t u, std::uint64_t d, const Occupation& q) {
    const GlobalIndex e = up_index.at(u) * static_cast<GlobalIndex>(dns.size()) + dn_index.at(d);
    const GlobalIndex ph = ph_index.at(q);
    return p.order == PhononOrder::pe ? e * P + ph : ph * E + e;
  };
  std::vector<std::pair<int, int>> bonds;
  for (int j = 0; j + 1 < L; ++j) bonds.push_back({j, j + 1});
  if (p.boundary == LatticeBoundary::periodic) bonds.push_back({L - 1, 0});

  std::vector<std::map<GlobalIndex, double>> rows(static_cast<std::size_t>(E * P));
  for (std::uint64_t u : ups) {
    for (std::uint64_t d : dns) {
      for (const auto& q : phonons) {
        auto& row = rows[static_cast<std::size_t>(index(u, d, q))];
        const int nph = std::accumulate(q.begin(), q.end(), 0);
        row[index(u, d, q)] += p.u * __builtin_popcountll(u & d) + p.omega0 * nph;
        for (auto [i, j] : bonds) {
          const std::uint64_t pair = (std::uint64_t{1} << i) | (std::uint64_t{1} << j);
          const int lo = std::min(i, j), hi = std::max(i, j);
          const std::uint64_t between = ((std::uint64_t{1} << hi) - 1) & ~((std::uint64_t{2} << lo) - 1);
          for (int spin = 0; spin < 2; ++spin) {
            const std::uint64_t s = spin == 0 ? u : d;
            if (__builtin_popcountll(s & pair) != 1) continue;
            const double sign = __builtin_popcountll(s & between) % 2 ? -1.0 : 1.0;
            const std::uint64_t moved = s ^ pair;
            row[spin == 0 ? index(moved, d, q) : index(u, moved, q)] += -p.t * sign;
          }
        }
        for (int m = 0; m < M; ++m) {
          const int nm = static_cast<int>(((u >> m) & 1u) + ((d >> m) & 1u));
          if (nm == 0) continue;
          Occupation r = q;
          const int pm = q[static_cast<std::size_t>(m)];
          if (pm > 0) {
            r[static_cast<std::size_t>(m)] = pm - 1;
            row[index(u, d, r)] += -p.g * p.omega0 * nm * std::sqrt(static_cast<double>(pm));
          }
          if (nph < p.phonons) {
            r[static_cast<std::size_t>(m)] = pm + 1;
            row[index(u, d, r)] += -p.g * p.omega0 * nm * std::sqrt(static_cast<double>(pm + 1));
          }
        }
        for (auto it = row.begin(); it != row.end();) it = it->second == 0.0 ? row.erase(it) : std::next(it);
      }
    }
  }
  return rows;
}

std::vector<std::map<GlobalIndex, double>> generated(const MatrixGenerator& g) {
  std::vector<std::map<GlobalIndex, double>> rows(static_cast<std::size_t>(g.rows()));
  std::vector<GlobalIndex> c(static_cast<std::size_t>(g.max_row_entries()));
  std::vector<Scalar> v(c.size());
  for (GlobalIndex r = 0; r < g.rows(); ++r) {
    const int n = g.row(r, c.data(), v.data());
    for (int i = 0; i < n; ++i) rows[static_cast<std::size_t>(r)][c[i]] = v[i].real();
  }
  return rows;
}

TEST(Hhq, MatchesBruteForceIncludingValues) {
  struct Case {
    int L, up, down, N;
  };
  for (const auto& c :
       std::vector<Case>{{3, 2, 1, 2}, {4, 2, 1, 3}, {5, 2, 2, 2}, {5, 3, 1, 2}, {6, 3, 2, 1}, {7, 2, 2, 2}}) {
    for (auto b : {LatticeBoundary::periodic, LatticeBoundary::open}) {
      for (auto o : {PhononOrder::pe, PhononOrder::ep}) {
        HhqParams p = hhq(c.L, c.up, c.down, c.N, o, b);
        p.t = 0.8;
        p.u = 3.5;
        p.omega0 = 1.25;
        p.g = -0.6;
        SCOPED_TRACE("L=" + std::to_string(c.L) + " " + std::to_string(c.up) + "+" + std::to_string(c.down) +
                     " N=" + std::to_string(c.N) + (b == LatticeBoundary::open ? " open" : " periodic") +
                     (o == PhononOrder::pe ? " pe" : " ep"));
        const auto ref = brute_force(p);
        const auto got = generated(HolsteinHubbard(p));
        ASSERT_EQ(got.size(), ref.size());
        for (std::size_t r = 0; r < ref.size(); ++r) {
          ASSERT_EQ(got[r].size(), ref[r].size()) << "row " << r;
          for (auto [col, val] : ref[r]) {
            const auto it = got[r].find(col);
            ASSERT_NE(it, got[r].end()) << "row " << r << " misses column " << col;
            EXPECT_DOUBLE_EQ(it->second, val) << "row " << r << " column " << col;
          }
        }
      }
    }
  }
}

TEST(Hhq, MatrixEqualsItsTranspose) {
  for (auto b : {LatticeBoundary::periodic, LatticeBoundary::open}) {
    for (auto o : {PhononOrder::pe, PhononOrder::ep}) {
      for (const auto& p0 : {hhq(4, 2, 2, 4, o, b), hhq(5, 2, 1, 3, o, b), hhq(3, 2, 2, 3, o, b)}) {
        HhqParams p = p0;
        p.t = 1.3;
        p.g = 0.7;
        const auto a = generated(HolsteinHubbard(p));
        for (std::size_t r = 0; r < a.size(); ++r)
          for (auto [col, val] : a[r]) {
            const auto& mirror = a[static_cast<std::size_t>(col)];
            const auto it = mirror.find(static_cast<GlobalIndex>(r));
            ASSERT_NE(it, mirror.end()) << "(" << r << ", " << col << ") has no transpose";
            EXPECT_EQ(it->second, val) << "(" << r << ", " << col << ")";
          }
      }
    }
  }
}

TEST(Hhq, RejectsInvalidParameters) {
  const HhqParams ok = hhq(4, 1, 1, 3, PhononOrder::pe);
  EXPECT_NO_THROW(HolsteinHubbard{ok});
  const auto bad = [&](auto change) {
    HhqParams p = ok;
    change(p);
    return p;
  };
  const std::vector<HhqParams> invalid{
      bad([](HhqParams& p) { p.sites = 2; }),
      bad([](HhqParams& p) { p.sites = 63; }),
      bad([](HhqParams& p) { p.up = -1; }),
      bad([](HhqParams& p) { p.down = 5; }),
      bad([](HhqParams& p) { p.phonons = -1; }),
      bad([](HhqParams& p) { p.phonons = 62; }),
      bad([](HhqParams& p) { p.u = 0.0; }),
      bad([](HhqParams& p) { p.u = -4.0; }),
      bad([](HhqParams& p) { p.omega0 = 0.0; }),
      bad([](HhqParams& p) { p.omega0 = std::nan(""); }),
      bad([](HhqParams& p) { p.t = INFINITY; }),
      bad([](HhqParams& p) { p.g = std::nan(""); }),
      bad([](HhqParams& p) {  // 2^63 rows or more: C(40,20)^2 alone is about 1.9e22
        p.sites = 40;
        p.up = p.down = 20;
      }),
  };
  for (std::size_t i = 0; i < invalid.size(); ++i) {
    EXPECT_THROW(HolsteinHubbard{invalid[i]}, std::invalid_argument) << "case " << i;
    EXPECT_THROW(hhq_closed_form_nnz(invalid[i]), std::invalid_argument) << "case " << i;
  }
}

// Streams every row of the two published configurations with the host execution space and
// reports rates. Expected values: matrices.md §4.6 / §8.
TEST(Hhq, DISABLED_LargeCases) {
  struct Expect {
    const char* name;
    HhqParams p;
    GlobalIndex nr, nnz, bandwidth;
  };
  const std::vector<Expect> cases{
      {"HHQ-large pe", hhq(8, 3, 3, 10, PhononOrder::pe), 60988928, 889816368, 41385344},
      {"HHQ-large ep", hhq(8, 3, 3, 10, PhononOrder::ep), 60988928, 889816368, 12907776},
      {"HHQ-small pe", hhq(6, 3, 3, 15, PhononOrder::pe), 6201600, 85737100, 4031040},
      {"HHQ-small ep", hhq(6, 3, 3, 15, PhononOrder::ep), 6201600, 85737100, 777600},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    const HolsteinHubbard g(c.p);
    ASSERT_EQ(g.rows(), c.nr);
    EXPECT_EQ(hhq_closed_form_nnz(c.p), c.nnz);
    EXPECT_EQ(hhq_bandwidth(c.p), c.bandwidth);
    const GlobalIndex chunks = chunk_count(0, g.rows());
    std::vector<GlobalIndex> nnz(static_cast<std::size_t>(chunks), 0), bw(static_cast<std::size_t>(chunks), 0);
    const auto t0 = std::chrono::steady_clock::now();
    for_each_row(g, 0, g.rows(), "hhq_stream",
                 [&](GlobalIndex chunk, GlobalIndex r, const GlobalIndex* cols, const Scalar*, int n) {
                   nnz[static_cast<std::size_t>(chunk)] += n;
                   if (n > 0)
                     bw[static_cast<std::size_t>(chunk)] =
                         std::max({bw[static_cast<std::size_t>(chunk)], r - cols[0], cols[n - 1] - r});
                 });
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const GlobalIndex total = std::accumulate(nnz.begin(), nnz.end(), GlobalIndex{0});
    EXPECT_EQ(total, c.nnz);
    EXPECT_EQ(*std::max_element(bw.begin(), bw.end()), c.bandwidth);
    std::printf("%s: %lld rows, %lld nnz in %.2f s with %d threads: %.2f M rows/s, %.2f M nnz/s\n", c.name,
                static_cast<long long>(g.rows()), static_cast<long long>(total), s,
                Kokkos::DefaultHostExecutionSpace().concurrency(), g.rows() / s / 1e6, total / s / 1e6);
  }
}

}  // namespace
}  // namespace desync
