#include "workloads/spmv/spmv_matrix.hpp"

#include <cmath>

namespace desync {
namespace {

KkMatrix as_kk(const char* label, const CrsPart& p, std::int32_t rows, std::int32_t cols) {
  return KkMatrix(label, rows, cols, p.nnz, p.val, p.row_ptr, p.col);
}

}  // namespace

LocalMatrix<double> real_local_matrix(const MatrixGenerator& g, const RowPartition& p, int rank) {
  if (!g.is_complex()) return build_local_matrix<double>(g, p, rank);
  const LocalMatrix<Complex> c = build_local_matrix<Complex>(g, p, rank);
  LocalMatrix<double> m;
  m.first_row = c.first_row;
  m.rows = c.rows;
  m.nnz = c.nnz;
  m.row_ptr = c.row_ptr;
  m.col = c.col;
  m.halo_columns = c.halo_columns;
  m.val = Values<double>("desync::spmv::magnitudes", static_cast<std::size_t>(c.nnz));
  const auto src = c.val;
  const auto dst = m.val;
  Kokkos::parallel_for("desync::spmv::magnitudes", RangePolicy(0, c.nnz),
                       KOKKOS_LAMBDA(Index k) { dst(k) = Kokkos::abs(src(k)); });
  ExecSpace().fence();
  return m;
}

SplitMatrix split_matrix(const LocalMatrix<double>& m, bool stochastic) {
  LocalRemote<double> parts =
      stochastic ? split_local_remote(m, "desync::spmv", [](double v, double s) { return stochastic_value(v, s); })
                 : split_local_remote(m, "desync::spmv");
  SplitMatrix s;
  s.rows = m.rows;
  s.halo = m.halo();
  s.local = std::move(parts.local);
  s.remote = std::move(parts.remote);
  s.kk_local = as_kk("desync::spmv::kk_local", s.local, s.rows, s.rows);
  s.kk_remote = as_kk("desync::spmv::kk_remote", s.remote, s.rows, s.halo);
  return s;
}

}  // namespace desync
