// The saturation sweep b(N) (papers.md B.5) as a workload module.
#include "workloads/saturation/saturation_module.hpp"

#include "workloads/saturation/saturation.hpp"
#include "workloads/saturation/saturation_deck.hpp"

#include <algorithm>
#include <cmath>

namespace desync {

WorkloadModule saturation_module() {
  WorkloadModule m;
  m.deck.name = "saturation";
  m.deck.tables = {"run", "saturation", "threads"};
  m.deck.read_table = read_saturation_table;
  m.deck.no_overlap = [](const Config&) -> std::string { return "it only streams memory"; };
  m.deck.validate_deck = saturation_deck;
  m.deck.validate_ranks = saturation_ranks;
  m.memory = saturation_memory;
  // Three events per sweep row, no warm-up rows, no messages; its sweep tables measured on the
  // shipped decks (docs/method.md, section 32): about 32 datasets, 5.5 KiB.
  m.output_shape = [](const Config&, int) {
    OutputShape s;
    s.events = 3;
    s.warmup = 0;
    s.phases = 3;
    s.partners = 0;
    s.datasets = 32;
    s.groups = 1;
    s.bytes = 5600.0;
    return s;
  };
  m.run = run_saturation;
  m.timeline_rows = saturation_rows;
  m.validate_layout = saturation_layout;
  m.phases = {{"compute", PhaseClass::work, "#b9e3b0", "compute"}};
  return m;
}

}  // namespace desync
