// Asynchronous progress (issue: "With progress = thread or test a large message advances while
// the receiver computes (the wait at the end is shorter than with wait)"). Two ranks exchange one
// message each way, far above the transport's eager limit, so it goes by rendezvous; both then
// compute for `work` seconds (in 64 chunks through comm/overlap.hpp) and complete the exchange.
// With progress = "wait" nothing moves until the wait, which then holds the whole transfer; with
// "test" (MPI_Testall after each chunk) or "thread" (a progress thread) the transfer happens during
// the computation and the wait is short. Median of several repetitions, compared side by side.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "comm/communicators.hpp"
#include "comm/exchange.hpp"
#include "comm/overlap.hpp"
#include "config/config.hpp"
#include "core/clock.hpp"
#include "core/mpi_util.hpp"

namespace desync {
namespace {

constexpr std::size_t bytes = std::size_t{32} << 20;  // 32 MiB each way
constexpr double work = 0.08;                          // seconds of computation while in flight
constexpr int reps = 5;

void spin(double seconds) {
  const double end = now() + seconds;
  while (now() < end) {
  }
}

// The slower rank's wait (complete()) after the computation, median over reps.
double median_wait(ProgressMode mode) {
  CommConfig opt;
  opt.progress = mode;
  const Communicators comms(MPI_COMM_WORLD, opt);
  const int peer = 1 - comm_rank(MPI_COMM_WORLD);
  const std::vector<Message> one{{peer, 0, bytes, 0}};
  Exchange x(comms, Channel::halo, one, one, opt);
  std::vector<char> send(bytes, 's'), recv(bytes, 0);
  std::vector<double> waits;
  for (int r = 0; r < reps + 1; ++r) {  // the first is a warm-up (registration, page faults)
    MPI_Barrier(MPI_COMM_WORLD);
    x.post(send.data(), recv.data());
    overlap_exchange(x, 64, [](std::int64_t b, std::int64_t e) { spin(work * static_cast<double>(e - b) / 64); });
    const double t0 = now();
    x.complete();
    double wait = now() - t0;
    MPI_Allreduce(MPI_IN_PLACE, &wait, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    if (r > 0) waits.push_back(wait);
    EXPECT_EQ(recv[0], 's');
    EXPECT_EQ(recv[bytes - 1], 's');
  }
  std::sort(waits.begin(), waits.end());
  return waits[waits.size() / 2];
}

TEST(Progress, LargeMessageAdvancesWhileTheRankComputes) {
  ASSERT_EQ(comm_size(MPI_COMM_WORLD), 2) << "registered for 2 ranks";
  int provided = 0;
  MPI_Query_thread(&provided);
  const double wait = median_wait(ProgressMode::wait);
  const double test = median_wait(ProgressMode::test);
  const double thread = provided >= MPI_THREAD_MULTIPLE ? median_wait(ProgressMode::thread) : -1.0;
  if (comm_rank(MPI_COMM_WORLD) == 0)
    std::printf("median wait after %.0f ms of computation, 32 MiB each way: wait %.2f ms, test %.2f ms, thread %.2f ms\n",
                work * 1e3, wait * 1e3, test * 1e3, thread * 1e3);
  EXPECT_GT(wait, 1e-3) << "with progress = wait the transfer should happen inside the wait";
  EXPECT_LT(test, 0.5 * wait) << "MPI_Testall during the computation should have moved the message";
  if (thread >= 0) {
    EXPECT_LT(thread, 0.5 * wait) << "the progress thread should have moved the message";
  }
}

}  // namespace
}  // namespace desync
