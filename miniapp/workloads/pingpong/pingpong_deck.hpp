#pragma once
// Reads the [pingpong] table into cfg.params (pingpong_config.hpp): the pingpong module's WorkloadDeck::read_table.
#include "config/config.hpp"
#include "workloads/pingpong/pingpong_config.hpp"

namespace desync {

class TableReader;
void read_pingpong_table(TableReader& r, Config& cfg);

}  // namespace desync
