#pragma once
// The CG's kernels (cg/cg.cpp), in a header so that bench/cg_kernels.cpp measures exactly these:
// the row product (one row whole, the same loop in every SpMV variant), the dot product, the
// fused update of x and r with <r, r>, and the new direction. Traffic per row (docs/method.md,
// section 17): dot 16 B, update 48 B (read x, p, r, q; write x, r), direction 24 B (read r, p;
// write p).
#include "core/types.hpp"

namespace desync::cg {

using RowPolicy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int32_t>>;

// q(i) = sum_k a_k p(col_k) for row i.
struct RowProduct {
  RowOffsets row_ptr;
  LocalColumns col;
  Values<double> val;
  Vector p, q;
  KOKKOS_INLINE_FUNCTION void operator()(std::int32_t i) const {
    double s = 0.0;
    for (auto k = row_ptr(i); k < row_ptr(i + 1); ++k) s += val(k) * p(col(k));
    q(i) = s;
  }
};

// The rows listed in `rows` (the overlapped SpMV's two sets).
struct ListedRows {
  RowProduct f;
  LocalColumns rows;
  KOKKOS_INLINE_FUNCTION void operator()(std::int32_t k) const { f(rows(k)); }
};

inline double dot(const Vector& a, const Vector& b, std::int32_t n) {
  double s = 0.0;
  Kokkos::parallel_reduce("desync::cg::dot", RowPolicy(0, n), KOKKOS_LAMBDA(std::int32_t i, double& acc) { acc += a(i) * b(i); }, s);
  return s;
}

// x += alpha p, r -= alpha q; returns the local <r, r>.
inline double update(const Vector& x, const Vector& r, const Vector& p, const Vector& q, double alpha, std::int32_t n) {
  double rr = 0.0;
  Kokkos::parallel_reduce("desync::cg::update", RowPolicy(0, n), KOKKOS_LAMBDA(std::int32_t i, double& acc) {
    x(i) += alpha * p(i);
    r(i) -= alpha * q(i);
    acc += r(i) * r(i);
  }, rr);
  return rr;
}

// p = r + beta p, fenced.
inline void direction(const Vector& p, const Vector& r, double beta, std::int32_t n) {
  Kokkos::parallel_for("desync::cg::direction", RowPolicy(0, n), KOKKOS_LAMBDA(std::int32_t i) { p(i) = r(i) + beta * p(i); });
  ExecSpace().fence();
}

}  // namespace desync::cg
