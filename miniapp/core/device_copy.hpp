#pragma once
// A host vector copied into a new View on the default memory space (index lists, run tables,
// built on the host at set-up).
#include <string>
#include <vector>

#include "core/types.hpp"

namespace desync {

template <class T>
Kokkos::View<T*, MemSpace> to_device(const std::string& label, const std::vector<T>& v) {
  Kokkos::View<T*, MemSpace> d(label, v.size());
  auto h = Kokkos::create_mirror_view(d);
  for (std::size_t k = 0; k < v.size(); ++k) h(k) = v[k];
  Kokkos::deep_copy(d, h);
  return d;
}

}  // namespace desync
