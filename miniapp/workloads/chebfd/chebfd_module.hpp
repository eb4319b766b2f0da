#pragma once
// The chebfd workload's entry in the registry (workloads/registry.cpp): chebfd_module.cpp.
#include "workload/workload_module.hpp"

namespace desync {

WorkloadModule chebfd_module();

}  // namespace desync
