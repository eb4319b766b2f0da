// The collective layer and the workloads on it (comm/collectives.hpp, comm/node_layout.hpp,
// collbench/, matvec2d/): parts cover a buffer; nodes emulated from [placement] ranks_per_node;
// the collective micro-benchmark delivers the right data in all three of the study's modes and
// refuses a single node; the pipelined mesh mat-vec gives the blocking one's y; ranks outside
// [placement] active_ppn sleep on MPI_Ibarrier and use almost no CPU meanwhile (measured).
#include <gtest/gtest.h>
#include <mpi.h>

#include <cmath>
#include <string>
#include <vector>

#include "workloads/registry.hpp"
#include "workloads/collbench/collbench.hpp"
#include "comm/collectives.hpp"
#include "comm/node_layout.hpp"
#include "config/config.hpp"
#include "core/errors.hpp"
#include "core/mpi_util.hpp"
#include "workloads/matvec2d/matvec2d.hpp"
#include "workloads/matvec2d/matvec2d_config.hpp"

namespace desync {
namespace {

const NamedValue* metric(const WorkloadResult& r, const std::string& name) {
  for (const auto& m : r.metrics)
    if (m.name == name) return &m;
  return nullptr;
}

TEST(Collectives, PartsCoverTheBufferContiguously) {
  for (std::int64_t count : {0, 1, 7, 64, 1001})
    for (int parts : {1, 2, 3, 4, 6}) {
      std::int64_t next = 0;
      for (int c = 0; c < parts; ++c) {
        const Part p = part_of(count, parts, c);
        EXPECT_EQ(p.offset, next);
        EXPECT_LE(p.count, count / parts + 1);
        EXPECT_GE(p.count, count / parts);
        next += p.count;
      }
      EXPECT_EQ(next, count);
    }
}

TEST(NodeLayout, EmulatedNodesAreConsecutiveBlocks) {
  const int size = comm_size(MPI_COMM_WORLD), rank = comm_rank(MPI_COMM_WORLD);
  const NodeLayout l = node_layout(MPI_COMM_WORLD, 3);
  EXPECT_EQ(l.nodes, (size + 2) / 3);
  EXPECT_EQ(l.node, rank / 3);
  EXPECT_EQ(l.local, rank % 3);
  EXPECT_TRUE(l.natural);
  EXPECT_TRUE(l.emulated);
  EXPECT_EQ(l.ppn_max, std::min(size, 3));
  const NodeLayout real = node_layout(MPI_COMM_WORLD, 0);
  EXPECT_FALSE(real.emulated);
  EXPECT_EQ(real.node_of.size(), static_cast<std::size_t>(size));
}

Config collbench(const std::string& extra) {
  return load_deck("[run]\nworkload = \"collbench\"\nprogress_interval = 0\nwarmup = 1\niterations = 3\n[collbench]\n"
                   "sizes = [4, 40000, 1048576]\n" + extra,
                   "collbench.toml", {});
}

TEST(Collbench, DeliversTheDataInEveryMode) {
  const int size = comm_size(MPI_COMM_WORLD);
  std::vector<std::string> modes{"[placement]\nranks_per_node = 1\n",
                                 "mode = \"nonblocking\"\n[comm]\ncommunicators = 4\n[placement]\nranks_per_node = 1\n"};
  if (size % 2 == 0 && size >= 4) {  // 2 ranks per node: one active per node, or two column communicators
    modes.push_back("[placement]\nranks_per_node = 2\nactive_ppn = 1\n");
    modes.push_back("[placement]\nranks_per_node = 2\nactive_ppn = 2\n");
  }
  for (const std::string& m : modes) {
    SCOPED_TRACE(m);
    const Config cfg = collbench(m);
    validate_for_ranks(cfg, size);
    EXPECT_NO_THROW(validate_workload_layout(cfg, MPI_COMM_WORLD));
    const WorkloadResult r = run_collbench(cfg, MPI_COMM_WORLD);
    std::int64_t e[2] = {r.element_errors, r.elements_checked};
    MPI_Allreduce(MPI_IN_PLACE, e, 2, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
    EXPECT_EQ(e[0], 0);
    EXPECT_GT(e[1], 0);
    const auto* bw = find_dataset(r, "collbench", "bandwidth");
    ASSERT_NE(bw, nullptr);
    ASSERT_EQ(bw->values.size(), 6u);  // 3 sizes x 2 operations
    for (double b : bw->values) EXPECT_GT(b, 0.0);
    const auto* post = find_dataset(r, "collbench", "post_time");
    ASSERT_NE(post, nullptr);
    EXPECT_EQ(post->dims.back(), static_cast<std::uint64_t>(cfg.comm.communicators)) << "one post time per part";
  }
}

TEST(Collbench, RefusesWhatItCannotMeasure) {
  // All ranks on this machine's one node: no collective between nodes.
  EXPECT_THROW(validate_workload_layout(collbench(""), MPI_COMM_WORLD), DeckError);
  EXPECT_THROW(collbench("[comm]\ncommunicators = 4\n"), DeckError) << "blocking mode has one communicator";
  EXPECT_THROW(collbench("sizes = [6]\n"), DeckError) << "not a whole number of floats";
}

Config matvec(bool pipelined, int ndup, const std::string& extra = "") {
  return load_deck("[run]\nworkload = \"matvec2d\"\nprogress_interval = 0\nwarmup = 1\niterations = 4\n[matvec2d]\nn = 301\n"
                   "pipelined = " + std::string(pipelined ? "true" : "false") + "\n[comm]\ncommunicators = " +
                       std::to_string(ndup) + "\nrecord_messages = true\n" + extra,
                   "matvec2d.toml", {});
}

TEST(Matvec2d, PipelinedGivesTheBlockingProduct) {
  const int size = comm_size(MPI_COMM_WORLD);
  const int p = static_cast<int>(std::lround(std::sqrt(size)));
  if (p * p != size) GTEST_SKIP() << "a p x p mesh";
  for (int ndup : {1, 3}) {
    const WorkloadResult piped = run_matvec2d(matvec(true, ndup), MPI_COMM_WORLD);
    EXPECT_EQ(piped.element_errors, 0);
    EXPECT_GT(piped.elements_checked, 0);
    EXPECT_LT(metric(piped, "max_relative_error")->value, 1e-12);
    // Every part of every reduction and broadcast is logged, on its own duplicate.
    ASSERT_TRUE(piped.collectives);
    const auto dup = piped.collectives->dup();
    EXPECT_EQ(piped.collectives->count(), 5 * 2 * ndup) << "5 calls x (reduce + bcast) x N_DUP parts";
    for (int c = 0; c < ndup; ++c) EXPECT_EQ(std::count(dup.begin(), dup.end(), c), 10);
  }
  EXPECT_EQ(run_matvec2d(matvec(false, 1), MPI_COMM_WORLD).element_errors, 0);
  EXPECT_THROW(validate_for_ranks(matvec(false, 1), 6), DeckError) << "6 ranks make no square mesh";
}

// [comm] gpu_aware_mpi = "off": the reductions and broadcasts go through host mirrors of y_part,
// y_sum and y_col (a second host buffer in this build, the path a GPU build takes): the same
// product, to the last bit of its error against the reference.
TEST(Matvec2d, StagedBuffersGiveTheSameProduct) {
  const int size = comm_size(MPI_COMM_WORLD);
  const int p = static_cast<int>(std::lround(std::sqrt(size)));
  if (p * p != size) GTEST_SKIP() << "a p x p mesh";
  for (bool pipelined : {false, true}) {
    const int ndup = pipelined ? 3 : 1;
    const WorkloadResult direct = run_matvec2d(matvec(pipelined, ndup), MPI_COMM_WORLD);
    const WorkloadResult staged = run_matvec2d(matvec(pipelined, ndup, "gpu_aware_mpi = \"off\"\n"), MPI_COMM_WORLD);
    EXPECT_EQ(staged.element_errors, 0);
    EXPECT_EQ(staged.elements_checked, direct.elements_checked);
    EXPECT_EQ(metric(staged, "max_relative_error")->value, metric(direct, "max_relative_error")->value);
  }
}

TEST(ActiveRanks, SleepingRanksUseAlmostNoCpu) {
  const int size = comm_size(MPI_COMM_WORLD);
  if (size < 4 || size % 4 != 0) GTEST_SKIP() << "nodes of 4 ranks, one active each";
  // size / 4 nodes of 4, one active rank per node: a 1 x 1 (4 ranks) or ... mesh needs a square
  // number of nodes; 4 and 16 ranks make 1 and 4 active ranks.
  const int nodes = size / 4;
  const int p = static_cast<int>(std::lround(std::sqrt(nodes)));
  if (p * p != nodes) GTEST_SKIP() << "a square number of nodes";
  Config cfg = matvec(true, 2, "[placement]\nranks_per_node = 4\nactive_ppn = 1\n");
  cfg.run.iterations = 300;  // long enough for several 10 ms polls
  cfg.params.get<Matvec2dConfig>().n = 2000;
  validate_for_ranks(cfg, size);
  const WorkloadResult r = run_matvec2d(cfg, MPI_COMM_WORLD);
  EXPECT_EQ(r.element_errors, 0);
  const int rank = comm_rank(MPI_COMM_WORLD);
  const bool active = rank % 4 == 0;
  const auto* wall = find_dataset(r, "placement", "parked_time");
  const auto* cpu = find_dataset(r, "placement", "parked_cpu_time");
  ASSERT_TRUE(wall && cpu);
  if (!active) {
    EXPECT_GT(wall->values[0], 0.05) << "parked while the kernel ran";
    EXPECT_LT(cpu->values[0], 0.1 * wall->values[0]) << "asleep, not polling";
  } else {
    EXPECT_EQ(wall->values[0], 0.0);
  }
  EXPECT_LT(metric(r, "parked_cpu_share")->value, 0.1);
  EXPECT_EQ(metric(r, "active_ranks")->value, nodes);
}

}  // namespace
}  // namespace desync
