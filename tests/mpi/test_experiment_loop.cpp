// The experiment loop's two shapes (loop/experiment_loop.hpp): run() and run_cells() call the
// workload's bodies in order (their _checked forms peel each checked iteration after its reset),
// put the delay slot after every iteration's work (an [[inject]] delay lands in the iteration it
// names, on the rank it names, and nowhere else), sync after it, and run_cells() brackets each
// cell with its set-up and its end. A stop request ends both on every rank after the same
// iteration and keeps the iterations done (last test: the stop request stays recorded for the
// rest of the process). With a flush hook installed, flushes happen when due, after the same
// iteration on every rank, and only for a loop over the run's result and all of the hook's ranks.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cmath>
#include <csignal>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "config/config.hpp"
#include "core/mpi_util.hpp"
#include "core/stop_request.hpp"
#include "loop/experiment_loop.hpp"
#include "loop/flush_hook.hpp"
#include "record/timeline.hpp"

namespace desync {
namespace {

enum : int { work_end, delay_begin, delay_end, sync_end };
const std::vector<std::string> events{"work_end", "delay_begin", "delay_end", "sync_end"};

Config small(std::int64_t iterations) {
  Config cfg;
  cfg.run.iterations = iterations;
  cfg.run.warmup = 0;
  cfg.run.progress_interval = 0;
  return cfg;
}

// A flush hook that records where it was called and what the result held then.
class RecordingHook : public FlushHook {
 public:
  explicit RecordingHook(MPI_Comm comm) : comm_(comm) { install_flush_hook(this); }
  ~RecordingHook() override { install_flush_hook(nullptr); }
  double flush(const WorkloadResult& r, std::int64_t done) override {
    at.push_back(done);
    // The rows done are recorded, the next one not yet.
    rows_ok = rows_ok && !std::isnan(r.timeline.at(done - 1, work_end)) &&
              (done == r.timeline.iterations() || std::isnan(r.timeline.at(done, work_end)));
    MPI_Barrier(comm_);  // collective, as the real one is
    return 0.001;
  }
  MPI_Comm comm() const override { return comm_; }
  double first_interval() const override { return 0.05; }
  double next_interval(double) const override { return 0.05; }
  std::vector<std::int64_t> at;
  bool rows_ok = true;

