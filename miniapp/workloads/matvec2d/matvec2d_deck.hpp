#pragma once
// Reads the [matvec2d] table into cfg.params (matvec2d_config.hpp): the matvec2d module's WorkloadDeck::read_table.
#include "config/config.hpp"
#include "workloads/matvec2d/matvec2d_config.hpp"

namespace desync {

class TableReader;
void read_matvec2d_table(TableReader& r, Config& cfg);

}  // namespace desync
