// The Kokkos 3.4 / 4.x shims: every header compiles on its own and does what it stands in for.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "core/types.hpp"
#include "kokkos_compat/concurrency.hpp"
#include "kokkos_compat/math.hpp"
#include "kokkos_compat/scoped_region.hpp"

namespace desync {
namespace {

std::vector<std::string> g_events;
void on_push(const char* name) { g_events.push_back(std::string("push ") + name); }
void on_pop() { g_events.push_back("pop"); }

TEST(Compat, ConcurrencyAndSpaceName) {
  EXPECT_GE(compat::concurrency(), 1);
  EXPECT_FALSE(std::string(compat::execution_space_name()).empty());
}

// A free function: nvcc refuses a device lambda inside a gtest TestBody (a private member).
void math_kernel(const Vector& v) {
  Kokkos::parallel_for("desync::test::math", RangePolicy(0, 3), KOKKOS_LAMBDA(Index i) {
    v(i) = compat::cos(0.5 * static_cast<double>(i)) + compat::fabs(-1.0 * static_cast<double>(i));
  });
}

TEST(Compat, MathInKernelsMatchesTheHost) {
  Vector v("desync::test::math", 3);
  math_kernel(v);
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(h(i), std::cos(0.5 * i) + i, 1e-15);
}

TEST(Compat, ScopedRegionPushesAndPops) {
  Kokkos::Tools::Experimental::set_push_region_callback(on_push);
  Kokkos::Tools::Experimental::set_pop_region_callback(on_pop);
  {
    compat::ScopedRegion outer("desync::test::outer");
    compat::ScopedRegion inner("desync::test::inner");
  }
  Kokkos::Tools::Experimental::set_push_region_callback(nullptr);
  Kokkos::Tools::Experimental::set_pop_region_callback(nullptr);
  EXPECT_EQ(g_events, (std::vector<std::string>{"push desync::test::outer", "push desync::test::inner", "pop", "pop"}));
}

}  // namespace
}  // namespace desync
