#pragma once
// A rank's rows split by column owner (papers.md A.3.3): the local part (columns the rank owns)
// and the remote part (halo columns, renumbered from 0), both CRS over all local rows, so a
// product writes the result with the local part and updates it with the remote one. Every
// scheme that overlaps the halo exchange with the local part uses it (SpMV SPLIT-WAIT, ChebFD).
#include <Kokkos_Core.hpp>

#include <cmath>
#include <cstdint>
#include <string>

#include "core/types.hpp"
#include "matrix/local_matrix.hpp"

namespace desync {

template <class T>
struct CrsBlock {
  RowOffsets row_ptr;
  LocalColumns col;
  Values<T> val;
  std::int64_t nnz = 0;
};

template <class T>
struct LocalRemote {
  CrsBlock<T> local, remote;
};

inline double host_abs(double v) { return std::fabs(v); }
inline double host_abs(const Complex& v) { return Kokkos::abs(v); }

// The identity on a value; split_local_remote's default.
struct KeepValue {
  template <class T>
  T operator()(const T& v, double /*row_abs_sum*/) const { return v; }
};

// Splits m into its local and remote parts; value(v, s) gives the stored value of entry v in a
// row whose absolute values sum to s (e.g. a row-stochastic scaling). Labels: label + "_local_*",
// label + "_remote_*". Set-up work, on the host.
template <class T, class Value = KeepValue>
LocalRemote<T> split_local_remote(const LocalMatrix<T>& m, const std::string& label, Value value = {}) {
  auto rp = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), m.row_ptr);
  auto col = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), m.col);
  auto val = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), m.val);
  const std::int32_t rows = m.rows;
  std::int64_t n_local = 0;
  for (std::int64_t k = 0; k < m.nnz; ++k) n_local += col(k) < rows;
  const auto allocate = [&](const char* what, std::int64_t nnz) {
    const std::string base = label + "_" + what;
    return CrsBlock<T>{RowOffsets(base + "_row_ptr", static_cast<std::size_t>(rows) + 1),
                       LocalColumns(base + "_col", static_cast<std::size_t>(nnz)),
                       Values<T>(base + "_val", static_cast<std::size_t>(nnz)), nnz};
  };
  LocalRemote<T> s{allocate("local", n_local), allocate("remote", m.nnz - n_local)};
  auto lp = Kokkos::create_mirror_view(s.local.row_ptr), rpp = Kokkos::create_mirror_view(s.remote.row_ptr);
  auto lc = Kokkos::create_mirror_view(s.local.col), rc = Kokkos::create_mirror_view(s.remote.col);
  auto lv = Kokkos::create_mirror_view(s.local.val), rv = Kokkos::create_mirror_view(s.remote.val);
  std::size_t nl = 0, nr = 0;
  lp(0) = rpp(0) = 0;
  for (std::int32_t i = 0; i < rows; ++i) {
    double abs_sum = 0.0;
    for (auto k = rp(i); k < rp(i + 1); ++k) abs_sum += host_abs(val(k));
    for (auto k = rp(i); k < rp(i + 1); ++k) {
      const T v = value(val(k), abs_sum);
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
  return s;
}

}  // namespace desync
