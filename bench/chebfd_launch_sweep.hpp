#pragma once
// bench_chebfd --launch-sweep 1: the fused ChebFD step (CRS, real) under the element mapping's
// launch shapes (workloads/chebfd/chebfd_column_sums.hpp: team size, waves of resident teams,
// rows in flight per thread, block columns per thread), side by side in one run, each over the same model bytes and
// triad bandwidth as the benchmark's table. In a unit of its own: every (depth, columns) pair
// instantiates the team kernel once more, and the CUDA build compiles bench_chebfd's units side by side.
#include <string>
#include <vector>

#include "workloads/chebfd/chebfd_kernels.hpp"

namespace desync::bench {

// One launch shape and its time (best of reps) for one block width.
struct LaunchPoint {
  int team_threads = 0, waves = 0, depth = 0, columns = 0;
  int team = 0, teams = 0;  // what the shape became on this space (threads per team, teams per launch)
  double seconds = 0;       // 0: refused (a team wider than the space allows, nb not a multiple of columns)
  std::string refused;      // why
};

// The shapes for width nb: on a device teams of 128 .. 1024 threads, 1 .. 8 waves, and pairs of
// rows in flight (1, 2, 4) and block columns (1, 2, 4) per thread; on a host the space's default
// team (its whole width) with the same waves and pairs. The first point is the workload's shape.
std::vector<LaunchPoint> sweep_launch_shapes(const chebfd::Fused<double, false>& f, int reps);

}  // namespace desync::bench
