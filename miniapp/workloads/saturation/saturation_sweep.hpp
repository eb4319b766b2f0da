#pragma once
// The measurement of b(N) for N = 1 .. W (docs/method.md, "Saturation sweep"):
//   threads mode (one rank): for each N, fresh arrays of `elements` per array, split into N
//       contiguous blocks, first-touched and swept by N workers (RangePolicy of N items, chunk 1:
//       with the OpenMP backend exactly N threads touch memory);
//   ranks mode (all ranks on one node): for each N, ranks 0 .. N-1 each allocate and first-touch
//       their 1/N share of the arrays with all their threads and sweep at the same time; the
//       other ranks wait, asleep (MPI_Ibarrier polled every 100 us). Every repetition sits
//       between two such barriers; its time is the slowest streaming rank's.
// For each N and kernel: A set to NaN, one untimed warm-up sweep, `repetitions` timed sweeps,
// then A checked exactly. Timeline row ((N - 1) X + k) R + r holds repetition r of kernel k at
// N (X kernels, R repetitions): events begin, compute_end (streaming ranks) and wait_end (after
// the second barrier, ranks mode). A stop signal is agreed on between two values of N.
#include <mpi.h>

#include <cstdint>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "workloads/saturation/saturation_config.hpp"
#include "core/types.hpp"
#include "record/timeline.hpp"

namespace desync::saturation {

struct SweepPlan {
  std::vector<SaturationKernel> kernels;
  Index elements = 0;     // per array, over all streaming workers
  int max_n = 1;          // W
  Index repetitions = 1;  // R
  bool ranks = false;     // mode "ranks"

  std::int64_t rows() const { return static_cast<std::int64_t>(max_n) * static_cast<std::int64_t>(kernels.size()) * repetitions; }
  std::int64_t row(int n, std::size_t k, Index rep) const {
    return ((static_cast<std::int64_t>(n) - 1) * static_cast<std::int64_t>(kernels.size()) + static_cast<std::int64_t>(k)) * repetitions + rep;
  }
};

inline std::vector<std::string> sweep_event_names() { return {"begin", "compute_end", "wait_end"}; }

struct SweepOutcome {
  std::vector<double> seconds;    // [rows] this rank's sweep time; -1 where it did not stream
  std::int64_t rows_done = 0;     // rows of the values of N that ran
  int stop_signal = 0;            // 0: every N ran
  std::int64_t checked = 0, wrong = 0;  // elements of A checked on this rank, and wrong ones
};

// Collective over comm. tl must have plan.rows() rows and the events of sweep_event_names().
SweepOutcome run_sweep(const SweepPlan& plan, Timeline& tl, MPI_Comm comm);

}  // namespace desync::saturation
