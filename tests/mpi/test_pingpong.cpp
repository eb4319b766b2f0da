// The point-to-point micro-benchmarks (workloads/pingpong/pingpong.hpp): every repetition's data arrives
// intact for every comm option, the datasets have one finite, positive value per size and pair
// that ran, the message log holds exactly the messages the scheme sends, and decks that cannot
// run are refused.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cmath>
#include <string>

#include "config/config.hpp"
#include "workloads/registry.hpp"
#include "core/errors.hpp"
#include "core/mpi_util.hpp"
#include "workloads/pingpong/pingpong.hpp"
#include "thread_level.hpp"
#include "workloads/pingpong/pingpong_config.hpp"

namespace desync {
namespace {

Config deck(const std::string& pingpong, const std::string& comm = "") {
  return load_deck("[run]\nworkload = \"pingpong\"\niterations = 5\nwarmup = 2\nprogress_interval = 0\n[pingpong]\n" + pingpong +
                       "\n[comm]\n" + comm,
                   "pp.toml", {});
}

const WorkloadDataset& dataset(const WorkloadResult& r, const char* name) {
  const WorkloadDataset* d = find_dataset(r, "pingpong", name);
  if (!d) throw std::runtime_error(std::string("no dataset ") + name);
  return *d;
}

class Pingpong : public ::testing::TestWithParam<const char*> {};

TEST_P(Pingpong, DataArrivesIntactForEveryCommOption) {
  if (comm_size(MPI_COMM_WORLD) < 2) GTEST_SKIP() << "needs 2 ranks";
  const int rank = comm_rank(MPI_COMM_WORLD), size = comm_size(MPI_COMM_WORLD);
  for (const char* mode : {"pingpong", "bandwidth"}) {
    const std::string table = std::string("mode = \"") + mode + "\"\nsizes = [0, 1000, 65536]\n" +
                              (std::string(mode) == "bandwidth" ? "window = 4\n" : "");
    const Config cfg = deck(table, GetParam());
    if (cfg.comm.needs_thread_multiple() && !thread_multiple()) continue;
    SCOPED_TRACE(std::string(mode) + " with " + GetParam());
    const WorkloadResult r = run_pingpong(cfg, MPI_COMM_WORLD);
    const int pairs = pingpong_pairs(cfg.params.get<PingpongConfig>(), size);
    const bool in_pair = rank < pairs || (rank >= size / 2 && rank - size / 2 < pairs);
    const bool receives_data = in_pair && (std::string(mode) == "pingpong" || rank >= size / 2);
    EXPECT_EQ(r.element_errors, 0);
    const std::int64_t window = std::string(mode) == "bandwidth" ? 4 : 1;
    EXPECT_EQ(r.elements_checked, receives_data ? (1000 + 65536) * window : 0) << "every byte of the last message of each size";
    EXPECT_EQ(r.timeline.iterations(), 3 * 5);
    const auto& bw = dataset(r, "bandwidth");
    ASSERT_EQ(bw.values.size(), static_cast<std::size_t>(3 * pairs));
    for (std::size_t s = 1; s < 3; ++s)
      for (int p = 0; p < pairs; ++p) {
        const double b = bw.values[s * static_cast<std::size_t>(pairs) + static_cast<std::size_t>(p)];
        EXPECT_TRUE(std::isfinite(b) && b > 0) << "size " << s << " pair " << p << ": " << b;
      }
    EXPECT_EQ(bw.values[0], 0.0) << "zero-byte messages move no bytes";
    const auto& t = dataset(r, std::string(mode) == "pingpong" ? "round_trip_median" : "window_time_median");
    for (double v : t.values) EXPECT_TRUE(std::isfinite(v) && v > 0);
  }
}

INSTANTIATE_TEST_SUITE_P(CommOptions, Pingpong,
                         ::testing::Values("", "send = \"blocking\"\n", "fragment_bytes = 3000\ncommunicators = 3\n",
                                           "send = \"parallel\"\nfragment_bytes = 20000\n", "progress = \"thread\"\n",
                                           "send = \"blocking\"\nfragment_bytes = 512\ncommunicators = 2\nsync = \"barrier\"\n"));

// Each repetition of a ping-pong pair is two messages on each of its ranks (a send and a receive),
// fragments counted as the messages they are; a window is `window` data messages and the reply.
TEST(PingpongLog, HoldsExactlyTheMessagesSent) {
  if (comm_size(MPI_COMM_WORLD) < 2) GTEST_SKIP() << "needs 2 ranks";
  const int rank = comm_rank(MPI_COMM_WORLD), size = comm_size(MPI_COMM_WORLD);
  const bool first = rank == 0, second = rank == size / 2;
  const Config pp = deck("sizes = [1000, 5000]\n", "fragment_bytes = 2048\nrecord_messages = true\n");
  const WorkloadResult r = run_pingpong(pp, MPI_COMM_WORLD);
  ASSERT_TRUE(r.messages);
  // 7 repetitions (2 warm-up + 5) per size; 1000 B is one piece, 5000 B three, each way.
  EXPECT_EQ(r.messages->count(), first || second ? 7 * 2 * (1 + 3) : 0);
  const Config bw = deck("mode = \"bandwidth\"\nsizes = [100]\nwindow = 3\npairs = 1\n", "record_messages = true\n");
  const WorkloadResult b = run_pingpong(bw, MPI_COMM_WORLD);
  EXPECT_EQ(b.messages->count(), first || second ? 7 * (3 + 1) : 0);
}

TEST(PingpongDeck, RefusesWhatCannotRun) {
  EXPECT_THROW(deck("window = 4\n"), DeckError) << "window is for mode = bandwidth";
  EXPECT_THROW(deck("sizes = []\n"), DeckError);
  EXPECT_THROW(deck("", "progress = \"test\"\n"), DeckError) << "nothing computes while messages travel";
  EXPECT_THROW(deck("", "test_interval = 5\n"), DeckError) << "test_interval needs progress = test";
  for (const char* mode : {"mode = \"pingpong\"\n", "mode = \"bandwidth\"\nwindow = 8\n"}) {
    const Config c = deck(mode);
    EXPECT_NO_THROW(load_deck(c.resolved_toml, "resolved.toml", {})) << "the resolved deck reads back:\n" << c.resolved_toml;
  }
  EXPECT_THROW(load_deck("[run]\nworkload = \"pingpong\"\n[[inject]]\nrank = 0\niteration = 1\nduration = 0.1\n", "i.toml", {}),
               DeckError)
      << "a delay inside a micro-benchmark would only spoil its numbers";
  EXPECT_THROW(validate_for_ranks(deck("pairs = 2\n"), 3), DeckError) << "3 ranks make one pair";
  EXPECT_THROW(validate_for_ranks(deck(""), 1), DeckError);
  EXPECT_NO_THROW(validate_for_ranks(deck("pairs = 2\n"), 4));
}

}  // namespace
}  // namespace desync
