#pragma once
// The pingpong workload's entry in the registry (workloads/registry.cpp): pingpong_module.cpp.
#include "workload/workload_module.hpp"

namespace desync {

WorkloadModule pingpong_module();

}  // namespace desync
