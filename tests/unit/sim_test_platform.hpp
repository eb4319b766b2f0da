#pragma once
// A small modelled cluster for the simulator's unit tests: 8 nodes of 4 cores per domain, 1 GB/s
// per core and 2 GB/s saturated, 1 GFlop/s DGEMM per core, 1 us / 1 GB/s links.
#include "sim_model/platform_file.hpp"

namespace desync::sim {

inline const Platform& test_platform() {
  static const Platform p = parse_platform(R"([platform]
name = "t"
[node]
cores_per_domain = 4
[memory]
b1 = 1e9
b_saturated = 2e9
[core]
divide_time = 2e-9
gemm_flops = 1e9
[network]
intra_node_latency = 1e-6
intra_node_bandwidth = 1e9
inter_node_latency = 1e-6
inter_node_bandwidth = 1e9
)", "p.toml", {"node.count=8"});
  return p;
}

}  // namespace desync::sim
