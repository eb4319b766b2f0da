#pragma once
// The desynchronization study's run-level metrics (papers.md A.5, docs/method.md section 13).
#include <cstdint>

namespace desync {

// P_D = (P_barrier_free - P_barrier) / |P_barrier|, where P_barrier counts the barrier run's wall
// time minus iterations x the cost of one barrier from the micro-benchmark.
inline double desync_speedup(double flops, double wall_barrier_free, double wall_barrier, std::int64_t iterations,
                             double barrier_cost) {
  const double p_free = flops / wall_barrier_free;
  const double p_bar = flops / (wall_barrier - static_cast<double>(iterations) * barrier_cost);
  return (p_free - p_bar) / (p_bar < 0 ? -p_bar : p_bar);
}

// Communication-to-execution ratio of one rank: its summed communication time over its summed
// execution time in the measured iterations (the run reports the median over ranks).
inline double comm_to_exec(double comm_time, double exec_time) { return exec_time > 0 ? comm_time / exec_time : 0.0; }

}  // namespace desync
