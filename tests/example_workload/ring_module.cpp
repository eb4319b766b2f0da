// The example workload's entry: everything desync needs to know of "ring", declared here alone.
#include "ring_module.hpp"

#include "ring.hpp"
#include "ring_deck.hpp"

namespace desync {

WorkloadModule ring_module() {
  WorkloadModule m;
  m.deck.name = "ring";
  m.deck.tables = {"run", "ring", "comm", "inject", "noise", "threads", "record"};
  m.deck.read_table = read_ring_table;
  m.deck.no_overlap = [](const Config&) -> std::string { return "the ring crunches, then passes its sum"; };
  m.memory = ring_memory;
  m.run = run_ring;
  m.phases = {{"crunch", PhaseClass::work, "#2a9d8f", "crunch (sum the array)"},
              {"spread", PhaseClass::work, "#e9c46a", "spread (fill the array)"}};
  return m;
}

}  // namespace desync
