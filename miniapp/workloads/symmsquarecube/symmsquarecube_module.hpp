#pragma once
// The symmsquarecube workload's entry in the registry (workloads/registry.cpp): symmsquarecube_module.cpp.
#include "workload/workload_module.hpp"

namespace desync {

WorkloadModule symmsquarecube_module();

}  // namespace desync
