#pragma once
// Shared by the TOPI generator tests (test_topi.cpp, test_topi_structure.cpp): parameter builders,
// whole-matrix readers, and an independent lattice model of the pattern under both orderings,
// written from matrices.md §5 and topi-ordering.md rather than from the generator.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "matrix/topological_insulator.hpp"
#include "matrix_summary.hpp"

namespace desync::test::topi {

inline constexpr LatticeBoundary O = LatticeBoundary::open;
inline constexpr LatticeBoundary P = LatticeBoundary::periodic;
using Bc = std::array<LatticeBoundary, 3>;

inline TopiParams params(const TopiExtent& block, const TopiExtent& nodes, const Bc& bc, TopiOrdering ordering,
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

// Every row, in order (rows sorted, duplicate-free and inside the matrix: bad_rows); also checks
// that no stored value is zero, reporting the first few.
inline MatrixSummary summarize(const MatrixGenerator& g) {
  int bad = 0;
  return test::summarize(g, [&bad](GlobalIndex r, GlobalIndex c, const Scalar& v) {
    if (v == Scalar(0.0) && bad++ < 5) ADD_FAILURE() << "row " << r << " col " << c << " stores a zero";
  });
}

using Entries = std::map<std::pair<GlobalIndex, GlobalIndex>, Scalar>;

inline Entries entries(const MatrixGenerator& g) {
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

inline GlobalIndex lex(const TopiExtent& L, GlobalIndex x, GlobalIndex y, GlobalIndex z) {
  return x + L[0] * (y + L[1] * z);
}

// site number of every lattice point (indexed by lex), by walking the lattice in the documented
// order and counting: scamac per matrices.md §5.2, node-block per topi-ordering.md.
inline std::vector<GlobalIndex> walk_numbering(const TopiExtent& L, const TopiExtent& b, TopiOrdering ordering) {
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
inline GlobalIndex node_block_formula(const TopiExtent& L, const TopiExtent& b, GlobalIndex X, GlobalIndex Y,
                                      GlobalIndex Z) {
  const GlobalIndex my = L[1] / b[1], mz = L[2] / b[2];
  const GlobalIndex node = (X / b[0] * my + Y / b[1]) * mz + Z / b[2];
  return node * b[0] * b[1] * b[2] + (X % b[0]) * b[1] * b[2] + (Y % b[1]) * b[2] + Z % b[2];
}

// Zero patterns of M_x, M_y (index 0, 1) and M_z (index 2), matrices.md §5.3.
inline bool pattern(int d, int a, int b) {
  if (d < 2) return a == b || a + b == 3;
  return a / 2 == b / 2;
}

// The expected (row, col) set from the lattice: diagonal, and per direction the neighbours that
// exist; with L_d = 2 periodic the two neighbours coincide and only the diagonal orbital survives.
inline std::set<std::pair<GlobalIndex, GlobalIndex>> model_pattern(const TopiExtent& L, const Bc& bc, bool diagonal,
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
inline const std::vector<Case> cases = {
    {{1, 1, 1}, {1, 1, 1}, {1, 1, 1}}, {{2, 2, 2}, {1, 2, 1}, {2, 1, 2}}, {{2, 3, 4}, {1, 3, 2}, {2, 2, 3}},
    {{3, 5, 4}, {3, 5, 2}, {2, 2, 3}}, {{4, 6, 3}, {2, 3, 3}, {3, 4, 2}}, {{5, 1, 6}, {5, 1, 3}, {2, 1, 4}},
    {{6, 4, 5}, {3, 2, 5}, {4, 3, 2}}, {{3, 2, 2}, {1, 1, 2}, {5, 1, 1}}, {{1, 4, 3}, {1, 2, 1}, {1, 3, 2}},
};

inline std::vector<Bc> all_boundaries() {
  std::vector<Bc> v;
  for (int m = 0; m < 8; ++m) v.push_back({m & 1 ? P : O, m & 2 ? P : O, m & 4 ? P : O});
  return v;
}

inline TopologicalInsulator make(const Case& c, TopiOrdering o, const Bc& bc, double mass, double disorder,
                                 double t = 1.0) {
  const TopiExtent& b = o == TopiOrdering::node_block ? c.node_block : c.scamac_block;
  return TopologicalInsulator(params(b, {1, 1, 1}, bc, o, mass, disorder, t), c.lattice);
}

inline std::string describe(const Case& c, const Bc& bc, TopiOrdering o) {
  std::string s = std::to_string(c.lattice[0]) + "x" + std::to_string(c.lattice[1]) + "x" + std::to_string(c.lattice[2]);
  for (auto b : bc) s += b == P ? " per" : " open";
  return s + (o == TopiOrdering::scamac ? " scamac" : " node-block");
}

}  // namespace desync::test::topi
