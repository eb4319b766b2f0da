// The whole triad loop at the current rank count: every kernel, with and without barrier, open
// and periodic: verification passes, every message is checked, and the timeline is complete.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cmath>
#include <tuple>

#include "workloads/registry.hpp"
#include "core/mpi_util.hpp"
#include "record/iteration_events.hpp"
#include "workloads/triad/triad.hpp"
#include "workloads/triad/triad_config.hpp"

namespace desync {
namespace {

using Params = std::tuple<TriadKernel, bool, Boundary>;
class TriadRun : public ::testing::TestWithParam<Params> {};

TEST_P(TriadRun, VerifiesAndRecordsEveryIteration) {
  const int rank = comm_rank(MPI_COMM_WORLD), size = comm_size(MPI_COMM_WORLD);
  Config cfg = load_deck(R"(
[run]
iterations = 12
warmup = 3
progress_interval = 0
[triad]
global_size = 4099
divides = 8
offsets = [1, -1, 2]
[[inject]]
rank = 0
iteration = 5
duration = 0.002
)", "run.toml", {});
  cfg.params.get<TriadConfig>().kernel = std::get<0>(GetParam());
  cfg.comm.sync = std::get<1>(GetParam()) ? SyncMode::barrier : SyncMode::none;
  cfg.params.get<TriadConfig>().boundary = std::get<2>(GetParam());
  const WorkloadResult r = run_triad(cfg, MPI_COMM_WORLD);

  EXPECT_EQ(r.element_errors, 0);
  EXPECT_EQ(r.elements_checked, triad_local_size(cfg.params.get<TriadConfig>(), rank, size));
  EXPECT_EQ(r.message_errors, 0);
  int partners = 0;
  for (int f : r.partners.recv_rank) partners += f >= 0;
  EXPECT_EQ(r.messages_checked, 15 * partners);

  const Timeline& tl = r.timeline;
  ASSERT_EQ(tl.iterations(), 15);
  for (std::int64_t it = 0; it < 15; ++it) {
    EXPECT_LE(tl.at(it, ev::compute_begin), tl.at(it, ev::compute_end));
    EXPECT_LE(tl.at(it, ev::compute_end), tl.at(it, ev::post_end));
    EXPECT_LE(tl.at(it, ev::post_end), tl.at(it, ev::wait_end));
    EXPECT_EQ(std::isnan(tl.at(it, ev::sync_end)), cfg.comm.sync == SyncMode::none);
    const bool injected = rank == 0 && it == 3 + 5;
    EXPECT_EQ(std::isnan(tl.at(it, ev::delay_end)), !injected) << "iteration " << it;
    if (injected) {
      EXPECT_GE(tl.at(it, ev::delay_end) - tl.at(it, ev::delay_begin), 0.002);
    }
    if (it > 0) {
      EXPECT_LE(tl.at(it - 1, ev::wait_end), tl.at(it, ev::compute_begin));
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Combinations, TriadRun,
                         ::testing::Combine(::testing::Values(TriadKernel::stream, TriadKernel::schoenauer,
                                                              TriadKernel::divide),
                                            ::testing::Bool(), ::testing::Values(Boundary::open, Boundary::periodic)));

}  // namespace
}  // namespace desync
