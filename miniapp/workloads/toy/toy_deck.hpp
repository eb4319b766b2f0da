#pragma once
// Reads the [toy] table into cfg.params (toy_config.hpp): the toy module's WorkloadDeck::read_table.
#include "config/config.hpp"
#include "workloads/toy/toy_config.hpp"

namespace desync {

class TableReader;
void read_toy_table(TableReader& r, Config& cfg);

}  // namespace desync
