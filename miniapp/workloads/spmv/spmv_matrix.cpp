#include "workloads/spmv/spmv_matrix.hpp"

#include <cmath>

namespace desync {
namespace {

CrsPart allocate(const char* what, std::int32_t rows, std::int64_t nnz) {
  CrsPart p;
  p.nnz = nnz;
  const std::string base = std::string("desync::spmv::") + what;
  p.row_ptr = RowOffsets(base + "_row_ptr", static_cast<std::size_t>(rows) + 1);
  p.col = LocalColumns(base + "_col", static_cast<std::size_t>(nnz));
  p.val = Values<double>(base + "_val", static_cast<std::size_t>(nnz));
  return p;
}

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
  auto rp = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), m.row_ptr);
  auto col = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), m.col);
  auto val = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), m.val);
  const std::int32_t rows = m.rows;
  std::int64_t n_local = 0;
  for (std::int64_t k = 0; k < m.nnz; ++k) n_local += col(k) < rows;

  SplitMatrix s;
  s.rows = rows;
  s.halo = m.halo();
  s.local = allocate("local", rows, n_local);
  s.remote = allocate("remote", rows, m.nnz - n_local);
  auto lp = Kokkos::create_mirror_view(s.local.row_ptr), rpp = Kokkos::create_mirror_view(s.remote.row_ptr);
  auto lc = Kokkos::create_mirror_view(s.local.col), rc = Kokkos::create_mirror_view(s.remote.col);
  auto lv = Kokkos::create_mirror_view(s.local.val), rv = Kokkos::create_mirror_view(s.remote.val);
  std::size_t nl = 0, nr = 0;
  lp(0) = rpp(0) = 0;
  for (std::int32_t i = 0; i < rows; ++i) {
    double abs_sum = 0.0;
    for (auto k = rp(i); k < rp(i + 1); ++k) abs_sum += std::fabs(val(k));
    for (auto k = rp(i); k < rp(i + 1); ++k) {
      const double v = stochastic ? stochastic_value(val(k), abs_sum) : val(k);
      if (col(k) < rows) {
        lc(nl) = col(k);
        lv(nl++) = v;
      } else {
        rc(nr) = col(k) - rows;
        rv(nr++) = v;
      }
    }
    lp(i + 1) = nl;
    rpp(i + 1) = nr;
  }
  Kokkos::deep_copy(s.local.row_ptr, lp);
  Kokkos::deep_copy(s.local.col, lc);
  Kokkos::deep_copy(s.local.val, lv);
  Kokkos::deep_copy(s.remote.row_ptr, rpp);
  Kokkos::deep_copy(s.remote.col, rc);
  Kokkos::deep_copy(s.remote.val, rv);
  s.kk_local = as_kk("desync::spmv::kk_local", s.local, rows, rows);
  s.kk_remote = as_kk("desync::spmv::kk_remote", s.remote, rows, s.halo);
  return s;
}

}  // namespace desync
