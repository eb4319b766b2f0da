#pragma once
// Reads the [symmsquarecube] table into cfg.params (symmsquarecube_config.hpp): the symmsquarecube module's WorkloadDeck::read_table.
#include "config/config.hpp"
#include "workloads/symmsquarecube/symmsquarecube_config.hpp"

namespace desync {

class TableReader;
void read_symmsquarecube_table(TableReader& r, Config& cfg);

}  // namespace desync
