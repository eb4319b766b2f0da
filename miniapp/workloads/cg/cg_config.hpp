#pragma once
// The [cg] table of a deck as the cg workload reads it (cg_deck.cpp; docs/decks.md).
#include <cstdint>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "core/enum_table.hpp"

namespace desync {

// The miniFE-like conjugate gradient (workloads/cg/cg.hpp).
struct CgConfig {
  bool overlap = false;  // SpMV: post, rows without halo values, wait, the others (else exchange, then all rows)
};

}  // namespace desync
