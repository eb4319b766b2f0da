// The verdict a run records (commands/run_verdict.hpp): passed, failed with counts, or not done,
// summed over the ranks. A run stopped before any result was checked is "not done", never
// "passed" (a saturation sweep stopped before its first N checked nothing).
#include <gtest/gtest.h>
#include <mpi.h>

#include <string>

#include "commands/run_verdict.hpp"
#include "core/mpi_util.hpp"

namespace desync {
namespace {

std::string verdict_of(const WorkloadResult& r) {
  std::int64_t errors = -1;
  return run_verdict(r, r.timeline, MPI_COMM_WORLD, errors);
}

TEST(RunVerdict, AStopBeforeAnyCheckIsNotDone) {
  WorkloadResult r(Timeline({}, 0, 0));
  r.stop_signal = 15;
  EXPECT_EQ(verdict_of(r), "not done: the run stopped before any result was checked");
  // One rank's checked elements are the run's: passed.
  if (comm_rank(MPI_COMM_WORLD) == comm_size(MPI_COMM_WORLD) - 1) r.elements_checked = 5;
  EXPECT_EQ(verdict_of(r), "passed");
}

TEST(RunVerdict, CompleteRunsAndFailuresAreUnchanged) {
  WorkloadResult r(Timeline({}, 0, 0));
  // Nothing to check (a 0-byte ping-pong) and not stopped: not a pass
  EXPECT_EQ(verdict_of(r), "not done: nothing was checked (no result element or message of this run is one its check covers)");
  if (comm_rank(MPI_COMM_WORLD) == 0) r.messages_checked = 1;
  EXPECT_EQ(verdict_of(r), "passed");
  r.stop_signal = 15;
  if (comm_rank(MPI_COMM_WORLD) == 0) r.element_errors = 2;
  EXPECT_EQ(verdict_of(r), "failed: 2 vector elements wrong");
}

// Where the workload could not verify, what needs no reference still counts: non-finite values and
// the timeline's order fail the run; otherwise "not done" with the reason.
TEST(RunVerdict, ASkippedReferenceKeepsTheOtherChecks) {
  WorkloadResult r(Timeline({"begin", "end"}, 1, 0));
  r.timeline.set(0, 0, 1.0);
  r.timeline.set(0, 1, 2.0);
  r.verification_skipped = "the filter stopped before its full degree";
  EXPECT_EQ(verdict_of(r), "not done: the filter stopped before its full degree");
  r.nonfinite = comm_rank(MPI_COMM_WORLD) == 0 ? 3 : 0;
  EXPECT_EQ(verdict_of(r), "failed: 3 values of the result are not finite (Inf or NaN); the rest not done: the filter "
                           "stopped before its full degree");
  r.nonfinite = 0;
  r.timeline.set(0, 1, 0.5);  // out of order on every rank
  EXPECT_EQ(verdict_of(r), "failed: " + std::to_string(comm_size(MPI_COMM_WORLD)) +
                               " timeline events missing or out of order; the rest not done: the filter stopped before its "
                               "full degree");
}

}  // namespace
}  // namespace desync
