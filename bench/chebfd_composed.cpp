#include "chebfd_composed.hpp"

#include <Kokkos_Core.hpp>
#include <KokkosBlas1_axpby.hpp>
#include <KokkosBlas1_dot.hpp>
#include <algorithm>

#include "bench_util.hpp"
#include "kokkos_compat/sparse_spmv.hpp"

namespace desync::bench {

double composed_step_time(const KkMatrix& a, std::int32_t n, int nb, int reps) {
  // Column-major multivectors for KokkosKernels.
  using Block = Kokkos::View<double**, Kokkos::LayoutLeft, MemSpace>;
  Block U("desync::bench::U", n, nb), W("desync::bench::W", n, nb), X("desync::bench::X", n, nb);
  Kokkos::deep_copy(U, 0.5);
  Kokkos::View<double*, Kokkos::HostSpace> eta("desync::bench::eta", nb), mu("desync::bench::mu", nb);
  double t = 1e300;
  for (int k = 0; k < reps; ++k)
    t = std::min(t, best_time(1, [&] {
      KokkosSparse::spmv("N", 2 * 0.1, a, U, -1.0, W);
      KokkosBlas::axpy(2 * 0.05, U, W);
      KokkosBlas::dot(eta, W, U);
      KokkosBlas::dot(mu, U, U);
      KokkosBlas::axpy(0.01, W, X);
      Kokkos::fence();
    }));
  return t;
}

}  // namespace desync::bench
