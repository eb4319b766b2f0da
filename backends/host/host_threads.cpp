#include "host/host_threads.hpp"

#include <Kokkos_Core.hpp>

#ifdef KOKKOS_ENABLE_OPENMP
#include <omp.h>
#endif

namespace desync::backend {

void request_host_threads(int n) {
#ifdef KOKKOS_ENABLE_OPENMP
  if (n > 0) omp_set_num_threads(n);
#else
  (void)n;
#endif
}

int planned_host_threads(int n) {
#ifdef KOKKOS_ENABLE_OPENMP
  if (std::is_same<Kokkos::DefaultHostExecutionSpace, Kokkos::OpenMP>::value) return n > 0 ? n : omp_get_max_threads();
#endif
  (void)n;
  return 1;
}

void for_each_host_thread(const std::function<void(int, int)>& f) {
#ifdef KOKKOS_ENABLE_OPENMP
  if (std::is_same<Kokkos::DefaultHostExecutionSpace, Kokkos::OpenMP>::value) {
    // an OpenMP instance before Kokkos::initialize is an error in Kokkos 4.x (kokkos_compat/concurrency.hpp)
    const int n = Kokkos::is_initialized() ? Kokkos::OpenMP().concurrency() : omp_get_max_threads();
#pragma omp parallel num_threads(n)
    f(omp_get_thread_num(), omp_get_num_threads());
    return;
  }
#endif
  f(0, 1);
}

}  // namespace desync::backend
