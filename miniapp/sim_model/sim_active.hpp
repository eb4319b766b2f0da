#pragma once
// The collective workloads' active subset on the modelled nodes ([placement] active_ppn, as
// workload/active_subset.hpp in a real run): which virtual ranks run the kernel, in the kernel
// communicator's order (node, then index on the node), and the parked rest. Needs no SimGrid.
#include <vector>

#include "record/workload_result.hpp"
#include "sim_model/platform_file.hpp"
#include "sim_model/sim_program.hpp"

namespace desync::sim {

struct ModelledActive {
  int nodes = 0, ranks_per_node = 0;
  int per_node = 0;         // active ranks on a full node: min(active_ppn, ranks_per_node), or all
  std::vector<int> active;  // global ranks, in the kernel communicator's order
};

// The ranks fill nodes in blocks of the platform's ranks_per_node (sim_model/platform_file.hpp).
ModelledActive modelled_active(const Platform& platform, int ranks, int active_ppn);

// Sizes p.ranks, marks every rank outside `a.active` parked and gives every rank the real run's
// /placement datasets node, local and active.
void place_ranks(Program& p, int ranks, const ModelledActive& a);

// The placement metrics a real run's active subset records (workload/active_subset.cpp): nodes,
// active_ranks, active_ppn and natural_placement (1: the model fills nodes in rank order).
void placement_metrics(const ModelledActive& a, WorkloadResult& into);

}  // namespace desync::sim
