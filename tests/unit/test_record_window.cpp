// The recorder's window and stride ([record]): which rows a file keeps, which messages fall into
// them, and the deck keys; and the "domain" thread rule's arithmetic.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "workload/domain_threads.hpp"
#include "config/config.hpp"
#include "workloads/registry.hpp"
#include "core/errors.hpp"
#include "io/output_file.hpp"
#include "record/iteration_events.hpp"
#include "record/record_window.hpp"

namespace desync {
namespace {

TEST(RecordWindow, WindowAndStrideInDeckNumbering) {
  // 3 warm-up + 10 measured rows; window [2, 9) every 3rd: iterations 2, 5, 8 at rows 5, 8, 11.
  const KeptRows k = kept_rows(13, 3, 2, 9, 3);
  EXPECT_FALSE(k.all);
  EXPECT_EQ(k.iteration, (std::vector<std::int64_t>{2, 5, 8}));
  EXPECT_EQ(k.row, (std::vector<std::int64_t>{5, 8, 11}));
  EXPECT_TRUE(k.clipped.empty());
}

TEST(RecordWindow, WholeRangeIsAllAndClippingIsReported) {
  EXPECT_TRUE(kept_rows(13, 3, -3, 10, 1).all);
  const KeptRows k = kept_rows(13, 3, 8, 50, 1);  // past the 10 measured iterations
  EXPECT_EQ(k.iteration, (std::vector<std::int64_t>{8, 9}));
  EXPECT_NE(k.clipped.find("kept up to 9"), std::string::npos);
  // A start before the warm-up (-3..-1) keeps the stride's phase: -7 (clipped away), -3, 1, 5, 9.
  EXPECT_EQ(kept_rows(13, 3, -7, 10, 4).iteration, (std::vector<std::int64_t>{-3, 1, 5, 9}));
}

// A run stopped (or flushed) in its warm-up keeps its first rows of the planned warm-up: they are
// numbered from the planned -W, and a window on them keeps them.
TEST(RecordWindow, RowsOfAWarmUpCutShortKeepTheDeckNumbers) {
  Timeline tl(iteration_event_names(), 20 + 10, 20);  // 20 warm-up, 10 measured planned
  tl.truncate(5);                                     // stopped after 5 warm-up iterations
  EXPECT_EQ(tl.warmup(), 5) << "every row kept is warm-up";
  EXPECT_EQ(tl.number(0), -20);
  EXPECT_EQ(tl.number(4), -16);
  const Timeline flushed = Timeline(iteration_event_names(), 30, 20).head(3);
  EXPECT_EQ(flushed.number(2), -18);
  RecordConfig rw;
  rw.window_given = true;
  rw.window_begin = -20;
  rw.window_end = -17;
  const KeptRows k = kept_rows_for(tl, rw);
  EXPECT_EQ(k.row, (std::vector<std::int64_t>{0, 1, 2}));
  EXPECT_EQ(k.iteration, (std::vector<std::int64_t>{-20, -19, -18}));
}

TEST(RecordWindow, KeptEventsAndMessagesByPostTime) {
  Timeline tl({"begin", "end"}, 4, 0);
  for (int r = 0; r < 4; ++r) {
    tl.set(r, 0, 10.0 * r);
    tl.set(r, 1, 10.0 * r + 5);
  }
  const KeptRows k = kept_rows(4, 0, 1, 4, 2);  // rows 1 and 3
  EXPECT_EQ(kept_events(tl, k), (std::vector<double>{10, 15, 30, 35}));
  const double nan = std::numeric_limits<double>::quiet_NaN();
  // before row 0 (set-up), row 0, row 1 (kept), row 2, row 3 (kept, open end), NaN
  const std::vector<double> post{-1.0, 3.0, 12.0, 29.9, 99.0, nan};
  EXPECT_EQ(kept_by_time(tl, k, post), (std::vector<std::uint8_t>{0, 0, 1, 0, 1, 0}));
  EXPECT_EQ(select(post, kept_by_time(tl, k, post)), (std::vector<double>{12.0, 99.0}));
}

TEST(RecordWindow, DeckKeys) {
  const std::string base = "[run]\nworkload = \"triad\"\niterations = 100\nwarmup = 5\n";
  const Config d = load_deck(base, "d.toml", {});
  EXPECT_FALSE(d.record.window_given);
  EXPECT_EQ(d.record.window_begin, -5);
  EXPECT_EQ(d.record.window_end, 100);
  EXPECT_EQ(d.record.stride, 1);
  const Config c = load_deck(base + "[record]\nwindow = [40, 60]\nstride = 4\n", "d.toml", {});
  EXPECT_TRUE(c.record.window_given);
  EXPECT_EQ(c.record.window_begin, 40);
  EXPECT_EQ(c.record.window_end, 60);
  EXPECT_EQ(c.record.stride, 4);
  EXPECT_THROW(load_deck(base + "[record]\nwindow = [60, 40]\n", "d.toml", {}), DeckError);
  EXPECT_THROW(load_deck(base + "[record]\nwindow = [-6, 40]\n", "d.toml", {}), DeckError);
  EXPECT_THROW(load_deck(base + "[record]\nstride = 0\n", "d.toml", {}), DeckError);
  EXPECT_THROW(load_deck("[run]\nworkload = \"pingpong\"\n[record]\nstride = 2\n", "d.toml", {}), DeckError);
}

// A window holding none of the rows a run records stores nothing: refused before the run, with
// the rows it could hold; one reaching past the end is kept (the write cuts it and says so).
TEST(RecordWindow, AWindowOutsideTheRunIsRefused) {
  const std::string base = "[run]\nworkload = \"triad\"\niterations = 20\nwarmup = 2\n[record]\n";
  const auto window = [&](const std::string& w) { return load_deck(base + "window = " + w + "\n", "d.toml", {}); };
  for (int ranks : {0, 1, 4}) {
    EXPECT_NO_THROW(check_record_window(window("[19, 5000]"), ranks));
    EXPECT_NO_THROW(check_record_window(window("[-2, -1]"), ranks));
    try {
      check_record_window(window("[500, 600]"), ranks);
      FAIL() << "accepted a window after the run's last iteration";
    } catch (const DeckError& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find("d.toml:6"), std::string::npos) << what;  // the deck line
      EXPECT_NE(what.find("-2..19"), std::string::npos) << what;    // what it could hold
    }
    EXPECT_THROW(check_record_window(window("[20, 21]"), ranks), DeckError);
  }
  EXPECT_THROW(validate_for_ranks(window("[20, 21]"), 2), DeckError);  // run and check --ranks
  // A run stopped before the window's first iteration keeps none of it, and says so; one that
  // recorded nothing at all says that.
  const KeptRows k = kept_rows(8, 2, 10, 15, 1);
  EXPECT_TRUE(k.row.empty());
  EXPECT_NE(k.clipped.find("no iteration"), std::string::npos) << k.clipped;
  EXPECT_NE(kept_rows(0, 2, 10, 15, 1).clipped.find("the run recorded no iteration"), std::string::npos);
}

TEST(DomainThreads, ShareSplitsCoresOverRanks) {
  EXPECT_EQ(domain_share(18, 1, 0), 18);
  EXPECT_EQ(domain_share(18, 2, 1), 9);
  // 10 cores over 4 ranks: 3, 3, 2, 2
  EXPECT_EQ(domain_share(10, 4, 0), 3);
  EXPECT_EQ(domain_share(10, 4, 1), 3);
  EXPECT_EQ(domain_share(10, 4, 2), 2);
  EXPECT_EQ(domain_share(10, 4, 3), 2);
  EXPECT_EQ(domain_share(2, 3, 2), 1);  // oversubscribed: still one thread
}

TEST(DomainThreads, DeckAcceptsTheWordOrACount) {
  const std::string base = "[run]\nworkload = \"triad\"\n[threads]\n";
  EXPECT_TRUE(load_deck(base + "per_rank = \"domain\"\n", "d.toml", {}).threads.per_domain);
  const Config c = load_deck(base + "per_rank = 3\n", "d.toml", {});
  EXPECT_FALSE(c.threads.per_domain);
  EXPECT_EQ(c.threads.per_rank, 3);
  try {
    load_deck(base + "per_rank = \"socket\"\n", "d.toml", {});
    FAIL() << "accepted per_rank = \"socket\"";
  } catch (const DeckError& e) {
    EXPECT_NE(std::string(e.what()).find("\"domain\""), std::string::npos) << e.what();
  }
  // Kokkos' OpenMP backend starts at most 512 threads per process (more overran its pool).
  EXPECT_EQ(load_deck(base + "per_rank = 512\n", "d.toml", {}).threads.per_rank, 512);
  EXPECT_THROW(load_deck(base + "per_rank = 513\n", "d.toml", {}), DeckError);
}

}  // namespace
}  // namespace desync
