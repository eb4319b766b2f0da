// Spectral bounds for ChebFD: the tridiagonal eigen-solver, and Lanczos bounds that contain the
// known spectrum of the 5-point Laplacian, lie inside Gershgorin's interval and are tighter.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cmath>

#include "comm/halo_plan.hpp"
#include "core/mpi_util.hpp"
#include "matrix/make_generator.hpp"
#include "workloads/chebfd/chebfd_bounds.hpp"
#include "workloads/chebfd/chebfd_config.hpp"

namespace desync {
namespace {

TEST(ChebfdBounds, TridiagonalExtremes) {
  // a = 2, b = -1: eigenvalues 2 - 2 cos(k pi / (n + 1)), k = 1..n
  const int n = 10;
  const auto [lo, hi] = chebfd::tridiagonal_extremes(std::vector<double>(n, 2.0), std::vector<double>(n - 1, -1.0));
  EXPECT_NEAR(lo, 2.0 - 2.0 * std::cos(M_PI / (n + 1)), 1e-12);
  EXPECT_NEAR(hi, 2.0 + 2.0 * std::cos(M_PI / (n + 1)), 1e-12);
  const auto one = chebfd::tridiagonal_extremes({3.5}, {});
  EXPECT_NEAR(one.first, 3.5, 1e-12);
}

template <class T>
std::pair<std::pair<double, double>, std::pair<double, double>> bounds(const MatrixConfig& cfg, int steps) {
  const auto g = make_generator(cfg);
  const RowPartition p = make_partition(*g, PartitionKind::rows, comm_size(MPI_COMM_WORLD));
  const LocalMatrix<T> m = build_local_matrix<T>(*g, p, comm_rank(MPI_COMM_WORLD));
  const HaloPlan plan = build_halo_plan(m.halo_columns, p, MPI_COMM_WORLD);
  return {chebfd::lanczos_bounds(m, plan, steps, MPI_COMM_WORLD), chebfd::gershgorin_bounds(m, MPI_COMM_WORLD)};
}

TEST(ChebfdBounds, LanczosContainsTheLaplacianSpectrum) {
  MatrixConfig cfg;
  cfg.generator = GeneratorKind::stencil5;
  cfg.stencil5.nx = cfg.stencil5.ny = 30;
  const auto [lz, gs] = bounds<double>(cfg, 40);
  const double c = std::cos(M_PI / 31.0), lmin = 4.0 - 4.0 * c, lmax = 4.0 + 4.0 * c;
  EXPECT_LE(lz.first, lmin + 1e-9);
  EXPECT_GE(lz.second, lmax - 1e-9);
  EXPECT_GE(lz.first, gs.first);
  EXPECT_LE(lz.second, gs.second);
  EXPECT_LT(lz.second - lz.first, gs.second - gs.first) << "Lanczos should be tighter than Gershgorin";
  EXPECT_NEAR(gs.first, 0.0, 1e-12);
  EXPECT_NEAR(gs.second, 8.0, 1e-12);
}

TEST(ChebfdBounds, ComplexHermitianInsideGershgorin) {
  MatrixConfig cfg;
  cfg.generator = GeneratorKind::topi;
  cfg.topi.block = {4, 4, 4};
  cfg.topi.disorder = 1.0;
  const auto [lz, gs] = bounds<Complex>(cfg, 30);
  EXPECT_GE(lz.first, gs.first);
  EXPECT_LE(lz.second, gs.second);
  EXPECT_LT(lz.first, lz.second);
}

}  // namespace
}  // namespace desync
