#include "dense/gemm.hpp"

#include <fmt/format.h>

#include <KokkosBlas3_gemm.hpp>
#include <stdexcept>
#include <string>

#include "kokkos_compat/labelled_fill.hpp"

namespace desync {

namespace {

bool transposed(const char* trans, const char* which) {
  switch (trans[0]) {
    case 'N':
    case 'n':
      return false;
    case 'T':
    case 't':
    case 'C':
    case 'c':
      return true;
    default:
      throw std::invalid_argument(fmt::format("desync::gemm: {} = \"{}\", not N or T", which, trans));
  }
}

}  // namespace

void gemm(const char* trans_a, const char* trans_b, double alpha, const ConstDenseBlock& a, const ConstDenseBlock& b,
          double beta, const DenseBlock& c) {
  // KokkosKernels checks neither the shapes nor the transpose flags unless built with
  // KOKKOSKERNELS_DEBUG_LEVEL > 0; BLAS would read past the buffers.
  const bool ta = transposed(trans_a, "trans_a"), tb = transposed(trans_b, "trans_b");
  const std::size_t m = ta ? a.extent(1) : a.extent(0), k = ta ? a.extent(0) : a.extent(1);
  const std::size_t kb = tb ? b.extent(1) : b.extent(0), n = tb ? b.extent(0) : b.extent(1);
  if (m != c.extent(0) || n != c.extent(1) || k != kb)
    throw std::invalid_argument(fmt::format("desync::gemm: op(A) {}x{} times op(B) {}x{} into C {}x{}", m, k, kb, n,
                                            c.extent(0), c.extent(1)));
  // Empty blocks (a mesh row past N's last block) have nothing to multiply; BLAS would reject
  // their leading dimension of 0.
  if (m == 0 || n == 0) return;
  if (k == 0) {
    // An empty inner dimension: BLAS leaves beta C, KokkosKernels returns without touching C.
    if (beta == 0.0) {
      static const std::string zero_label = "desync::dense::zero";  // as scale_label
      compat::labelled_fill(zero_label, c, 0.0);
    } else if (beta != 1.0) {
      // Built once: Kokkos takes a label as const std::string&, a literal is a new string per launch.
      static const std::string scale_label = "desync::dense::scale";
      Kokkos::parallel_for(scale_label, Kokkos::RangePolicy<ExecSpace>(0, n), KOKKOS_LAMBDA(std::size_t j) {
        for (std::size_t i = 0; i < m; ++i) c(i, j) *= beta;
      });
    }
    return;
  }
  KokkosBlas::gemm(trans_a, trans_b, alpha, a, b, beta, c);
}

bool gemm_uses_tpl_blas() {
#ifdef KOKKOSKERNELS_ENABLE_TPL_BLAS
  return true;
#else
  return false;
#endif
}

}  // namespace desync
