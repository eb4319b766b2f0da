#pragma once
// Reads the [triad] table into cfg.params (triad_config.hpp): the triad module's WorkloadDeck::read_table.
#include "config/config.hpp"
#include "workloads/triad/triad_config.hpp"

namespace desync {

class TableReader;
void read_triad_table(TableReader& r, Config& cfg);

}  // namespace desync
