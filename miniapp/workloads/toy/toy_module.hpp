#pragma once
// The toy workload's entry in the registry (workloads/registry.cpp): toy_module.cpp.
#include "workload/workload_module.hpp"

namespace desync {

WorkloadModule toy_module();

}  // namespace desync
