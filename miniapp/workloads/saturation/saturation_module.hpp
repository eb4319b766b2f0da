#pragma once
// The saturation workload's entry in the registry (workloads/registry.cpp): saturation_module.cpp.
#include "workload/workload_module.hpp"

namespace desync {

WorkloadModule saturation_module();

}  // namespace desync
