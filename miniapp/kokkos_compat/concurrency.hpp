#pragma once
// ExecSpace::concurrency() is static in 3.4 and a member in 4.x: calling it on an instance
// compiles with both. Before Kokkos::initialize (desync check, the preflights) 3.4 answers 1
// silently, while 4.x's OpenMP instance constructor prints "OpenMP is not initialized" and would
// answer the OpenMP maximum: both answer 1 here (found by a Kokkos 4.6.01 build beside the project).
#include <Kokkos_Core.hpp>

namespace desync::compat {

inline int concurrency() { return Kokkos::is_initialized() ? Kokkos::DefaultExecutionSpace().concurrency() : 1; }
inline int host_concurrency() { return Kokkos::is_initialized() ? Kokkos::DefaultHostExecutionSpace().concurrency() : 1; }

inline const char* execution_space_name() { return Kokkos::DefaultExecutionSpace::name(); }

}  // namespace desync::compat
