#pragma once
// Kokkos::Profiling::ScopedRegion exists only from Kokkos 4.1; push/popRegion exist in 3.4 and 4.x.
#include <Kokkos_Core.hpp>

#include <string>

namespace desync::compat {

class ScopedRegion {
 public:
  explicit ScopedRegion(const std::string& name) { Kokkos::Profiling::pushRegion(name); }
  ~ScopedRegion() { Kokkos::Profiling::popRegion(); }
  ScopedRegion(const ScopedRegion&) = delete;
  ScopedRegion& operator=(const ScopedRegion&) = delete;
};

}  // namespace desync::compat
