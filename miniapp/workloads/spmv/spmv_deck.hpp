#pragma once
// Reads the [spmv] table into cfg.params (spmv_config.hpp): the spmv module's WorkloadDeck::read_table.
#include "config/config.hpp"
#include "workloads/spmv/spmv_config.hpp"

namespace desync {

class TableReader;
void read_spmv_table(TableReader& r, Config& cfg);

}  // namespace desync
