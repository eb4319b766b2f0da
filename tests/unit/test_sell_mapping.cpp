// The two SELL-C-sigma work mappings (workloads/spmv/spmv_sell_kernel.hpp, workloads/chebfd/chebfd_sell_kernels.hpp):
// a chunk per work item (the CPU's) and a row of a chunk per work item (the GPU's, coalesced),
// forced here on the host space so the GPU's code path runs in every build. Both must give y, w
// and x bitwise equal to each other and to CRS; the fused step's dots differ by rounding only.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <type_traits>
#include <vector>

#include "workloads/chebfd/chebfd_sell_kernels.hpp"
#include "matrix/local_matrix.hpp"
#include "matrix/row_partition.hpp"
#include "matrix/sell_matrix.hpp"
#include "matrix/spin_chain.hpp"
#include "matrix/topological_insulator.hpp"
#include "workloads/spmv/spmv_kernels.hpp"
#include "workloads/spmv/spmv_lanes.hpp"
#include "workloads/spmv/spmv_matrix.hpp"
#include "kokkos_compat/staging_space.hpp"
#include "workloads/spmv/spmv_sell_kernel.hpp"
#include "filled_views.hpp"

namespace desync {
namespace {


using test::filled;
using test::host;

// y = A x by CRS, a row per work item (spmv::LocalProduct): the reference of every mapping here.
std::vector<double> crs_product(const LocalMatrix<double>& m, const Vector& x) {
  Vector y("y_crs", m.rows);
  Kokkos::parallel_for("crs", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int32_t>>(0, m.rows),
                       spmv::LocalProduct{m.row_ptr, m.col, m.val, x, y});
  return host(y);
}

TEST(SellMapping, SpmvRowPerItemIsBitwiseChunkPerItemAndCrs) {
  SpinParams sp;
  sp.sites = 12;
  sp.up = 6;
  const SpinChain spin(sp);
  for (int ranks : {1, 3}) {
    const auto part = partition_by_rows(spin.rows(), ranks);
    const LocalMatrix<double> m = build_local_matrix<double>(spin, part, ranks - 1);
    const std::size_t cols = static_cast<std::size_t>(m.rows) + static_cast<std::size_t>(m.halo());
    const Vector x = filled<Vector>("x", cols, 1.0);
    const std::vector<double> crs = crs_product(m, x);
    for (auto [c, sigma] : std::vector<std::pair<int, int>>{{1, 1}, {4, 16}, {8, 32}, {32, 64}, {32, 1}}) {
      const SellMatrix<double> s = make_sell(m.row_ptr, m.col, m.val, m.rows, c, sigma, "test");
      Vector y_chunk("y_chunk", m.rows), y_rows("y_rows", m.rows);
      spmv::sell_product<ExecSpace, SellMapping::chunk_per_item>(s, x, y_chunk, 0, s.chunks);
      spmv::sell_product<ExecSpace, SellMapping::row_per_item>(s, x, y_rows, 0, s.chunks);
      // chunks in two launches, as the split schemes call it
      Vector y_split("y_split", m.rows);
      spmv::sell_product<ExecSpace, SellMapping::row_per_item>(s, x, y_split, 0, s.chunks / 2);
      spmv::sell_product<ExecSpace, SellMapping::row_per_item>(s, x, y_split, s.chunks / 2, s.chunks);
      EXPECT_EQ(host(y_rows), crs) << "C = " << c << ", sigma = " << sigma << ", ranks " << ranks;
      EXPECT_EQ(host(y_chunk), crs) << "C = " << c << ", sigma = " << sigma;
      EXPECT_EQ(host(y_split), crs) << "C = " << c << ", sigma = " << sigma;
    }
  }
}

// CRS with vector lanes per row (workloads/spmv/spmv_lanes.hpp): on a host space the lanes run in
// order, so y is LocalProduct's bitwise; on a device the lanes' tree changes rounding only.
TEST(SellMapping, CrsLanesAgreeWithRowPerThread) {
  TopiParams tp;
  tp.block = {4, 3, 5};
  tp.disorder = 0.5;
  const TopologicalInsulator ti(tp);
  const bool host_space = compat::host_accessible<ExecSpace>;
  for (int ranks : {1, 3}) {
    const auto part = partition_by_rows(ti.rows(), ranks);
    const LocalMatrix<double> m = real_local_matrix(ti, part, ranks - 1);
    const std::size_t cols = static_cast<std::size_t>(m.rows) + static_cast<std::size_t>(m.halo());
    const Vector x = filled<Vector>("x", cols, 1.0);
    const std::vector<double> crs = crs_product(m, x);
    for (int lanes : {1, 2, 4, 8, 32})
      for (int threads : {32, 256}) {
        Vector y("y_lanes", m.rows);
        const spmv::LocalProductLanes<ExecSpace> f{m.row_ptr, m.col, m.val, x, y, m.rows};
        Kokkos::parallel_for("lanes", spmv::lanes_policy(f, lanes, threads), f);
        const std::vector<double> got = host(y);
        const std::string what = std::to_string(lanes) + " lanes, teams of " + std::to_string(threads) + " threads";
        if (host_space) {
          EXPECT_EQ(got, crs) << what;
        } else {
          ASSERT_EQ(got.size(), crs.size());
          for (std::size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], crs[i], 1e-12 * (1.0 + std::fabs(crs[i]))) << what << ", row " << i;
        }
      }
  }
}

template <class T, bool Init>
void expect_fused_mappings_agree(const LocalMatrix<T>& m, int c, int sigma, int nb) {
  const SellMatrix<T> s = make_sell(m.row_ptr, m.col, m.val, m.rows, c, sigma, "test");
  const std::size_t cols = static_cast<std::size_t>(m.rows) + static_cast<std::size_t>(m.halo());
  const Values<T> u = filled<Values<T>>("u", cols * nb, 2.0);
  const chebfd::Step st{0.7, -0.2, 0.3, 0.1};
  constexpr int R = chebfd::Traits<T>::R;
  const unsigned value_count = static_cast<unsigned>((R + 1) * nb);
  std::vector<double> sums[2], scratch(value_count);
  std::vector<T> w_out[2], x_out[2];
  int i = 0;
  for (SellMapping mapping : {SellMapping::chunk_per_item, SellMapping::row_per_item}) {
    const Values<T> w = filled<Values<T>>("w", static_cast<std::size_t>(m.rows) * nb, 3.0);
    const Values<T> x = filled<Values<T>>("x", static_cast<std::size_t>(m.rows) * nb, 4.0);
    sums[i].assign(value_count, 0.0);
    if (mapping == SellMapping::chunk_per_item)
      chebfd::reduce_sell_fused<T, Init, ExecSpace, SellMapping::chunk_per_item>("test", 0, s.chunks, s, value_count, u, w, x, 0, nb,
                                                                                  st, sums[i].data(), scratch.data());
    else
      chebfd::reduce_sell_fused<T, Init, ExecSpace, SellMapping::row_per_item>("test", 0, s.chunks, s, value_count, u, w, x, 0, nb,
                                                                                st, sums[i].data(), scratch.data());
    Kokkos::fence();
    w_out[i] = host(w);
    x_out[i] = host(x);
    ++i;
  }
  EXPECT_EQ(w_out[0], w_out[1]) << "C = " << c << " nb = " << nb;
  EXPECT_EQ(x_out[0], x_out[1]) << "C = " << c << " nb = " << nb;
  for (unsigned k = 0; k < value_count; ++k)
    EXPECT_NEAR(sums[0][k], sums[1][k], 1e-12 * (1.0 + std::fabs(sums[0][k]))) << "slot " << k << " C = " << c << " nb = " << nb;
}

TEST(SellMapping, FusedChebfdRowPerItemMatchesChunkPerItem) {
  SpinParams sp;
  sp.sites = 10;
  sp.up = 5;
  const SpinChain spin(sp);
  TopiParams tp;
  tp.block = {3, 2, 4};
  tp.disorder = 0.5;
  const TopologicalInsulator topi(tp);
  const LocalMatrix<double> ms = build_local_matrix<double>(spin, partition_by_rows(spin.rows(), 2), 1);
  const LocalMatrix<Complex> mt = build_local_matrix<Complex>(topi, partition_by_rows(topi.rows(), 1), 0);
  for (auto [c, sigma] : std::vector<std::pair<int, int>>{{4, 16}, {8, 8}, {32, 64}}) {
    // On a host, nb = 3, 4, 11: the chunk mapping's rows one after the other over their columns
    // (4 fixed at compile time, 11 with a part group); 1 and 65: the lanes over the rows, column
    // after column.
    for (int nb : {1, 3, 4, 11, 65}) {
      expect_fused_mappings_agree<double, true>(ms, c, sigma, nb);
      expect_fused_mappings_agree<double, false>(ms, c, sigma, nb);
      expect_fused_mappings_agree<Complex, false>(mt, c, sigma, nb);
    }
  }
}

}  // namespace
}  // namespace desync
