#pragma once
// The spmv workload's entry in the registry (workloads/registry.cpp): spmv_module.cpp.
#include "workload/workload_module.hpp"

namespace desync {

WorkloadModule spmv_module();

}  // namespace desync
