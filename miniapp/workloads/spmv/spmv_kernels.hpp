#pragma once
// The CRS kernels of the SpMV schemes: y = A_local x (overwrite) and y += A_remote x_halo
// (update), one row per work item, entries summed in storage order.
#include "core/types.hpp"
#include "workloads/spmv/spmv_matrix.hpp"

namespace desync::spmv {

struct LocalProduct {
  RowOffsets row_ptr;
  LocalColumns col;
  Values<double> val;
  Vector x, y;
  KOKKOS_INLINE_FUNCTION void operator()(std::int32_t i) const {
    double sum = 0.0;
    for (std::size_t k = row_ptr(i); k < row_ptr(i + 1); ++k) sum += val(k) * x(col(k));
    y(i) = sum;
  }
};

// Remote columns index the halo, stored after the rows local entries of x.
struct RemoteUpdate {
  RowOffsets row_ptr;
  LocalColumns col;
  Values<double> val;
  Vector x, y;
  std::int32_t halo_offset;
  KOKKOS_INLINE_FUNCTION void operator()(std::int32_t i) const {
    const std::size_t b = row_ptr(i), e = row_ptr(i + 1);
    if (b == e) return;
    double sum = 0.0;
    for (std::size_t k = b; k < e; ++k) sum += val(k) * x(halo_offset + col(k));
    y(i) += sum;
  }
};

}  // namespace desync::spmv
