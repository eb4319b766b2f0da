#pragma once
// Reads the [cg] table into cfg.params (cg_config.hpp): the cg module's WorkloadDeck::read_table.
#include "config/config.hpp"
#include "workloads/cg/cg_config.hpp"

namespace desync {

class TableReader;
void read_cg_table(TableReader& r, Config& cfg);

}  // namespace desync
