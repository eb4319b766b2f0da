#pragma once
// Reads the [stencil] table into cfg.params (stencil_config.hpp): the stencil module's WorkloadDeck::read_table.
#include "config/config.hpp"
#include "workloads/stencil/stencil_config.hpp"

namespace desync {

class TableReader;
void read_stencil_table(TableReader& r, Config& cfg);

}  // namespace desync
