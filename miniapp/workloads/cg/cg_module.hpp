#pragma once
// The cg workload's entry in the registry (workloads/registry.cpp): cg_module.cpp.
#include "workload/workload_module.hpp"

namespace desync {

WorkloadModule cg_module();

}  // namespace desync
