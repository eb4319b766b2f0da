#pragma once
// The [toy] table of a deck as the toy workload reads it (toy_deck.cpp; docs/decks.md).
#include <cstdint>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "core/enum_table.hpp"

namespace desync {

// The communication-imbalance toys (workloads/toy/toy.hpp, papers.md D.3).
struct ToyConfig {
  bool overlap = false;            // false: noOverlapToy; true: overlapToy (compute part 1 while messages travel)
  std::int64_t degree = 0;         // targets per rank (r+1 .. r+degree mod P); 0: all other ranks
  std::int64_t messages = 1;       // messages per target
  std::int64_t min_bytes = 1;      // each (sender, target, k) message: uniform in [min_bytes, max_bytes],
  std::int64_t max_bytes = 1 << 20;  // drawn once from [run] seed
  double compute = 0.01;           // seconds of compute per iteration, every host thread busy
  double part1 = 0.5;              // overlap: fraction of compute before the wait
  SourcePos degree_pos;
};

}  // namespace desync
