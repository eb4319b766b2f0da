#pragma once
// The CG's verification on the host, against the rank's matrix rows and vector values that do
// not come through the workload's own halo exchange (docs/method.md, section 17). b = A x* and
// the true residual b - A x were both computed through that exchange before, so a halo delivered
// wrong (from the wrong rows or partner, stale, not at all) changed A, b and the recurrence
// alike, and the checks agreed with it. Here x* is known at every global column, and x is
// gathered from its owners (workload/owned_values.hpp).
#include <cmath>
#include <cstdint>
#include <vector>

#include <Kokkos_Core.hpp>

#include "core/types.hpp"
#include "matrix/local_matrix.hpp"

namespace desync::cg {

// A rank's CRS rows on the host, with the global index of every local column. Host mirrors: in a
// host build the matrix's own arrays (no copy), in a device build one copy in host memory.
struct HostRows {
  GlobalIndex first = 0;
  std::int32_t rows = 0;
  RowOffsets::HostMirror row_ptr;
  LocalColumns::HostMirror col;
  Values<double>::HostMirror val;
  std::vector<GlobalIndex> halo_columns;  // global index of local column rows + h

  GlobalIndex global(std::int32_t c) const {
    return c < rows ? first + c : halo_columns[static_cast<std::size_t>(c - rows)];
  }
};

HostRows host_rows(const LocalMatrix<double>& m);

// Over the rank's rows i, d_i = y_i - (A v)_i with v(g) the value at global column g. Returns
// the rows where |d_i| exceeds 1e-12 sum_k |a_ik v(g_k)| (the rounding of the sum in any order,
// with or without fused multiply-adds); *d2, when given, gets sum d_i^2, and *wd, when w is
// given, sum w_i d_i.
template <class V>
std::int64_t rows_off_product(const HostRows& a, const V& v, const double* y, double* d2 = nullptr, const double* w = nullptr,
                              double* wd = nullptr) {
  std::int64_t wrong = 0;
  double sum = 0.0, weighted = 0.0;
  for (std::int32_t i = 0; i < a.rows; ++i) {
    double ref = 0.0, scale = 0.0;
    for (std::size_t k = a.row_ptr(i); k < a.row_ptr(i + 1); ++k) {
      const double t = a.val(k) * v(a.global(a.col(k)));
      ref += t;
      scale += std::fabs(t);
    }
    const double d = y[i] - ref;
    sum += d * d;
    if (w) weighted += w[i] * d;
    if (!(std::fabs(d) <= 1e-12 * scale + 1e-300)) ++wrong;
  }
  if (d2) *d2 = sum;
  if (wd) *wd = weighted;
  return wrong;
}

}  // namespace desync::cg
