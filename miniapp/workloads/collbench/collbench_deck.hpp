#pragma once
// Reads the [collbench] table into cfg.params (collbench_config.hpp): the collbench module's WorkloadDeck::read_table.
#include "config/config.hpp"
#include "workloads/collbench/collbench_config.hpp"

namespace desync {

class TableReader;
void read_collbench_table(TableReader& r, Config& cfg);

}  // namespace desync
