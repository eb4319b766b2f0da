#pragma once
// The CG's kernels (workloads/cg/cg.cpp), in a header so that bench/cg_ratios.cpp measures exactly these:
// the SpMV is desync's row kernel (spmv::LocalProduct: one row whole, the same loop in every
// SpMV variant), applied to all rows or to a list of rows; then the dot product, the fused
// update of x and r with <r, r>, and the new direction. Traffic per row (docs/method.md,
// section 17): dot 16 B, update 48 B (read x, p, r, q; write x, r), direction 24 B (read r, p;
// write p).
#include <string>

#include "core/types.hpp"
#include "workloads/spmv/spmv_kernels.hpp"

namespace desync::cg {

using RowPolicy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int32_t>>;

// q = A p over the listed rows only (the overlapped SpMV's two sets).
struct ListedRows {
  spmv::LocalProduct f;
  LocalColumns rows;
  KOKKOS_INLINE_FUNCTION void operator()(std::int32_t k) const { f(rows(k)); }
};

// The reductions take `lanes` rows per work item, summed into 4 independent partial sums that
// live in registers: a sum of one row per item is a chain of dependent additions through the
// reduction variable (the compiler may not reorder floating-point sums), which holds a core far
// below memory speed (bench_cg: 23 GB/s against the triad's 38 GB/s on 2 cores). The order of
// the sum is fixed, so results are reproducible and the same in every SpMV variant.
constexpr std::int32_t lanes = 16;

inline double dot(const Vector& a, const Vector& b, std::int32_t n) {
  double s = 0.0;
  // Built once: Kokkos takes a label as const std::string&, a literal is a new string per launch.
  static const std::string dot_label = "desync::cg::dot";
  Kokkos::parallel_reduce(dot_label, RowPolicy(0, (n + lanes - 1) / lanes), KOKKOS_LAMBDA(std::int32_t k, double& acc) {
    const std::int32_t i = k * lanes;
    double p0 = 0.0, p1 = 0.0, p2 = 0.0, p3 = 0.0;
    if (i + lanes <= n) {
      for (std::int32_t j = i; j < i + lanes; j += 4) {
        p0 += a(j) * b(j);
        p1 += a(j + 1) * b(j + 1);
        p2 += a(j + 2) * b(j + 2);
        p3 += a(j + 3) * b(j + 3);
      }
    } else {
      for (std::int32_t j = i; j < n; ++j) p0 += a(j) * b(j);
    }
    acc += (p0 + p1) + (p2 + p3);
  }, s);
  return s;
}

// x += alpha p, r -= alpha q; returns the local <r, r>.
inline double update(const Vector& x, const Vector& r, const Vector& p, const Vector& q, double alpha, std::int32_t n) {
  double rr = 0.0;
  // Built once: Kokkos takes a label as const std::string&, a literal is a new string per launch.
  static const std::string update_label = "desync::cg::update";
  Kokkos::parallel_reduce(update_label, RowPolicy(0, (n + lanes - 1) / lanes), KOKKOS_LAMBDA(std::int32_t k, double& acc) {
    const std::int32_t i = k * lanes, end = i + lanes < n ? i + lanes : n;
    double part[4] = {0.0, 0.0, 0.0, 0.0};
    for (std::int32_t j = i; j < end; ++j) {
      x(j) += alpha * p(j);
      const double rj = r(j) - alpha * q(j);
      r(j) = rj;
      part[(j - i) & 3] += rj * rj;
    }
    acc += (part[0] + part[1]) + (part[2] + part[3]);
  }, rr);
  return rr;
}

// p = r + beta p, fenced.
inline void direction(const Vector& p, const Vector& r, double beta, std::int32_t n) {
  // Built once: Kokkos takes a label as const std::string&, a literal is a new string per launch.
  static const std::string direction_label = "desync::cg::direction";
  Kokkos::parallel_for(direction_label, RowPolicy(0, n), KOKKOS_LAMBDA(std::int32_t i) { p(i) = r(i) + beta * p(i); });
  ExecSpace().fence();
}

}  // namespace desync::cg
