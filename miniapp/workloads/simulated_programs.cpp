#include "workloads/simulated_programs.hpp"

#include <fmt/format.h>

#include "config/locate_key.hpp"
#include "core/errors.hpp"
#include "workloads/registry.hpp"

namespace desync::sim {

bool simulatable(const std::string& workload) { return workload_module(workload).simulated != nullptr; }

std::string simulatable_list() {
  std::string s;
  for (const auto& m : workload_registry())
    if (m.simulated) s += (s.empty() ? "\"" : ", \"") + m.deck.name + "\"";
  return s;
}

void require_simulatable(const Config& cfg) {
  if (!simulatable(cfg.run.workload))
    throw DeckError(fmt::format("{}: error: [run] workload = \"{}\": desync simulate models {}; run it with desync run",
                                locate(cfg, "run.workload"), cfg.run.workload, simulatable_list()));
}

Program make_program(const Config& cfg, const Platform& platform, int ranks) {
  require_simulatable(cfg);
  const WorkloadModule& m = workload_module(cfg.run.workload);
  for (const auto& [key, value] : changed_comm_keys(cfg, m.deck))
    if (!modelled_comm_key(key)) refuse(cfg, "comm", key, value, unmodelled_comm_reason(key));
  refuse_unmodelled(cfg, platform);
  Program p = m.simulated(cfg, platform, ranks);
  p.sync_every = cfg.comm.sync_every;
  note_communicators(cfg, p);
  return p;
}

}  // namespace desync::sim
