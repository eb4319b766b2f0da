#pragma once
// The [matvec2d] table of a deck as the matvec2d workload reads it (matvec2d_deck.cpp; docs/decks.md).
#include <cstdint>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "core/enum_table.hpp"

namespace desync {

// The mesh mat-vec demo (workloads/matvec2d/matvec2d.hpp, papers.md E.2 Algorithms 1 and 2).
struct Matvec2dConfig {
  std::int64_t n = 4096;          // global dimension of A and x
  bool pipelined = false;         // Alg. 2: Ireduce/Ibcast over [comm] communicators parts
};

}  // namespace desync
