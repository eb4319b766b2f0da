#pragma once
// The desynchronization study's run-level metrics (papers.md A.5, docs/method.md section 13).
#include <cstdint>
#include <vector>

#include "record/workload_result.hpp"

namespace desync {

// P_D = (P_barrier_free - P_barrier) / |P_barrier|, where P_barrier counts the barrier run's wall
// time minus its barriers x the cost of one barrier from the micro-benchmark.
inline double desync_speedup(double flops, double wall_barrier_free, double wall_barrier, std::int64_t barriers,
                             double barrier_cost) {
  const double p_free = flops / wall_barrier_free;
  const double p_bar = flops / (wall_barrier - static_cast<double>(barriers) * barrier_cost);
  return (p_free - p_bar) / (p_bar < 0 ? -p_bar : p_bar);
}

// The barrier metrics of a run and of its compare_barrier pair, real or simulated, under one set of
// names (docs/output.md, /metrics): barrier_cost; gflops_barrier_corrected when a run had the
// barrier; with a complete paired run (wall_other > 0) gflops_barrier_free, gflops_barrier and
// desync_speedup (P_D). flops: of the measured iterations; wall: the first run's measured wall;
// synced: the first run had the barrier; barriers: those of the measured iterations (one each, or
// fewer with [comm] sync_every: config's syncs_in).
inline std::vector<NamedValue> barrier_metrics(double flops, double wall, double wall_other, bool synced,
                                               std::int64_t barriers, double barrier) {
  const double n = static_cast<double>(barriers);
  std::vector<NamedValue> m = {{"barrier_cost", barrier, "s"}};
  if (synced && wall > 0) m.push_back({"gflops_barrier_corrected", 1e-9 * flops / (wall - n * barrier), "Gflop/s"});
  if (wall <= 0 || wall_other <= 0) return m;
  const double wall_free = synced ? wall_other : wall, wall_bar = synced ? wall : wall_other;
  m.push_back({"gflops_barrier_free", 1e-9 * flops / wall_free, "Gflop/s"});
  m.push_back({"gflops_barrier", 1e-9 * flops / wall_bar, "Gflop/s"});
  if (!synced) m.push_back({"gflops_barrier_corrected", 1e-9 * flops / (wall_bar - n * barrier), "Gflop/s"});
  m.push_back({"desync_speedup", desync_speedup(flops, wall_free, wall_bar, barriers, barrier), "1"});
  return m;
}

// Communication-to-execution ratio of one rank: its summed communication time over its summed
// execution time in the measured iterations (the run reports the median over ranks).
inline double comm_to_exec(double comm_time, double exec_time) { return exec_time > 0 ? comm_time / exec_time : 0.0; }

}  // namespace desync
