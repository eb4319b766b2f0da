// Asynchronous progress (issue: "With progress = thread or test a large message advances while
// the receiver computes (the wait at the end is shorter than with wait)"). Two ranks exchange one
// message each way, far above the transport's eager limit, so it goes by rendezvous; both then
// compute for `work` seconds (in 64 chunks through comm/overlap.hpp) and complete the exchange.
// With progress = "wait" nothing moves until the wait, which then holds the whole transfer; with
// "test" (MPI_Testall after each chunk) or "thread" (a progress thread) the transfer happens during
// the computation and the wait is short. Median of several repetitions, the modes interleaved in
// every repetition (side by side), so that load from other jobs hits them alike.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <memory>
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
// Seconds of computation while in flight, in `chunks` pieces (a test after each with "test"):
// long enough that a progress thread sharing a core with the computation and with other jobs
// (the suite runs two tests at a time while a core is kept busy) still gets its time slices.
constexpr double work = 0.3;
constexpr int chunks = 256;
constexpr int reps = 7;

void spin(double seconds) {
  const double end = now() + seconds;
  while (now() < end) {
  }
}

// One exchange per progress mode, built once; its progress thread (thread mode) is blocked
// between a complete() and the next post(), so the modes do not help each other.
struct ModeExchange {
  ModeExchange(ProgressMode mode, const std::vector<Message>& one) : opt(with(mode)), comms(MPI_COMM_WORLD, opt), x(comms, Channel::halo, one, one, opt) {}
  static CommConfig with(ProgressMode mode) {
    CommConfig c;
    c.progress = mode;
    return c;
  }
  CommConfig opt;
  Communicators comms;
  Exchange x;
  std::vector<double> waits;
};

// One repetition: post, compute, then the slower rank's wait (complete()).
double one_wait(Exchange& x, std::vector<char>& send, std::vector<char>& recv) {
  std::fill(recv.begin(), recv.end(), 0);
  MPI_Barrier(MPI_COMM_WORLD);
  x.post(send.data(), recv.data());
  overlap_exchange(x, chunks, [](std::int64_t b, std::int64_t e) { spin(work * static_cast<double>(e - b) / chunks); });
  const double t0 = now();
  x.complete();
  double wait = now() - t0;
  MPI_Allreduce(MPI_IN_PLACE, &wait, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  EXPECT_EQ(recv[0], 's');
  EXPECT_EQ(recv[bytes - 1], 's');
  return wait;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

TEST(Progress, LargeMessageAdvancesWhileTheRankComputes) {
  ASSERT_EQ(comm_size(MPI_COMM_WORLD), 2) << "registered for 2 ranks";
  int provided = 0;
  MPI_Query_thread(&provided);
  const int peer = 1 - comm_rank(MPI_COMM_WORLD);
  const std::vector<Message> one{{peer, 0, bytes, 0}};
  std::vector<std::unique_ptr<ModeExchange>> modes;
  modes.push_back(std::make_unique<ModeExchange>(ProgressMode::wait, one));
  modes.push_back(std::make_unique<ModeExchange>(ProgressMode::test, one));
  if (provided >= MPI_THREAD_MULTIPLE) modes.push_back(std::make_unique<ModeExchange>(ProgressMode::thread, one));
  std::vector<char> send(bytes, 's'), recv(bytes, 0);
  // Side by side: every repetition runs each mode once, so a busy spell hits all of them alike.
  for (int r = 0; r < reps + 1; ++r)  // the first is a warm-up (registration, page faults)
    for (auto& m : modes) {
      const double w = one_wait(m->x, send, recv);
      if (r > 0) m->waits.push_back(w);
    }
  const double wait = median(modes[0]->waits), test = median(modes[1]->waits);
  const double thread = modes.size() > 2 ? median(modes[2]->waits) : -1.0;
  if (comm_rank(MPI_COMM_WORLD) == 0)
    std::printf("median wait after %.0f ms of computation, 32 MiB each way: wait %.2f ms, test %.2f ms, thread %.2f ms\n",
                work * 1e3, wait * 1e3, test * 1e3, thread * 1e3);
  EXPECT_GT(wait, 1e-3) << "with progress = wait the transfer should happen inside the wait";
  EXPECT_LT(test, 0.5 * wait) << "MPI_Testall during the computation should have moved the message";
  if (thread >= 0) {
    EXPECT_LT(thread, 0.5 * wait) << "the progress thread should have moved the message";
  }
}

// An exchange torn down while a receive is in flight (an exception on its way to MPI_Abort)
// returns: its progress thread stops testing and is joined, instead of waiting for a message that
// never comes (the receive here has no send until the exchange is gone).
TEST(Progress, AnExchangeTornDownMidFlightReturns) {
  int provided = 0;
  MPI_Query_thread(&provided);
  if (provided < MPI_THREAD_MULTIPLE) GTEST_SKIP() << "no MPI_THREAD_MULTIPLE: no progress thread";
  const int me = comm_rank(MPI_COMM_WORLD);
  CommConfig opt;
  opt.progress = ProgressMode::thread;
  Communicators comms(MPI_COMM_WORLD, opt);
  std::vector<char> recv(8, 0);  // outlives the exchange: the dangling receive lands here
  const double t0 = now();
  {
    Exchange x(comms, Channel::halo, {}, {Message{me, 0, recv.size(), 5}}, opt);
    x.post(nullptr, recv.data());
    spin(0.05);  // the thread is testing the receive by now
  }
  const double took = now() - t0;
  // The receive is still posted: satisfy it, so that the library ends clean.
  char payload[8] = "payload";
  MPI_Send(payload, 8, MPI_CHAR, me, mpi_tag(Channel::halo, 5), comms[0]);
  EXPECT_LT(took, 10.0) << "the exchange's destruction waited for its receive";
  MPI_Barrier(MPI_COMM_WORLD);
}

}  // namespace
}  // namespace desync
