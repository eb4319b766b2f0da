#pragma once
// Host-thread control that differs per Kokkos host backend (OpenMP or Serial). Nothing else in
// desync names a backend.
#include <functional>

namespace desync::backend {

// Sets the number of host threads the next Kokkos::initialize uses. Kokkos' own command-line
// flag is spelled differently in 3.4 and 4.x, so desync never passes it. n <= 0 keeps the default
// (OMP_NUM_THREADS or all cores).
void request_host_threads(int n);

// The host threads the next Kokkos::initialize will start after request_host_threads(n), for
// checks made before Kokkos starts (Kokkos' own concurrency() is 1 then): n, or with n <= 0 the
// default (OMP_NUM_THREADS or all cores); 1 on the Serial backend.
int planned_host_threads(int n);

// The most host threads one process may start: Kokkos' OpenMP backend keeps its threads' data in
// a fixed pool of 512 (Kokkos 3.4: Kokkos_OpenMP_Exec.hpp, MAX_THREAD_COUNT), and more overrun it
// (a segmentation fault inside Kokkos::initialize), so the deck and the launch refuse them first.
inline constexpr int max_host_threads = 512;

// Runs f(thread, nthreads) once on every thread of the default host execution space, in
// parallel, so each call sees its own thread's binding.
void for_each_host_thread(const std::function<void(int, int)>& f);

}  // namespace desync::backend
