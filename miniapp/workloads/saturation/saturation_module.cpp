// The saturation sweep b(N) (papers.md B.5) as a workload module.
#include "workloads/saturation/saturation_module.hpp"

#include "workloads/saturation/saturation.hpp"
#include "workloads/saturation/saturation_deck.hpp"

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
  m.run = run_saturation;
  m.timeline_rows = saturation_rows;
  m.validate_layout = saturation_layout;
  m.phases = {{"compute", PhaseClass::work, "#b9e3b0", "compute"}};
  return m;
}

}  // namespace desync
