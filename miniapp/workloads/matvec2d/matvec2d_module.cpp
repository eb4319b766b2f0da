// The mesh mat-vec demo (papers.md E.2, Algorithms 1 and 2) as a workload module.
#include "workloads/matvec2d/matvec2d_module.hpp"

#include <fmt/format.h>

#include <cmath>

#include "config/locate_key.hpp"
#include "core/errors.hpp"
#include "workloads/matvec2d/sim_matvec2d_program.hpp"
#include "workload/placement_rules.hpp"
#include "workloads/matvec2d/matvec2d.hpp"
#include "workloads/matvec2d/matvec2d_deck.hpp"

#include <algorithm>
#include <cmath>

namespace desync {
namespace {

// A p x p mesh of the kernel's ranks, with blocks of n / p rows that leave none empty.
void mesh_ranks(const Config& cfg, int active, int nranks) {
  const int p = static_cast<int>(std::lround(std::sqrt(active)));
  if (p * p != active)
    throw DeckError(fmt::format("{}: error: workload \"matvec2d\" runs on a p x p mesh, but the run has {}; allowed: "
                                "a square number (4, 9, 16, ...)", locate(cfg, "run.workload"), ranks_phrase(cfg, active, nranks)));
  check_blocks(cfg, "matvec2d.n", cfg.params.get<Matvec2dConfig>().n, p);
}

void matvec2d_ranks(const Config& cfg, int nranks) {
  placement_ranks(cfg, nranks);
  const int active = planned_active_ranks(cfg.placement, nranks);
  if (active > 0) mesh_ranks(cfg, active, nranks);
}

void matvec2d_layout(const Config& cfg, MPI_Comm comm) {
  int nranks = 0;
  const int active = active_ranks_in_layout(cfg, comm, &nranks);
  mesh_ranks(cfg, active, nranks);
}

// N_DUP acts only where operations are cut into parts; elsewhere more than 1 is an error (it
// would make duplicates nobody uses, and the record would claim parts that never existed).
void matvec2d_deck(const Config& cfg) {
  if (!cfg.params.get<Matvec2dConfig>().pipelined && cfg.comm.communicators > 1)
    throw DeckError(fmt::format("{}: error: [comm] communicators = {} with [matvec2d] pipelined = false: MPI_Reduce and "
                                "MPI_Bcast use each communicator whole; use pipelined = true for N_DUP parts, or "
                                "communicators = 1", locate(cfg, "comm.communicators"), cfg.comm.communicators));
}

}  // namespace

WorkloadModule matvec2d_module() {
  WorkloadModule m;
  m.deck.name = "matvec2d";
  m.deck.tables = {"run", "matvec2d", "placement", "comm", "threads", "record"};
  m.deck.read_table = read_matvec2d_table;
  m.deck.collective = true;
  m.deck.device_buffers = true;
  m.deck.validate_deck = matvec2d_deck;
  m.deck.validate_ranks = matvec2d_ranks;
  m.memory = matvec2d_memory;
  // Measured (docs/method.md, section 32): /placement and 13 own datasets; a reduce and a
  // broadcast per row and duplicate.
  m.output_shape = [](const Config& cfg, int) {
    OutputShape s;
    s.events = cfg.params.get<Matvec2dConfig>().pipelined ? 5 : 6;
    s.phases = s.events;
    s.partners = 0;
    s.collectives_per_row = 2.0 * static_cast<double>(cfg.comm.communicators);
    s.datasets = 13;
    s.groups = 1;
    s.bytes = 432.0;
    return s;
  };
  m.run = run_matvec2d;
  m.validate_layout = matvec2d_layout;
  m.simulated = sim::matvec2d_program;
  m.phases = {{"product", PhaseClass::work, "#b9e3b0", "local product"},
              {"reduce", PhaseClass::communication, "#fc9272", "reduction"},
              {"bcast", PhaseClass::communication, "#9ecae1", "broadcast"},
              {"reduce_bcast", PhaseClass::communication, "#c6b3e0", "reduce + broadcast (pipelined)"}};
  return m;
}

}  // namespace desync
