#pragma once
// The stencil workload's entry in the registry (workloads/registry.cpp): stencil_module.cpp.
#include "workload/workload_module.hpp"

namespace desync {

WorkloadModule stencil_module();

}  // namespace desync
