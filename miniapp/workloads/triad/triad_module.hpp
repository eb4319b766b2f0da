#pragma once
// The triad workload's entry in the registry (workloads/registry.cpp): triad_module.cpp.
#include "workload/workload_module.hpp"

namespace desync {

WorkloadModule triad_module();

}  // namespace desync
