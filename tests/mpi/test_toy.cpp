// The communication-imbalance toys (workloads/toy/toy.hpp): every message arrives intact for every comm
// option (stamps every iteration, every byte at the end), and, over a transport whose eager
// limit is set low by environment, the rendezvous pathology of papers.md D.3 shows in the
// recorded timelines: the overlap toy's blocking sends wait for targets that are in compute
// part 1, fragments below the limit keep the send phase short, and the overlap toy runs slower
// than the no-overlap toy.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "workloads/registry.hpp"
#include "core/errors.hpp"
#include "core/mpi_util.hpp"
#include "metrics/comm_balance.hpp"
#include "workloads/toy/toy.hpp"
#include "thread_level.hpp"
#include "workloads/toy/toy_config.hpp"

namespace desync {
namespace {

Config deck(const std::string& toy, const std::string& comm = "", std::int64_t iterations = 6) {
  return load_deck("[run]\nworkload = \"toy\"\nprogress_interval = 0\nwarmup = 2\niterations = " + std::to_string(iterations) +
                       "\n[toy]\n" + toy + "\n[comm]\n" + comm,
                   "toy.toml", {});
}

class Toy : public ::testing::TestWithParam<const char*> {};

TEST_P(Toy, MessagesArriveIntactForEveryCommOption) {
  const int size = comm_size(MPI_COMM_WORLD);
  for (const char* overlap : {"false", "true"}) {
    const std::string comm = GetParam();
    if (comm.find("test") != std::string::npos && std::string(overlap) == "false") {
      EXPECT_THROW(deck("overlap = false\n", comm), DeckError) << "the no-overlap toy computes nothing while messages travel";
      continue;
    }
    const Config cfg = deck(std::string("overlap = ") + overlap + "\ndegree = 0\nmessages = 2\nmin_bytes = 0\nmax_bytes = 20000\ncompute = 0.001\n", comm);
    if (cfg.comm.needs_thread_multiple() && !thread_multiple()) continue;
    SCOPED_TRACE(std::string("overlap = ") + overlap + ", " + comm);
    const WorkloadResult r = run_toy(cfg, MPI_COMM_WORLD);
    EXPECT_EQ(r.element_errors, 0);
    EXPECT_EQ(r.message_errors, 0);
    std::int64_t stamped = 0, bytes = 0;  // messages of at least 16 bytes carry a stamp
    const int rank = comm_rank(MPI_COMM_WORLD);
    for (int j = 1; j < size; ++j)
      for (int k = 0; k < 2; ++k) {
        const std::int64_t b = toy_message_bytes(cfg.params.get<ToyConfig>(), cfg.run.seed, (rank - j + size) % size, rank, k);
        stamped += b >= 16;
        bytes += std::max<std::int64_t>(0, b - 16);
      }
    EXPECT_EQ(r.messages_checked, stamped * 8) << "every stamped message of every iteration";
    EXPECT_EQ(r.elements_checked, bytes) << "every byte past the stamps of the last iteration";
  }
}

INSTANTIATE_TEST_SUITE_P(CommOptions, Toy,
                         ::testing::Values("", "send = \"nonblocking\"\n", "send = \"parallel\"\nfragment_bytes = 3000\n",
                                           "fragment_bytes = 1000\ncommunicators = 3\n", "progress = \"thread\"\n",
                                           "progress = \"test\"\ntest_interval = 100\n", "sync = \"none\"\n"));

// The balance metrics of every run (metrics/comm_balance.hpp) on the toy, whose sizes are known.
TEST(ToyBalance, BytesMessagesAndMpiShare) {
  const int rank = comm_rank(MPI_COMM_WORLD), size = comm_size(MPI_COMM_WORLD);
  const Config cfg = deck("degree = 0\nmessages = 3\nmin_bytes = 100\nmax_bytes = 5000\ncompute = 0.002\n",
                          "fragment_bytes = 1000\n");
  const WorkloadResult r = run_toy(cfg, MPI_COMM_WORLD);
  const CommBalance b = comm_balance(r.timeline, phase_layout(r.timeline.event_names(), r.composites), r.partners,
                                     cfg.comm.fragment_bytes, r.mpi_phases, MPI_COMM_WORLD);
  std::int64_t bytes = 0, messages = 0;
  std::vector<double> all_bytes;
  for (int s = 0; s < size; ++s) {
    std::int64_t sb = 0;
    for (int j = 1; j < size; ++j)
      for (int k = 0; k < 3; ++k) {
        const std::int64_t m = toy_message_bytes(cfg.params.get<ToyConfig>(), cfg.run.seed, s, (s + j) % size, k);
        sb += m;
        if (s == rank) messages += (m + 999) / 1000;
      }
    all_bytes.push_back(static_cast<double>(sb));
    if (s == rank) bytes = sb;
  }
  EXPECT_EQ(b.bytes_sent.at(static_cast<std::size_t>(rank)), bytes);
  EXPECT_EQ(b.messages_sent.at(static_cast<std::size_t>(rank)), messages) << "fragments of at most 1000 bytes";
  const auto [over_mean, of_max] = imbalance(all_bytes);
  EXPECT_DOUBLE_EQ(b.bytes_max_over_mean, over_mean);
  EXPECT_DOUBLE_EQ(b.bytes_mean_over_max, of_max);
  if (size > 2) {
    EXPECT_GT(b.bytes_max_over_mean, 0.0) << "random sizes make ranks send different volumes";
  }
  for (double s : b.mpi_share) EXPECT_TRUE(s > 0.0 && s < 1.0) << s << ": post, wait and sync are part of every iteration";
  const auto two = imbalance({1.0, 3.0});
  EXPECT_DOUBLE_EQ(two.first, 0.5);
  EXPECT_DOUBLE_EQ(two.second, 1.0 / 3.0);
  EXPECT_EQ(imbalance({0.0, 0.0}).first, 0.0);
}

TEST(ToyDeck, SizesAreFixedAndDefaultsAreTheStudys) {
  const Config c = deck("max_bytes = 1000\nmin_bytes = 10\n");
  EXPECT_EQ(c.comm.send, SendMode::blocking) << "the study's toys send with MPI_Send";
  EXPECT_EQ(c.comm.sync, SyncMode::allreduce) << "and synchronize with an MPI_Allreduce";
  std::vector<std::int64_t> sizes;
  for (int s = 0; s < 4; ++s)
    for (int t = 0; t < 4; ++t) {
      const std::int64_t b = toy_message_bytes(c.params.get<ToyConfig>(), c.run.seed, s, t, 0);
      EXPECT_GE(b, 10);
      EXPECT_LE(b, 1000);
      EXPECT_EQ(b, toy_message_bytes(c.params.get<ToyConfig>(), c.run.seed, s, t, 0)) << "drawn once, the same every time";
      sizes.push_back(b);
    }
  std::sort(sizes.begin(), sizes.end());
  EXPECT_GT(std::unique(sizes.begin(), sizes.end()) - sizes.begin(), 8) << "sizes differ between pairs";
  EXPECT_NE(toy_message_bytes(c.params.get<ToyConfig>(), 1, 0, 1, 0), toy_message_bytes(c.params.get<ToyConfig>(), 2, 0, 1, 0)) << "the seed decides";
  EXPECT_THROW(deck("min_bytes = 10\nmax_bytes = 5\n"), DeckError);
  // [run] barrier = true replaces the toy's default allreduce; it conflicts only with an explicit one.
  const Config barrier = load_deck("[run]\nworkload = \"toy\"\nbarrier = true\n", "b.toml", {});
  EXPECT_EQ(barrier.comm.sync, SyncMode::barrier);
  EXPECT_THROW(load_deck("[run]\nworkload = \"toy\"\nbarrier = true\n[comm]\nsync = \"allreduce\"\n", "c.toml", {}), DeckError);
  EXPECT_THROW(deck("part1 = 0.3\n"), DeckError) << "part1 needs overlap = true";
  EXPECT_THROW(validate_for_ranks(deck("degree = 4\n"), 4), DeckError) << "4 ranks have 3 others";
  EXPECT_NO_THROW(validate_for_ranks(deck("degree = 3\n"), 4));
  EXPECT_NO_THROW(load_deck(c.resolved_toml, "resolved.toml", {})) << c.resolved_toml;
}

// The slowest rank's (end - start) in each measured iteration (what the allreduce passes on to
// everybody), median over iterations.
double slowest_median(const WorkloadResult& r, const char* start, const char* end) {
  const Timeline& tl = r.timeline;
  const int a = tl.event_index(start), b = tl.event_index(end);
  std::vector<double> d;
  for (std::int64_t it = tl.warmup(); it < tl.iterations(); ++it) d.push_back(tl.at(it, b) - tl.at(it, a));
  MPI_Allreduce(MPI_IN_PLACE, d.data(), static_cast<int>(d.size()), MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  std::nth_element(d.begin(), d.begin() + static_cast<std::ptrdiff_t>(d.size() / 2), d.end());
  return d[d.size() / 2];
}

TEST(ToyRendezvous, BlockingSendsWaitForTargetsInComputePartOne) {
  const char* btl = std::getenv("OMPI_MCA_btl");
  const bool tcp = btl && std::string(btl).find("tcp") != std::string::npos;
  const char* limit_text = std::getenv(tcp ? "OMPI_MCA_btl_tcp_eager_limit" : "OMPI_MCA_btl_vader_eager_limit");
  if (!limit_text)
    GTEST_SKIP() << "needs Open MPI with the transport's eager limit set by environment (tests/CMakeLists.txt)";
  ASSERT_EQ(comm_size(MPI_COMM_WORLD), 4) << "registered for 4 ranks";
  // Registered with 4 KiB (every message above the limit) and, over TCP, with 4 MiB (all below).
  const bool all_eager = std::atol(limit_text) > 1048576 + 4096;
  // All-to-all, random sizes 32 KiB .. 1 MiB (all above the 4 KiB limit), 40 ms of compute.
  const std::string toy = "degree = 0\nmin_bytes = 32768\nmax_bytes = 1048576\ncompute = 0.04\n";
  const double part1 = 0.02;
  const WorkloadResult rndv = run_toy(deck("overlap = true\n" + toy, "", 30), MPI_COMM_WORLD);
  const WorkloadResult frag = run_toy(deck("overlap = true\n" + toy, "fragment_bytes = 4000\n", 30), MPI_COMM_WORLD);
  const WorkloadResult plain = run_toy(deck("overlap = false\n" + toy, "", 30), MPI_COMM_WORLD);
  const double send_rndv = slowest_median(rndv, "begin", "post_end"), send_frag = slowest_median(frag, "begin", "post_end");
  const double it_overlap = slowest_median(rndv, "begin", "sync_end"), it_plain = slowest_median(plain, "begin", "sync_end");
  if (comm_rank(MPI_COMM_WORLD) == 0)
    std::printf("%s, eager limit %s B: slowest rank's send phase %.2f ms (whole messages), %.2f ms (4000-byte fragments); "
                "compute part 1 %.0f ms; iteration %.2f ms (overlap toy) vs %.2f ms (no-overlap toy)\n",
                tcp ? "TCP" : "shared memory (vader)", limit_text, send_rndv * 1e3, send_frag * 1e3, part1 * 1e3, it_overlap * 1e3, it_plain * 1e3);
  if (all_eager) {
    EXPECT_LT(send_rndv, 0.3 * part1) << "with the limit above every message the blocking sends return at once";
    return;
  }
  // A send waits for its target's part 1 (20 ms): on average about half of it, more when the four
  // ranks' compute phases line up (1.4 x part 1 on 2 idle cores). Beside another test on the 2
  // cores 0.58 and 0.40 x part 1 were measured (the 4 ranks time-share, and a target is sooner in
  // MPI); eager sends stay below 0.3 x part 1 (above; 0.09 measured), so 0.3 still tells the two
  // protocols apart.
  EXPECT_GT(send_rndv, 0.3 * part1) << "rendezvous: a send waits for its target to leave compute part 1";
  if (tcp) {  // vader: eager fragments also wait for a busy receiver (docs/method.md, section 5)
    EXPECT_LT(send_frag, 0.5 * send_rndv) << "fragments below the eager limit go eagerly";
    EXPECT_GT(it_overlap, it_plain) << "the overlap toy pays the stretched sends on top of its compute";
  }
  EXPECT_EQ(rndv.element_errors + frag.element_errors + plain.element_errors, 0);
}

}  // namespace
}  // namespace desync