 private:
  MPI_Comm comm_;
};

std::vector<std::int64_t> run_with_hook(RecordingHook& hook, MPI_Comm comm, bool as_result, std::int64_t n) {
  Config cfg = small(n);
  WorkloadResult r(Timeline(events, n, 0));
  const auto work = [&](std::int64_t it) {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    r.timeline.mark(it, work_end);
  };
  if (as_result) {
    ExperimentLoop loop(cfg, comm, r, SyncMode::none);
    EXPECT_EQ(loop.run(n, work), 0);
  } else {
    ExperimentLoop loop(cfg, comm, r.timeline, SyncMode::none);
    EXPECT_EQ(loop.run(n, work), 0);
  }
  return hook.at;
}

TEST(ExperimentLoop, FlushesAreDueByTimeAndHappenAfterTheSameIterationOnEveryRank) {
  RecordingHook hook(MPI_COMM_WORLD);
  // 1600 iterations of at least 2 ms, a flush due every 50 ms. Agreement points come about once a
  // second and a flush found due at one happens at the next: one or more (two on an idle machine),
  // in order, inside the run.
  const std::vector<std::int64_t> at = run_with_hook(hook, MPI_COMM_WORLD, true, 1600);
  // Agreed before any rank may return: an ASSERT on one rank alone would leave the others in the
  // MPI_Bcast below until the test's timeout.
  int lo = static_cast<int>(at.size()), hi = lo;
  MPI_Allreduce(MPI_IN_PLACE, &lo, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, &hi, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  ASSERT_EQ(lo, hi) << "the ranks flushed different numbers of times";
  ASSERT_GE(lo, 1);
  for (std::size_t k = 0; k < at.size(); ++k) {
    EXPECT_GT(at[k], 0);
    EXPECT_LE(at[k], 1600);
    if (k > 0) {
      EXPECT_GT(at[k], at[k - 1]);
    }
  }
  EXPECT_TRUE(hook.rows_ok);
  std::vector<std::int64_t> first(at);
  MPI_Bcast(first.data(), lo, MPI_INT64_T, 0, MPI_COMM_WORLD);
  EXPECT_EQ(first, at);
}

TEST(ExperimentLoop, NoFlushForALoopOutsideTheResultOrOnPartOfTheRanks) {
  {
    RecordingHook hook(MPI_COMM_WORLD);
    EXPECT_TRUE(run_with_hook(hook, MPI_COMM_WORLD, false, 1600).empty());  // a paired run's own timeline
  }
  if (comm_size(MPI_COMM_WORLD) < 2) return;
  MPI_Comm part = MPI_COMM_NULL;
  MPI_Comm_split(MPI_COMM_WORLD, comm_rank(MPI_COMM_WORLD) == 0 ? 0 : 1, 0, &part);
  {
    RecordingHook hook(MPI_COMM_WORLD);  // the run's communicator; the loop runs on a part of it
    EXPECT_TRUE(run_with_hook(hook, part, true, 1600).empty());
  }
  MPI_Comm_free(&part);
}

TEST(ExperimentLoop, RunPutsTheDelaySlotAfterTheWorkAndBeforeTheSync) {
  const int size = comm_size(MPI_COMM_WORLD), rank = comm_rank(MPI_COMM_WORLD);
  Config cfg = small(6);
  cfg.inject.push_back({size - 1, 3, 0.02, {}, {}});  // 20 ms on the last rank, iteration 3
  Timeline tl(events, 6, 0);
  ExperimentLoop loop(cfg, MPI_COMM_WORLD, tl, SyncMode::barrier);
  std::vector<std::int64_t> order;
  const int signal = loop.run(
      6, [&](std::int64_t it) { order.push_back(it), tl.mark(it, work_end); },
      [&](std::int64_t it) { order.push_back(100 + it); });
  EXPECT_EQ(signal, 0);
  EXPECT_EQ(order, (std::vector<std::int64_t>{0, 100, 1, 101, 2, 102, 3, 103, 4, 104, 5, 105}));
  ASSERT_EQ(tl.iterations(), 6);
  for (std::int64_t it = 0; it < 6; ++it) {
    const bool delayed = rank == size - 1 && it == 3;
    EXPECT_EQ(std::isnan(tl.at(it, delay_end)), !delayed) << "iteration " << it;
    if (delayed) {
      EXPECT_LE(tl.at(it, work_end), tl.at(it, delay_begin));
      EXPECT_GE(tl.at(it, delay_end) - tl.at(it, delay_begin), 0.019);  // busy work of the duration
      EXPECT_LE(tl.at(it, delay_end), tl.at(it, sync_end));
    }
    EXPECT_LE(tl.at(it, work_end), tl.at(it, sync_end));
  }
}

// [[inject]] duration_iterations = 2 on rank 0 at deck iteration 1 (row 4 after 3 warm-up rows):
// twice the median warm-up row span (here from work_end to sync_end: the 2 ms the work sleeps
// after its mark, and the barrier), measured when the warm-up is done; a paired loop given
// that time (use_iteration_time) delays by the same seconds whatever its own warm-up took.
TEST(ExperimentLoop, DelayInIterationsScalesWithTheWarmUp) {
  const int rank = comm_rank(MPI_COMM_WORLD);
  Config cfg = small(3);
  cfg.run.warmup = 3;
  InjectConfig inj;
  inj.rank = 0;
  inj.iteration = 1;
  inj.duration_iterations = 2.0;
  cfg.inject.push_back(inj);
  const auto body = [](Timeline& tl, double pause) {
    return [&tl, pause](std::int64_t it) {
      tl.mark(it, work_end);
      std::this_thread::sleep_for(std::chrono::duration<double>(pause));
    };
  };
  Timeline first(events, 6, 3);
  ExperimentLoop a(cfg, MPI_COMM_WORLD, first, SyncMode::barrier);
  EXPECT_TRUE(std::isnan(a.iteration_time()));
  ASSERT_EQ(a.run(6, body(first, 0.002)), 0);
  Timeline second(events, 6, 3);
  ExperimentLoop b(cfg, MPI_COMM_WORLD, second, SyncMode::barrier);
  if (rank == 0) {
    const double t = a.iteration_time();
    EXPECT_DOUBLE_EQ(t, first.median_span(0, 3));
    EXPECT_GE(t, 0.002);
    const double d = first.at(4, delay_end) - first.at(4, delay_begin);
    EXPECT_GE(d, 2.0 * t);
    b.use_iteration_time(t);
  }
  ASSERT_EQ(b.run(6, body(second, 0.030)), 0);  // a slower warm-up: its own span 15x longer (a busy machine cannot close that)
  for (std::int64_t row = 0; row < 6; ++row) {
    const bool delayed = rank == 0 && row == 4;
    EXPECT_EQ(std::isnan(first.at(row, delay_end)), !delayed) << "row " << row;
    EXPECT_EQ(std::isnan(second.at(row, delay_end)), !delayed) << "row " << row;
  }
  if (rank == 0) {
    const double d2 = second.at(4, delay_end) - second.at(4, delay_begin);
    EXPECT_GE(d2, 2.0 * a.iteration_time());
    EXPECT_LT(d2, 2.0 * second.median_span(0, 3)) << "the paired loop used its own warm-up";
    EXPECT_DOUBLE_EQ(b.iteration_time(), a.iteration_time());
  }
}

// [comm] sync_every = 3 with 2 warm-up iterations: the sync after deck iterations -1, 2, 5 only
// (rows 1, 4, 7), on every rank; the other rows have no sync_end.
TEST(ExperimentLoop, SyncEveryNthIteration) {
  Config cfg = small(7);
  cfg.run.warmup = 2;
  cfg.comm.sync_every = 3;
  Timeline tl(events, 9, 2);
  ExperimentLoop loop(cfg, MPI_COMM_WORLD, tl, SyncMode::barrier);
  EXPECT_EQ(loop.run(9, [&](std::int64_t it) { tl.mark(it, work_end); }), 0);
  for (std::int64_t row = 0; row < 9; ++row) {
    const bool synced = row == 1 || row == 4 || row == 7;
    EXPECT_EQ(std::isnan(tl.at(row, sync_end)), !synced) << "row " << row;
    EXPECT_EQ(sync_due(3, 2, row), synced) << "row " << row;
  }
  EXPECT_TRUE(sync_due(1, 2, 5));  // every iteration: the default
}

TEST(ExperimentLoop, RunCellsBracketsEveryCell) {
  Config cfg = small(12);
  cfg.inject.push_back({0, 5, 0.005, {}, {}});  // cell 1, its second iteration
  Timeline tl(events, 12, 0);
  ExperimentLoop loop(cfg, MPI_COMM_WORLD, tl, SyncMode::allreduce);
  std::vector<std::string> order;
  const int signal = loop.run_cells(
      3, 4, [&](std::int64_t c) { order.push_back("begin " + std::to_string(c)); },
      [&](std::int64_t it) { order.push_back(std::to_string(it)), tl.mark(it, work_end); },
      [&](std::int64_t c, bool complete) { order.push_back((complete ? "end " : "cut ") + std::to_string(c)); });
  EXPECT_EQ(signal, 0);
  const std::vector<std::string> want{"begin 0", "0", "1", "2",  "3",  "end 0",  "begin 1", "4",    "5",
                                      "6",       "7", "end 1", "begin 2", "8", "9", "10", "11", "end 2"};
  EXPECT_EQ(order, want);
  ASSERT_EQ(tl.iterations(), 12);
  for (std::int64_t it = 0; it < 12; ++it) {
    EXPECT_EQ(std::isnan(tl.at(it, delay_end)), !(comm_rank(MPI_COMM_WORLD) == 0 && it == 5)) << "iteration " << it;
    EXPECT_FALSE(std::isnan(tl.at(it, sync_end))) << "iteration " << it;
  }
}

// run_checked() and run_cells_checked() peel the checked iteration: the reset comes before it
// (after the previous iteration's sync), the checked body runs it instead of the work, and the
// iteration keeps its frame (its sync).
TEST(ExperimentLoop, CheckedIterationsComeAfterTheirReset) {
  Config cfg = small(6);
  Timeline tl(events, 6, 0);
  std::vector<std::string> order;
  const auto work = [&](std::int64_t it) { order.push_back(std::to_string(it)), tl.mark(it, work_end); };
  const auto checked = [&](std::int64_t it) { order.push_back("checked " + std::to_string(it)), tl.mark(it, work_end); };
  {
    ExperimentLoop loop(cfg, MPI_COMM_WORLD, tl, SyncMode::barrier);
    EXPECT_EQ(loop.run_checked(3, [&] { order.push_back("reset"); }, work, checked), 0);
  }
  EXPECT_EQ(order, (std::vector<std::string>{"0", "1", "reset", "checked 2"}));
  order.clear();
  Timeline tc(events, 6, 0);
  ExperimentLoop loop(cfg, MPI_COMM_WORLD, tc, SyncMode::barrier);
  const int signal = loop.run_cells_checked(
      2, 3, [&](std::int64_t c) { order.push_back("begin " + std::to_string(c)); },
      [&](std::int64_t c) { order.push_back("reset " + std::to_string(c)); },
      [&](std::int64_t it) { order.push_back(std::to_string(it)), tc.mark(it, work_end); },
      [&](std::int64_t it) { order.push_back("checked " + std::to_string(it)), tc.mark(it, work_end); },
      [&](std::int64_t c, bool complete) { order.push_back((complete ? "end " : "cut ") + std::to_string(c)); });
  EXPECT_EQ(signal, 0);
  const std::vector<std::string> want{"begin 0", "0", "1", "reset 0", "checked 2", "end 0",
                                      "begin 1", "3", "4", "reset 1", "checked 5", "end 1"};
  EXPECT_EQ(order, want);
  ASSERT_EQ(tc.iterations(), 6);
  for (std::int64_t it = 0; it < 6; ++it) {
    EXPECT_LE(tc.at(it, work_end), tc.at(it, sync_end)) << "iteration " << it;
    if (it > 0) {
      EXPECT_LE(tc.at(it - 1, sync_end), tc.at(it, work_end)) << "iteration " << it;
    }
  }
}

// Last: the stop request stays recorded in this process. Rank 0 raises SIGUSR1 inside cell 1;
// every rank leaves after the same iteration, the cut cell is reported as such, nothing follows.
// Iterations of 2 ms: the agreement points are about a second apart (loop/iteration_control.hpp),
// so the stop comes after about 500 to 1000 iterations of the 2000.
TEST(ExperimentLoop, ZStopRequestEndsRunCellsOnEveryRankAtOneIteration) {
  install_stop_handlers();
  const std::int64_t cells = 40, per_cell = 50;
  Config cfg = small(cells * per_cell);
  Timeline tl(events, cells * per_cell, 0);
  ExperimentLoop loop(cfg, MPI_COMM_WORLD, tl, SyncMode::none);
  std::int64_t last = -1, cut = -1, ends = 0;
  const int signal = loop.run_cells(
      cells, per_cell, [](std::int64_t) {},
      [&](std::int64_t it) {
        if (it == per_cell + 3 && comm_rank(MPI_COMM_WORLD) == 0) std::raise(SIGUSR1);
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
        last = it;
      },
      [&](std::int64_t c, bool complete) {
        ++ends;
        if (!complete) cut = c;
      });
  EXPECT_EQ(signal, SIGUSR1);
  EXPECT_LT(last, cells * per_cell - 1);  // stopped early
  EXPECT_EQ(tl.iterations(), last + 1);   // the timeline keeps what ran
  // The cell it stopped in is the last one, cut, unless the stop came after its last iteration.
  EXPECT_EQ(cut, last % per_cell == per_cell - 1 ? -1 : last / per_cell);
  EXPECT_EQ(ends, last / per_cell + 1);
  std::int64_t lo = last, hi = last;
  MPI_Allreduce(MPI_IN_PLACE, &lo, 1, MPI_INT64_T, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, &hi, 1, MPI_INT64_T, MPI_MAX, MPI_COMM_WORLD);
  EXPECT_EQ(lo, hi);  // the same iteration on every rank
}

}  // namespace
}  // namespace desync
