#pragma once
// The SimGrid platform of a run (docs/simulate.md, "Model"), built in code from a Platform:
//   cluster (star zone) -> one star zone per node with a router as its gateway and a NIC link
//   -> one host per rank with its core link; one memory host per contention domain.
// Scalability rules measured in docs/design/simulate.md section 4: links only on the sending side
// by default (a core's and a node's outgoing link, empty routes on the way in), so one message
// never couples the sharing of ranks that do not share a link; memory as bounded executions on
// the domain's memory host, outside the network's sharing system.
#include <simgrid/s4u.hpp>

#include <vector>

#include "sim_model/platform_file.hpp"

namespace desync::sim {

struct SimHosts {
  std::vector<simgrid::s4u::Host*> rank;    // per rank: where its actor runs and its messages leave
  std::vector<simgrid::s4u::Host*> memory;  // per domain (node * domains + domain in node)
  std::vector<RankPlace> place;             // per rank
};

// Call once per process, after the Engine exists and before it runs.
SimHosts build_platform(const Platform& p, int ranks);

// A rank's memory-bound phase of `bytes`: its rate alone is b(threads) x core_share, and n ranks
// streaming at once share the domain's b(n x threads) (max-min: min(alone, b / n) each).
double memory_bound_of(const Platform& p, const RankPlace& x);

}  // namespace desync::sim
