// P_D with the barrier correction, CER and the SpMV byte model on known numbers.
#include <gtest/gtest.h>

#include "metrics/desync_speedup.hpp"
#include "metrics/phase_stats.hpp"
#include "workloads/spmv/spmv.hpp"
#include "workloads/spmv/spmv_state.hpp"
#include "workloads/spmv/spmv_config.hpp"

namespace desync {
namespace {

TEST(SpmvMetrics, DesyncSpeedupSubtractsTheBarrierCost) {
  // 100 iterations, 1e9 flops; barrier-free 1.0 s; barrier run 1.2 s of which 100 x 1 ms barriers.
  const double pd = desync_speedup(1e9, 1.0, 1.2, 100, 1e-3);
  EXPECT_NEAR(pd, (1e9 / 1.0 - 1e9 / 1.1) / (1e9 / 1.1), 1e-12);
  EXPECT_NEAR(pd, 0.1, 1e-12);
  EXPECT_NEAR(desync_speedup(1e9, 2.0, 1.1, 100, 1e-3), -0.5, 1e-12) << "a slower barrier-free run is negative";
  EXPECT_DOUBLE_EQ(comm_to_exec(30e-3, 214.6e-3), 30.0 / 214.6);  // the papers' example: 0.14
  EXPECT_EQ(comm_to_exec(1.0, 0.0), 0.0);
}

TEST(SpmvMetrics, PhasesOfBothSchemesOnASyntheticTimeline) {
  for (auto scheme : {SpmvScheme::nonsplit, SpmvScheme::splitwait}) {
    Timeline tl(spmv_event_names(scheme), 2, 0);
    for (int it = 0; it < 2; ++it)
      for (int e = 0; e + 2 < tl.events(); ++e) tl.set(it, e, 10.0 * it + e * (e + 1) / 2.0);  // gaps 1, 2, 3, ...; no delay, no sync
    const PhaseLayout l = phase_layout(tl.event_names(), {{"exec", {"local", "remote"}}, {"comm", {"pack", "post", "wait"}}});
    const auto d = phase_durations(tl, l);
    const auto at = [&](const char* p) { return d[static_cast<std::size_t>(l.index(p))][0]; };
    EXPECT_EQ(at("pack"), 1.0);
    EXPECT_EQ(at("post"), 2.0);
    EXPECT_EQ(at("remote"), 5.0);
    if (scheme == SpmvScheme::nonsplit) {
      EXPECT_EQ(at("wait"), 3.0);
      EXPECT_EQ(at("local"), 4.0);
    } else {
      EXPECT_EQ(at("local"), 3.0);
      EXPECT_EQ(at("wait"), 4.0);
    }
    EXPECT_EQ(at("exec"), at("local") + at("remote"));
    EXPECT_EQ(at("comm"), 1.0 + 2.0 + at("wait"));
    EXPECT_TRUE(std::isnan(at("sync")));
    EXPECT_TRUE(std::isnan(at("delay"))) << "no delay injected: the phase does not exist";
    EXPECT_EQ(at("iteration"), 10.0);
  }
}

TEST(SpmvMetrics, ByteModel) {
  // 12 B per nonzero + 24 B per row, 16 B per row for the remote pass, 8 B per halo entry.
  EXPECT_EQ(spmv_bytes(10, 100, 0, false), 1200.0 + 240.0);
  EXPECT_EQ(spmv_bytes(10, 100, 5, true), 1200.0 + 240.0 + 160.0 + 40.0);
}

}  // namespace
}  // namespace desync
