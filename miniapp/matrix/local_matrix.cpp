#include "matrix/local_matrix.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

#include "matrix/column_set.hpp"
#include "matrix/row_stream.hpp"

namespace desync {
namespace {

template <class T>
T convert(const Scalar& v);
template <>
double convert<double>(const Scalar& v) { return v.real(); }
template <>
Complex convert<Complex>(const Scalar& v) { return Complex(v.real(), v.imag()); }

}  // namespace

template <class T>
LocalMatrix<T> build_local_matrix(const MatrixGenerator& g, const RowPartition& p, int rank) {
  if (std::is_same<T, double>::value && g.is_complex())
    throw std::invalid_argument("build_local_matrix: a complex matrix needs complex values");
  const GlobalIndex b = p.begin(rank), e = p.end(rank);
  if (e - b > std::numeric_limits<std::int32_t>::max() / 2)
    throw std::invalid_argument("build_local_matrix: more rows per rank than 32-bit local indices allow");
  LocalMatrix<T> m;
  m.first_row = b;
  m.rows = static_cast<std::int32_t>(e - b);
  m.row_ptr = RowOffsets("desync::matrix::row_ptr", static_cast<std::size_t>(m.rows) + 1);
  auto row_ptr = Kokkos::create_mirror_view(m.row_ptr);

  // Pass 1: row lengths and the halo columns.
  const auto chunks = static_cast<std::size_t>(chunk_count(b, e));
  std::vector<ColumnSet> remote(chunks);
  for_each_row(g, b, e, "desync::matrix::count_local", [&](GlobalIndex c, GlobalIndex r, const GlobalIndex* cols, const Scalar*, int n) {
    row_ptr(static_cast<std::size_t>(r - b) + 1) = n;
    for (int i = 0; i < n; ++i)
      if (cols[i] < b || cols[i] >= e) remote[static_cast<std::size_t>(c)].add(cols[i]);
  });
  row_ptr(0) = 0;
  for (std::int32_t i = 0; i < m.rows; ++i) row_ptr(i + 1) += row_ptr(i);
  m.nnz = row_ptr(m.rows);
  m.halo_columns = ColumnSet::merge(remote);
  if (static_cast<GlobalIndex>(m.rows) + static_cast<GlobalIndex>(m.halo_columns.size()) > std::numeric_limits<std::int32_t>::max())
    throw std::invalid_argument("build_local_matrix: local plus halo columns exceed 32-bit indices");

  // Pass 2: renumbered columns and values.
  m.col = LocalColumns("desync::matrix::col", static_cast<std::size_t>(m.nnz));
  m.val = Values<T>("desync::matrix::val", static_cast<std::size_t>(m.nnz));
  auto col = Kokkos::create_mirror_view(m.col);
  auto val = Kokkos::create_mirror_view(m.val);
  const auto& halo = m.halo_columns;
  const std::int32_t rows = m.rows;
  for_each_row(g, b, e, "desync::matrix::fill_local", [&](GlobalIndex, GlobalIndex r, const GlobalIndex* cols, const Scalar* vals, int n) {
    std::int64_t k = row_ptr(static_cast<std::size_t>(r - b));
    for (int i = 0; i < n; ++i, ++k) {
      const GlobalIndex c = cols[i];
      col(k) = (c >= b && c < e) ? static_cast<std::int32_t>(c - b)
                                 : rows + static_cast<std::int32_t>(std::lower_bound(halo.begin(), halo.end(), c) - halo.begin());
      val(k) = convert<T>(vals[i]);
    }
  });
  Kokkos::deep_copy(m.row_ptr, row_ptr);
  Kokkos::deep_copy(m.col, col);
  Kokkos::deep_copy(m.val, val);
  return m;
}

template LocalMatrix<double> build_local_matrix<double>(const MatrixGenerator&, const RowPartition&, int);
template LocalMatrix<Complex> build_local_matrix<Complex>(const MatrixGenerator&, const RowPartition&, int);

}  // namespace desync
