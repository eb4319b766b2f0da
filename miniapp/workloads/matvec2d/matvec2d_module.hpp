#pragma once
// The matvec2d workload's entry in the registry (workloads/registry.cpp): matvec2d_module.cpp.
#include "workload/workload_module.hpp"

namespace desync {

WorkloadModule matvec2d_module();

}  // namespace desync
