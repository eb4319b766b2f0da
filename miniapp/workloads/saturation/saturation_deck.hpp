#pragma once
// Reads the [saturation] table into cfg.params (saturation_config.hpp): the saturation module's WorkloadDeck::read_table.
#include "config/config.hpp"
#include "workloads/saturation/saturation_config.hpp"

namespace desync {

class TableReader;
void read_saturation_table(TableReader& r, Config& cfg);

}  // namespace desync
