#pragma once
// Which top-level tables a deck may hold: every table some workload reads, and of those only the
// chosen workload's. Each refusal names where the table came from (deck line or --set) and what
// is allowed. Reads toml++ (host-only in the CUDA build, like every deck reader).
#include <toml++/toml.h>

#include <string>
#include <vector>

#include "config/workload_deck.hpp"

namespace desync {

// Throws DeckError for a top-level table no workload of the catalog reads (a key above every table
// header: the tables that hold such a key are named).
void reject_unknown_tables(const toml::table& root, const std::string& deck, const std::vector<std::string>& overrides,
                           const std::vector<const WorkloadDeck*>& catalog);

// Throws DeckError for a table the chosen workload does not read.
void reject_foreign_tables(const toml::table& root, const WorkloadDeck& w, const std::string& deck,
                           const std::vector<std::string>& overrides);

}  // namespace desync
