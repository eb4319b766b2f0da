// 5-point stencil matrix (matrices.md §6 form 1): the published test vectors, the nnz formula,
// the product against a matrix-free sweep over a zero-padded grid, zero weights kept, validation.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <utility>
#include <vector>

#include "matrix/stencil5.hpp"
#include "matrix_summary.hpp"

namespace desync {
namespace {

Stencil5Params params(std::int64_t nx, std::int64_t ny, std::array<double, 5> w = {4.0, -1.0, -1.0, -1.0, -1.0}) {
  Stencil5Params p;
  p.nx = nx;
  p.ny = ny;
  p.weights = w;
  return p;
}

using test::MatrixSummary;

// Every stored value is real (zeros are kept here: see ZeroWeightsAreStored).
MatrixSummary summarize(const Stencil5& g) {
  return test::summarize(g, [](GlobalIndex, GlobalIndex, const Scalar& v) { EXPECT_EQ(v.imag(), 0.0); });
}

TEST(Stencil5, MatchesTheSpecTestVectors) {  // matrices.md §9
  const MatrixSummary a = summarize(Stencil5(params(4, 3)));
  EXPECT_EQ(a.bad_rows, 0);
  EXPECT_EQ(a.nr, 12);
  EXPECT_EQ(a.nnz, 46);
  EXPECT_EQ(a.bandwidth, 4);
  EXPECT_EQ(a.hash, 0xa738bb6f33fdd945ull) << std::hex << a.hash;
  const MatrixSummary b = summarize(Stencil5(params(10, 10)));
  EXPECT_EQ(b.bad_rows, 0);
  EXPECT_EQ(b.nr, 100);
  EXPECT_EQ(b.nnz, 460);
  EXPECT_EQ(b.bandwidth, 10);
  EXPECT_EQ(b.hash, 0x96616eb7206fbde5ull) << std::hex << b.hash;
}

TEST(Stencil5, CountsFollowTheFormula) {  // nnz = 5 nx ny - 2 (nx + ny), bandwidth nx
  for (std::int64_t nx : {1, 2, 3, 7, 16})
    for (std::int64_t ny : {1, 2, 5, 9}) {
      const MatrixSummary s = summarize(Stencil5(params(nx, ny)));
      EXPECT_EQ(s.bad_rows, 0) << nx << "x" << ny;
      EXPECT_EQ(s.nr, nx * ny);
      EXPECT_EQ(s.nnz, 5 * nx * ny - 2 * (nx + ny)) << nx << "x" << ny;
      const GlobalIndex bw = ny > 1 ? nx : (nx > 1 ? 1 : 0);
      EXPECT_EQ(s.bandwidth, bw) << nx << "x" << ny;
    }
}

// y = A x must equal the sweep b[i][j] = w00 a[i][j] + w0-1 a[i][j-1] + w0+1 a[i][j+1]
// + w-10 a[i-1][j] + w+10 a[i+1][j] over an (nx+2) x (ny+2) array with a zero halo.
TEST(Stencil5, ProductEqualsTheMatrixFreeSweep) {
  const std::array<double, 5> w{1.5, 2.0, 3.0, 5.0, 7.0};  // distinct, so a swapped weight shows
  for (auto [nx, ny] : {std::pair<std::int64_t, std::int64_t>{5, 4}, {1, 3}, {6, 1}, {8, 8}}) {
    const Stencil5 g(params(nx, ny, w));
    std::vector<double> x(static_cast<std::size_t>(nx * ny));
    for (std::size_t i = 0; i < x.size(); ++i) x[i] = 1.0 + static_cast<double>((i * 7919) % 13);
    const std::int64_t px = nx + 2;
    std::vector<double> pad(static_cast<std::size_t>(px * (ny + 2)), 0.0);
    for (std::int64_t iy = 0; iy < ny; ++iy)
      for (std::int64_t ix = 0; ix < nx; ++ix)
        pad[static_cast<std::size_t>((iy + 1) * px + ix + 1)] = x[static_cast<std::size_t>(iy * nx + ix)];
    GlobalIndex cols[5];
    Scalar vals[5];
    for (std::int64_t iy = 0; iy < ny; ++iy)
      for (std::int64_t ix = 0; ix < nx; ++ix) {
        const std::size_t c = static_cast<std::size_t>((iy + 1) * px + ix + 1);
        const double sweep = w[0] * pad[c] + w[1] * pad[c - 1] + w[2] * pad[c + 1] +
                             w[3] * pad[c - static_cast<std::size_t>(px)] + w[4] * pad[c + static_cast<std::size_t>(px)];
        const GlobalIndex r = iy * nx + ix;
        const int n = g.row(r, cols, vals);
        double y = 0.0;
        for (int i = 0; i < n; ++i) y += vals[i].real() * x[static_cast<std::size_t>(cols[i])];
        EXPECT_DOUBLE_EQ(y, sweep) << nx << "x" << ny << " row " << r;
      }
  }
}

TEST(Stencil5, ZeroWeightsAreStored) {  // deliberate exception to §1's zero dropping
  const MatrixSummary jacobi = summarize(Stencil5(params(4, 3, {0.0, 0.25, 0.25, 0.25, 0.25})));
  EXPECT_EQ(jacobi.bad_rows, 0);
  EXPECT_EQ(jacobi.nnz, 46);
  EXPECT_EQ(jacobi.hash, 0xa738bb6f33fdd945ull);
  const Stencil5 zero(params(6, 5, {0.0, 0.0, 0.0, 0.0, 0.0}));
  const MatrixSummary z = summarize(zero);
  EXPECT_EQ(z.bad_rows, 0);
  EXPECT_EQ(z.nnz, 5 * 30 - 2 * 11);
  GlobalIndex cols[5];
  Scalar vals[5];
  EXPECT_EQ(zero.row(7, cols, vals), 5);  // interior point (1, 1)
  EXPECT_FALSE(zero.is_complex());
  EXPECT_EQ(zero.max_row_entries(), 5);
}

TEST(Stencil5, InvalidParametersThrow) {
  EXPECT_THROW(Stencil5(params(0, 3)), std::invalid_argument);
  EXPECT_THROW(Stencil5(params(4, -1)), std::invalid_argument);
  EXPECT_THROW(Stencil5(params(std::int64_t{1} << 32, std::int64_t{1} << 32)), std::invalid_argument);
  EXPECT_THROW(Stencil5(params(4, 3, {1.0, std::nan(""), 0.0, 0.0, 0.0})), std::invalid_argument);
  EXPECT_THROW(Stencil5(params(4, 3, {1.0, 0.0, 0.0, std::numeric_limits<double>::infinity(), 0.0})),
               std::invalid_argument);
  EXPECT_NO_THROW(Stencil5(params(1, 1)));
}

}  // namespace
}  // namespace desync
