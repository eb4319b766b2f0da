// The three compute kernels produce the documented values, and the verifier catches a wrong one.
#include <gtest/gtest.h>

#include <cmath>

#include "workloads/triad/triad.hpp"
#include "workloads/triad/triad_kernels.hpp"
#include "workloads/triad/triad_config.hpp"

namespace desync {
namespace {

struct Arrays {
  Vector a{"desync::test::a", 1000}, b{"desync::test::b", 1000}, c{"desync::test::c", 1000},
      d{"desync::test::d", 1000};
};

void run(TriadKernel kernel, const TriadConfig& cfg, Arrays& x, Index offset) {
  const RangePolicy all(0, 1000);
  Kokkos::parallel_for("desync::test::init", all, triad::Init{x.a, x.b, x.c, x.d, offset});
  if (kernel == TriadKernel::stream) Kokkos::parallel_for("desync::test::stream", all, triad::Stream{x.a, x.b, x.c, cfg.scalar});
  if (kernel == TriadKernel::schoenauer) Kokkos::parallel_for("desync::test::schoenauer", all, triad::Schoenauer{x.a, x.b, x.c, x.d});
  if (kernel == TriadKernel::divide) Kokkos::parallel_for("desync::test::divide", all, triad::Divide{x.a, x.b, cfg.divides});
  Kokkos::fence();
}

double expected(TriadKernel kernel, const TriadConfig& cfg, Index g) {
  const double b = 1.0 + 0.5 * (g % 7), c = 2.0 + 0.25 * (g % 5), d = 1.0 + (g % 3);
  if (kernel == TriadKernel::stream) return b + cfg.scalar * c;
  if (kernel == TriadKernel::schoenauer) return b + std::cos(c / d);
  double x = b;
  for (Index k = 0; k < cfg.divides; ++k) x /= 1.000000119;
  return x;
}

class TriadKernels : public ::testing::TestWithParam<TriadKernel> {};

TEST_P(TriadKernels, ValuesMatchAnIndependentHostFormula) {
  TriadConfig cfg;
  cfg.kernel = GetParam();
  cfg.scalar = 2.5;
  cfg.divides = 10;
  Arrays x;
  const Index offset = 12345;
  run(cfg.kernel, cfg, x, offset);
  auto a = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), x.a);
  for (Index i = 0; i < 1000; ++i) ASSERT_NEAR(a(i), expected(cfg.kernel, cfg, offset + i), 1e-12) << i;
  EXPECT_EQ(triad_count_wrong(x.a, offset, cfg), 0);
}

TEST_P(TriadKernels, VerifierCountsEveryWrongElement) {
  TriadConfig cfg;
  cfg.kernel = GetParam();
  cfg.divides = 5;
  Arrays x;
  run(cfg.kernel, cfg, x, 0);
  auto a = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), x.a);
  a(0) += 1e-6;    // first element
  a(999) *= 1.5;   // last element (a sample of one would miss this)
  a(500) = std::nan("");
  Kokkos::deep_copy(x.a, a);
  EXPECT_EQ(triad_count_wrong(x.a, 0, cfg), 3);
  // The same array checked with the wrong global offset is wrong almost everywhere.
  EXPECT_GT(triad_count_wrong(x.a, 1, cfg), 100);
}

INSTANTIATE_TEST_SUITE_P(AllKernels, TriadKernels,
                         ::testing::Values(TriadKernel::stream, TriadKernel::schoenauer, TriadKernel::divide));

struct Count {  // how often each element is visited (at namespace scope: nvcc names kernel functors)
  Vector count;
  KOKKOS_INLINE_FUNCTION void operator()(Index i) const { count(i) += 1.0; }
};

// The GPU's launch shape (four elements per thread, ceil(n/4) apart) forced on this build's space:
// every element written once, the same values as an element per thread, for sizes that do and
// do not divide by four (0 and 1 included).
TEST(TriadShapes, FourPerThreadWritesEveryElementOnce) {
  for (Index n : {0, 1, 2, 3, 4, 5, 7, 8, 1001}) {
    Vector a("a", n), b("b", n), c("c", n), d("d", 0), count("count", n);
    Kokkos::parallel_for("init", RangePolicy(0, n), triad::Init{a, b, c, d, 3});
    Vector ref("ref", n);
    triad::stream_for<ExecSpace, triad::StreamShape::element_per_thread>("ref", n, triad::Stream{ref, b, c, 2.5});
    triad::stream_for<ExecSpace, triad::StreamShape::four_per_thread>("four", n, triad::Stream{a, b, c, 2.5});
    triad::stream_for<ExecSpace, triad::StreamShape::four_per_thread>("count", n, Count{count});
    Kokkos::fence();
    const auto ha = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), a);
    const auto hr = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), ref);
    const auto hc = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), count);
    for (Index i = 0; i < n; ++i) {
      EXPECT_EQ(ha(i), hr(i)) << "n = " << n << ", i = " << i;
      EXPECT_EQ(hc(i), 1.0) << "n = " << n << ", i = " << i;
    }
  }
}

TEST(TriadModel, LocalSizesSplitTheGlobalSize) {
  TriadConfig cfg;
  cfg.global_size = 10;
  Index sum = 0;
  for (int r = 0; r < 4; ++r) sum += triad_local_size(cfg, r, 4);
  EXPECT_EQ(sum, 10);
  EXPECT_EQ(triad_local_size(cfg, 0, 4), 3);
  EXPECT_EQ(triad_local_size(cfg, 3, 4), 2);
  cfg.global_size = 0;
  cfg.size_per_rank = 77;
  EXPECT_EQ(triad_local_size(cfg, 3, 4), 77);
}

TEST(TriadModel, BytesPerElement) {
  EXPECT_EQ(triad_bytes_per_element(TriadKernel::stream, false), 24.0);
  EXPECT_EQ(triad_bytes_per_element(TriadKernel::stream, true), 32.0);
  EXPECT_EQ(triad_bytes_per_element(TriadKernel::schoenauer, true), 40.0);
}

}  // namespace
}  // namespace desync
