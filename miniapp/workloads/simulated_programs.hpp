#pragma once
// The programs of `desync simulate` (sim_model/sim_program.hpp): the registry's modules that have
// one (WorkloadModule::simulated).
#include <string>

#include "config/config.hpp"
#include "sim_model/sim_program.hpp"

namespace desync::sim {

// Whether the workload has a simulated program, and the list of those that do, for messages.
bool simulatable(const std::string& workload);
std::string simulatable_list();
// A DeckError at [run] workload for a workload without one (desync simulate's first check).
void require_simulatable(const Config& cfg);

// The program of `ranks` virtual ranks of the deck on the platform. Throws DeckError for a
// workload or option the simulator does not model.
Program make_program(const Config& cfg, const Platform& platform, int ranks);

}  // namespace desync::sim
