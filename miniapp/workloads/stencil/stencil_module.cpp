// The 2D 5-point Jacobi stencil (papers.md C) as a workload module.
#include "workloads/stencil/stencil_module.hpp"

#include "workloads/stencil/sim_stencil_program.hpp"
#include "workloads/stencil/stencil.hpp"
#include "workloads/stencil/stencil_deck.hpp"
#include "workloads/stencil/stencil_grid.hpp"

#include <algorithm>
#include <cmath>

namespace desync {

WorkloadModule stencil_module() {
  WorkloadModule m;
  m.deck.name = "stencil";
  m.deck.tables = {"run", "stencil", "comm", "inject", "noise", "threads", "record"};
  m.deck.read_table = read_stencil_table;
  m.deck.device_buffers = true;
  m.deck.no_overlap = [](const Config&) -> std::string { return "the stencil exchanges its halo, then sweeps"; };
  m.deck.validate_ranks = [](const Config& cfg, int nranks) { validate_stencil_grid(cfg.params.get<StencilConfig>(), nranks); };
  m.memory = stencil_memory;
  // A deck with px and py names its process grid, hence its rank count.
  m.deck_ranks = [](const Config& cfg) -> std::int64_t {
    const StencilConfig& c = cfg.params.get<StencilConfig>();
    return c.px > 0 ? c.px * c.py : 0;
  };
  // Measured (docs/method.md, section 32): 18 own datasets; up to 4 neighbours, a send and a receive each.
  m.output_shape = [](const Config&, int ranks) {
    OutputShape s;
    s.events = static_cast<int>(stencil_event_names().size());
    s.phases = s.events + 2;
    s.halo(ranks, 4);
    s.datasets = 18;
    s.bytes = 264.0;
    return s;
  };
  m.run = run_stencil;
  m.phases = {{"sweep", PhaseClass::work, "#b9e3b0", "sweep (stencil)"},
              // Busy work in the halo exchange that stands for network latency: communication time.
              {"latency", PhaseClass::communication, "#6baed6", "injected latency"}};
  m.simulated = sim::stencil_program;
  return m;
}

}  // namespace desync
