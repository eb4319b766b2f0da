#pragma once
#include "workload/workload_module.hpp"

namespace desync {

WorkloadModule ring_module();

}  // namespace desync
