#pragma once
// The local dense products of SymmSquareCube: C := alpha op(A) op(B) + beta C through
// KokkosKernels' gemm, which calls the third-party BLAS (Debian's OpenBLAS) on host spaces when
// KokkosKernels is built with it (ci/install-deps.sh) and its own kernel otherwise.
// bench/gemm_vs_blas.cpp compares this call with the BLAS library called directly.
#include "core/types.hpp"

namespace desync {

// trans_a, trans_b: "N" or "T". Shapes must agree (std::invalid_argument otherwise). As BLAS:
// an empty C is left alone, and an empty inner dimension leaves beta C.
void gemm(const char* trans_a, const char* trans_b, double alpha, const ConstDenseBlock& a, const ConstDenseBlock& b,
          double beta, const DenseBlock& c);

// Whether KokkosKernels was built with a third-party BLAS (KOKKOSKERNELS_ENABLE_TPL_BLAS).
bool gemm_uses_tpl_blas();

}  // namespace desync
