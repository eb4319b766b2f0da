#pragma once
// The collbench workload's entry in the registry (workloads/registry.cpp): collbench_module.cpp.
#include "workload/workload_module.hpp"

namespace desync {

WorkloadModule collbench_module();

}  // namespace desync
