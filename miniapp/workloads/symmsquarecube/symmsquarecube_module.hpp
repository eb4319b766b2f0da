#pragma once
// The symmsquarecube workload's entry in the registry (workloads/registry.cpp): symmsquarecube_module.cpp.
#include "workload/workload_module.hpp"

namespace desync {

WorkloadModule symmsquarecube_module();

// The mesh rule of the real run and its simulation: `active` kernel ranks of `nranks` form a
// p x p x p mesh (q x q x c for "2.5d") whose blocks fit one message each; else DeckError.
void ssc_mesh_rule(const Config& cfg, int active, int nranks);

}  // namespace desync
