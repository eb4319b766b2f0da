#pragma once
// collbench's program for `desync simulate` (sim_collbench_program.cpp): what its module gives as
// WorkloadModule::simulated; the simulator reaches it only through the registry.
#include "config/config.hpp"
#include "sim_model/sim_program.hpp"

namespace desync::sim {

Program collbench_program(const Config& cfg, const Platform& platform, int ranks);

}  // namespace desync::sim
