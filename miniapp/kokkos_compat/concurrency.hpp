#pragma once
// ExecSpace::concurrency() is static in 3.4 and a member in 4.x: calling it on an instance
// compiles with both.
#include <Kokkos_Core.hpp>

namespace desync::compat {

inline int concurrency() { return Kokkos::DefaultExecutionSpace().concurrency(); }
inline int host_concurrency() { return Kokkos::DefaultHostExecutionSpace().concurrency(); }

inline const char* execution_space_name() { return Kokkos::DefaultExecutionSpace::name(); }

}  // namespace desync::compat
