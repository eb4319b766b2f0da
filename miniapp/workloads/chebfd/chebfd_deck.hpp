#pragma once
// Reads the [chebfd] table into cfg.params (chebfd_config.hpp): the chebfd module's WorkloadDeck::read_table.
#include "config/config.hpp"
#include "workloads/chebfd/chebfd_config.hpp"

namespace desync {

class TableReader;
void read_chebfd_table(TableReader& r, Config& cfg);

}  // namespace desync
