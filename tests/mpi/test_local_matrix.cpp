// Distributed matrices at the current rank count: local/halo split, the halo plan, a real halo
// exchange, and the product with the local matrix against the generator's global rows.
#include <gtest/gtest.h>
#include <mpi.h>

#include <complex>
#include <vector>

#include "comm/halo_plan.hpp"
#include "core/mpi_util.hpp"
#include "matrix/local_matrix.hpp"
#include "matrix/make_generator.hpp"

namespace desync {
namespace {

Scalar f(GlobalIndex g) { return Scalar(1.0 + 0.01 * static_cast<double>(g % 97), 0.001 * static_cast<double>(g % 13)); }

template <class T>
T as(const Scalar& s);
template <>
double as<double>(const Scalar& s) { return s.real(); }
template <>
Complex as<Complex>(const Scalar& s) { return Complex(s.real(), s.imag()); }

template <class T>
void check(const MatrixConfig& cfg, PartitionKind kind) {
  const int rank = comm_rank(MPI_COMM_WORLD), size = comm_size(MPI_COMM_WORLD);
  const auto g = make_generator(cfg);
  const RowPartition p = make_partition(*g, kind, size);
  const LocalMatrix<T> m = build_local_matrix<T>(*g, p, rank);
  const HaloPlan h = build_halo_plan(m.halo_columns, p, MPI_COMM_WORLD);
  ASSERT_EQ(m.rows, p.rows(rank));

  // Receive counts agree with what each partner sends us.
  std::vector<int> recv_count(size, 0), send_count(size, 0), told(size, 0);
  for (const auto& r : h.recv) recv_count[r.rank] = r.count;
  for (const auto& s : h.send) send_count[s.rank] = s.count;
  MPI_Alltoall(send_count.data(), 1, MPI_INT, told.data(), 1, MPI_INT, MPI_COMM_WORLD);
  EXPECT_EQ(told, recv_count);
  for (const auto& r : h.recv) EXPECT_NE(r.rank, rank) << "a rank never receives from itself";

  // A real exchange of x(g) = f(g).
  std::vector<T> x(static_cast<std::size_t>(m.rows) + m.halo_columns.size());
  for (std::int32_t i = 0; i < m.rows; ++i) x[i] = as<T>(f(m.first_row + i));
  std::vector<T> sendbuf(h.send_index_host.size());
  for (std::size_t i = 0; i < sendbuf.size(); ++i) sendbuf[i] = x[h.send_index_host[i]];
  std::vector<MPI_Request> req;
  const MPI_Datatype type = std::is_same<T, double>::value ? MPI_DOUBLE : MPI_C_DOUBLE_COMPLEX;
  for (const auto& r : h.recv) {
    req.emplace_back();
    MPI_Irecv(&x[static_cast<std::size_t>(m.rows + r.offset)], r.count, type, r.rank, 5, MPI_COMM_WORLD, &req.back());
  }
  for (const auto& s : h.send) {
    req.emplace_back();
    MPI_Isend(&sendbuf[static_cast<std::size_t>(s.offset)], s.count, type, s.rank, 5, MPI_COMM_WORLD, &req.back());
  }
  MPI_Waitall(static_cast<int>(req.size()), req.data(), MPI_STATUSES_IGNORE);
  for (std::size_t k = 0; k < m.halo_columns.size(); ++k)
    ASSERT_EQ(x[m.rows + k], as<T>(f(m.halo_columns[k]))) << "halo entry " << k;

  // Local product against the global rows: same summation order, so bitwise equal.
  auto row_ptr = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), m.row_ptr);
  auto col = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), m.col);
  auto val = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), m.val);
  std::vector<GlobalIndex> gc(g->max_row_entries());
  std::vector<Scalar> gv(gc.size());
  for (std::int32_t i = 0; i < m.rows; ++i) {
    T y{}, ref{};
    for (auto k = row_ptr(i); k < row_ptr(i + 1); ++k) y += val(k) * x[static_cast<std::size_t>(col(k))];
    const int n = g->row(m.first_row + i, gc.data(), gv.data());
    ASSERT_EQ(n, row_ptr(i + 1) - row_ptr(i));
    for (int k = 0; k < n; ++k) ref += as<T>(gv[k]) * as<T>(f(gc[k]));
    ASSERT_EQ(y, ref) << "row " << m.first_row + i;
  }
}

MatrixConfig spin() {
  MatrixConfig c;
  c.generator = GeneratorKind::spin;
  c.spin.sites = 12;
  c.spin.up = 6;
  c.spin.boundary = LatticeBoundary::periodic;
  return c;
}

TEST(LocalMatrix, SpinByRows) { check<double>(spin(), PartitionKind::rows); }
TEST(LocalMatrix, SpinByNonzeros) { check<double>(spin(), PartitionKind::nnz); }

TEST(LocalMatrix, HolsteinHubbard) {
  MatrixConfig c;
  c.generator = GeneratorKind::hhq;
  c.hhq.sites = 4;
  c.hhq.up = 2;
  c.hhq.down = 1;
  c.hhq.phonons = 3;
  for (auto order : {PhononOrder::pe, PhononOrder::ep}) {
    c.hhq.order = order;
    check<double>(c, PartitionKind::nnz);
  }
}

TEST(LocalMatrix, TopologicalInsulator) {
  MatrixConfig c;
  c.generator = GeneratorKind::topi;
  c.topi.block = {3, 2, 4};
  c.topi.nodes = {1, 2, 2};
  c.topi.disorder = 0.5;
  for (auto ordering : {TopiOrdering::node_block, TopiOrdering::scamac}) {
    c.topi.ordering = ordering;
    check<Complex>(c, PartitionKind::rows);
  }
}

TEST(LocalMatrix, Stencil5) {
  MatrixConfig c;
  c.generator = GeneratorKind::stencil5;
  c.stencil5.nx = 7;
  c.stencil5.ny = 5;
  check<double>(c, PartitionKind::rows);
}

}  // namespace
}  // namespace desync
