#pragma once
// Whether Kokkos itself takes memory from the C++ heap in an ordinary launch. Kokkos 4.x does
// (measured on 4.6.01, OpenMP, with a counting operator new): each default-constructed
// execution-space instance allocates its HostSharedPtr's control block (a RangePolicy constructs
// one to ask the concurrency for its automatic chunk size), and each fence or deep_copy without a
// name builds its default name as a std::string: 1 to 5 allocations per parallel_for,
// parallel_reduce, fence() or deep_copy. Kokkos 3.4 allocates in none of them. So a count of
// every allocation of the process (tests/mpi/test_loop_allocations.cpp) sees desync's loops only
// on Kokkos 3.4.
#include <Kokkos_Macros.hpp>

namespace desync::compat {

inline constexpr bool kokkos_launches_allocate = KOKKOS_VERSION >= 40000;

}  // namespace desync::compat
