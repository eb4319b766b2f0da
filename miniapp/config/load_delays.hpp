#pragma once
// The delay slot's tables: [[inject]] (one-off delays, in seconds or in iteration times) and
// [noise] (drawn, or a file named here and read by commands/read_deck.cpp), with the same rules as
// every other table (config/load_deck.cpp assembles them into the Config).
#include <string>
#include <vector>

#include "config/config.hpp"
#include "config/table_reader.hpp"

namespace desync {

// Every [[inject]] entry; `out` gets the resolved array (the keys given, with their values).
std::vector<InjectConfig> read_inject(const toml::table& root, toml::table& out, const RunConfig& run,
                                      const std::string& deck);

// Read after the workload's steps are known: the iteration window is checked against them.
NoiseConfig read_noise(TableReader r, const RunConfig& run);

}  // namespace desync
