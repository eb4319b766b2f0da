#pragma once
// Test data shared by the kernel-mapping tests (test_sell_mapping, test_chebfd_elements): a View
// filled with a smooth, non-repeating pattern (real, or complex with a second pattern), and a
// View's values as a host vector for bitwise comparisons.
#include <Kokkos_Core.hpp>
#include <cmath>
#include <cstddef>
#include <string>
#include <type_traits>
#include <vector>

namespace desync::test {

template <class V>
V filled(const std::string& name, std::size_t n, double seed) {
  using T = typename V::non_const_value_type;
  V v(name, n);
  auto h = Kokkos::create_mirror_view(v);
  for (std::size_t i = 0; i < n; ++i) {
    const double a = std::sin(seed + 0.37 * static_cast<double>(i)), b = std::cos(seed * 0.5 + 0.11 * static_cast<double>(i));
    if constexpr (std::is_same_v<T, double>) h(i) = a;
    else h(i) = T(a, b);
  }
  Kokkos::deep_copy(v, h);
  return v;
}

template <class V>
auto host(const V& v) {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
  using T = typename V::non_const_value_type;
  return std::vector<T>(h.data(), h.data() + h.extent(0));
}

}  // namespace desync::test
