// Every workload has the delay slot (loop/experiment_loop.hpp): an [[inject]] delay on rank 0
// shows on rank 0's timeline as a delay phase of at least its duration, and the idle wave reaches
// rank 1, which waits for rank 0's late message in one of the next iterations. The threshold is
// half the delay: far above the scheduling noise of 4 ranks on 2 cores, far below the wave.
// Also: [comm] sync = "allreduce" synchronizes every iteration.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cmath>
#include <functional>
#include <string>

#include "workloads/registry.hpp"
#include "workloads/chebfd/chebfd.hpp"
#include "core/mpi_util.hpp"
#include "record/iteration_events.hpp"
#include "workloads/spmv/spmv.hpp"
#include "workloads/stencil/stencil.hpp"
#include "workloads/triad/triad.hpp"

namespace desync {
namespace {

constexpr double delay = 0.3;
constexpr std::int64_t warmup = 2, k = 4;  // the delayed (measured) iteration
const std::string inject = "[[inject]]\nrank = 0\niteration = 4\nduration = 0.3\n";
const std::string matrix = "[matrix]\ngenerator = \"stencil5\"\n[matrix.stencil5]\nnx = 64\nny = 64\n";

// Duration of `phase_end` minus the latest event before it that happened (the phase rule).
double phase(const Timeline& tl, std::int64_t row, const char* end) {
  const int e = tl.event_index(end);
  for (int p = e - 1; p >= 0; --p)
    if (!std::isnan(tl.at(row, p))) return tl.at(row, e) - tl.at(row, p);
  return NAN;
}

void wave_reaches_rank_1(const std::function<WorkloadResult(const Config&)>& run, const std::string& deck) {
  ASSERT_EQ(comm_size(MPI_COMM_WORLD), 4) << "registered for 4 ranks";
  const WorkloadResult r = run(load_deck(deck + inject, "inject.toml", {}));
  const Timeline& tl = r.timeline;
  const int rank = comm_rank(MPI_COMM_WORLD);
  const std::int64_t row = warmup + k;
  double first[2] = {-1.0, 0.0};  // rank 0: its delay; rank 1: its longest wait in rows k .. k+2 (no NaN: MAX)
  if (rank == 0) first[0] = phase(tl, row, "delay_end");
  if (rank == 1)
    for (std::int64_t it = row; it <= row + 2 && it < tl.iterations(); ++it) first[1] = std::fmax(first[1], phase(tl, it, "wait_end"));
  double seen[2];
  MPI_Allreduce(first, seen, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  EXPECT_GE(seen[0], delay) << "rank 0's timeline shows the delay";
  EXPECT_GT(seen[1], delay / 2) << "the idle wave reaches rank 1";
  if (rank != 0) {
    for (std::int64_t it = 0; it < tl.iterations(); ++it) EXPECT_TRUE(std::isnan(tl.at(it, tl.event_index("delay_end"))));
  }
}

TEST(Injection, Spmv) {
  wave_reaches_rank_1([](const Config& c) { return run_spmv(c, MPI_COMM_WORLD); },
                      "[run]\nworkload = \"spmv\"\niterations = 10\nwarmup = 2\nprogress_interval = 0\n[spmv]\nbarrier_samples = 10\n" + matrix);
}

TEST(Injection, Stencil) {
  wave_reaches_rank_1([](const Config& c) { return run_stencil(c, MPI_COMM_WORLD); },
                      "[run]\nworkload = \"stencil\"\niterations = 10\nwarmup = 2\nprogress_interval = 0\n[stencil]\nn = 64\npx = 4\npy = 1\n");
}

TEST(Injection, ChebfdPerDegreeStep) {
  wave_reaches_rank_1([](const Config& c) { return run_chebfd(c, MPI_COMM_WORLD); },
                      "[run]\nworkload = \"chebfd\"\nwarmup = 2\nprogress_interval = 0\n[chebfd]\nns = 2\nnb = 2\nnp = 12\n" + matrix);
}

TEST(Sync, AllreduceHoldsEveryRankUntilTheSlowest) {
  // A delay on rank 0 at iteration k: with the allreduce every rank's sync ends after rank 0's
  // delay ended; without it rank 3 (two partners away) goes on.
  for (const char* sync : {"allreduce", "none"}) {
    const Config c = load_deck(std::string("[run]\niterations = 10\nwarmup = 2\nprogress_interval = 0\n[triad]\nsize_per_rank = 1000\n"
                                           "[comm]\nsync = \"") + sync + "\"\n" + inject, "sync.toml", {});
    const WorkloadResult r = run_triad(c, MPI_COMM_WORLD);
    const Timeline& tl = r.timeline;
    const std::int64_t row = warmup + k;
    // Iteration end on each rank (sync_end if synchronized, else wait_end), on one clock: the
    // ranks share a node, and a delay of 0.3 s dwarfs any offset between their clocks.
    const double end = tl.at(row, std::string(sync) == "none" ? ev::wait_end : ev::sync_end);
    double delay_end = comm_rank(MPI_COMM_WORLD) == 0 ? tl.at(row, ev::delay_end) : -1e300;
    MPI_Allreduce(MPI_IN_PLACE, &delay_end, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    int before = end < delay_end ? 1 : 0;
    MPI_Allreduce(MPI_IN_PLACE, &before, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (std::string(sync) == "allreduce") {
      EXPECT_EQ(before, 0) << "a rank left the allreduce before rank 0's delay ended";
      EXPECT_FALSE(std::isnan(tl.at(row, ev::sync_end)));
    } else {
      EXPECT_GE(before, 1) << "without a sync, far ranks finish the iteration during rank 0's delay";
    }
  }
}

}  // namespace
}  // namespace desync
