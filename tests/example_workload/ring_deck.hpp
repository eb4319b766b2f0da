#pragma once
// Reads [ring] into cfg.params: the example module's WorkloadDeck::read_table.
#include "config/config.hpp"
#include "ring_config.hpp"

namespace desync {

class TableReader;
void read_ring_table(TableReader& r, Config& cfg);

}  // namespace desync
