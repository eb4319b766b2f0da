// The collective micro-benchmark (papers.md E.3, Figs. 4-6) as a workload module.
#include "workloads/collbench/collbench_module.hpp"

#include <fmt/format.h>

#include "comm/node_layout.hpp"
#include "config/locate_key.hpp"
#include "core/errors.hpp"
#include "workloads/collbench/sim_collbench_program.hpp"
#include "workload/placement_rules.hpp"
#include "workloads/collbench/collbench.hpp"
#include "workloads/collbench/collbench_deck.hpp"

#include <algorithm>
#include <cmath>

namespace desync {
namespace {

void collbench_layout(const Config& cfg, MPI_Comm comm) {
  const NodeLayout l = node_layout(comm, static_cast<int>(cfg.placement.ranks_per_node));
  if (l.nodes < 2)
    throw DeckError(fmt::format("{}: error: workload \"collbench\" measures collectives between nodes, but all {} rank(s) "
                                "are on one node; run on 2+ nodes, or set [placement] ranks_per_node to count consecutive "
                                "ranks as one node", locate(cfg, "placement.ranks_per_node"), l.node_of.size()));
  if (l.ppn_min != l.ppn_max)
    throw DeckError(fmt::format("{}: error: workload \"collbench\" needs the same number of ranks on every node (its "
                                "columns span all nodes); the nodes hold {} to {} ranks; allowed: a rank count that fills every node equally, or "
                                "[placement] ranks_per_node = k (consecutive ranks counted as nodes of k) with k dividing it",
                                locate(cfg, "placement.ranks_per_node"), l.ppn_min, l.ppn_max));
}

void collbench_deck(const Config& cfg) {
  if (cfg.params.get<CollbenchConfig>().mode == CollMode::blocking && cfg.comm.communicators > 1)
    throw DeckError(fmt::format("{}: error: [comm] communicators = {} with [collbench] mode = \"blocking\": a blocking "
                                "collective runs on one communicator; use mode = \"nonblocking\" for N_DUP parts, or "
                                "communicators = 1", locate(cfg, "comm.communicators"), cfg.comm.communicators));
}

}  // namespace

WorkloadModule collbench_module() {
  WorkloadModule m;
  m.deck.name = "collbench";
  m.deck.cells_of_repetitions = true;  // a cell per operation and size
  m.deck.tables = {"run", "collbench", "placement", "comm", "threads"};
  m.deck.read_table = read_collbench_table;
  m.deck.collective = true;
  m.deck.default_sync = SyncMode::barrier;  // repetitions start together, as in OSU's benchmarks
  m.deck.validate_deck = collbench_deck;
  m.deck.validate_ranks = placement_ranks;
  m.memory = collbench_memory;
  // Measured (docs/method.md, section 32): /collbench, /placement and 31 own datasets; per row
  // one call per duplicate, the warm-up calls logged too.
  m.output_shape = [](const Config& cfg, int) {
    OutputShape s;
    s.events = 5;
    s.warmup = 0;
    s.phases = 5;
    s.partners = 0;
    const double reps = static_cast<double>(std::max<std::int64_t>(cfg.run.iterations, 1));
    s.collectives_per_row = static_cast<double>(cfg.comm.communicators) * (reps + static_cast<double>(cfg.run.warmup)) / reps;
    s.datasets = 31;
    s.groups = 2;
    s.bytes = 1136.0;
    return s;
  };
  m.run = run_collbench;
  m.timeline_rows = collbench_rows;
  m.validate_layout = collbench_layout;
  m.simulated = sim::collbench_program;
  return m;
}

}  // namespace desync
