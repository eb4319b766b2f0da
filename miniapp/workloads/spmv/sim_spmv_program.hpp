#pragma once
// spmv's program for `desync simulate` (sim_spmv_program.cpp): what its module gives as
// WorkloadModule::simulated; the simulator reaches it only through the registry.
#include "config/config.hpp"
#include "sim_model/sim_program.hpp"

namespace desync::sim {

Program spmv_program(const Config& cfg, const Platform& platform, int ranks);

}  // namespace desync::sim
