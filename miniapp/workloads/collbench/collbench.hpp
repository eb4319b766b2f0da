#pragma once
// The collective micro-benchmark (papers.md E.3, Figs. 4-6): a broadcast and a reduction (sum of
// floats) of n bytes over one rank per node, in the study's three modes:
//   mode = "blocking",    active_ppn 1: MPI_Bcast / MPI_Reduce over the nodes (the baseline);
//   mode = "nonblocking", active_ppn 1: N_DUP = [comm] communicators duplicates of that
//                         communicator, part c of the data (1/N_DUP) on duplicate c, all posted
//                         (MPI_Ibcast / MPI_Ireduce), then waited for in order;
//   [placement] active_ppn = k: k ranks per node, rank l of every node in the l-th column
//                         communicator, each column carrying 1/k of the data (the same group size
//                         and inter-node volume as the first mode), k collectives at once.
// The root is the group's first rank (node 0). Every size and operation runs [run] warmup
// untimed and [run] iterations timed repetitions with a barrier between them ([comm] sync);
// the timeline holds the timed ones (size, then operation, then repetition).
// Time of a repetition: the slowest active rank's post-to-completion time. Bandwidth:
// 2 (p - 1) n / p / time, p the number of nodes (papers.md E.4). Per part: the post call's time
// and the wait's time on each rank (median over repetitions), the study's Fig. 6 data.
#include <mpi.h>

#include <vector>

#include "config/config.hpp"
#include "workloads/collbench/collbench_config.hpp"
#include "core/memory.hpp"
#include "record/workload_result.hpp"

namespace desync {

WorkloadResult run_collbench(const Config& cfg, MPI_Comm comm);
MemoryEstimate collbench_memory(const Config& cfg, int rank, int size);
std::int64_t collbench_rows(const Config& cfg, int ranks = 1);  // timeline rows: sizes x ops x iterations

// What the real run and its simulation (sim_collbench_program.cpp) both write. The axes
// (/collbench/bytes and op); then, from the slowest active rank's time of each repetition
// (`duration`, timeline order, the first `done` ones ran) and rank 0's per-part post and wait
// medians (NaN: not measured), the tables, metrics and the printed report.
struct CollbenchShape {
  int nodes = 0, columns = 0, group = 0, ndup = 1;  // group: ranks per column communicator
};
void collbench_axes(const Config& cfg, WorkloadResult& r);
void collbench_tables(const Config& cfg, const CollbenchShape& shape, const std::vector<double>& duration, std::int64_t done,
                      const std::vector<double>& post_med, const std::vector<double>& wait_med, WorkloadResult& r);

}  // namespace desync
