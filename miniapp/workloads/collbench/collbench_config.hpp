#pragma once
// The [collbench] table of a deck as the collbench workload reads it (collbench_deck.cpp; docs/decks.md).
#include <cstdint>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "core/enum_table.hpp"

namespace desync {

enum class CollOp { bcast, reduce };
inline constexpr EnumTable<CollOp, 2> coll_op_names{{{CollOp::bcast, "bcast"}, {CollOp::reduce, "reduce"}}};

enum class CollMode { blocking, nonblocking };
inline constexpr EnumTable<CollMode, 2> coll_mode_names{
    {{CollMode::blocking, "blocking"}, {CollMode::nonblocking, "nonblocking"}}};

// The collective micro-benchmark (workloads/collbench/collbench.hpp, papers.md E.3, Figs. 4-6).
struct CollbenchConfig {
  std::vector<CollOp> ops{CollOp::bcast, CollOp::reduce};
  CollMode mode = CollMode::blocking;  // nonblocking: [comm] communicators parts, one per duplicate
  // Message sizes in bytes (of floats, summed with MPI_SUM), each [run] warmup + iterations times.
  std::vector<std::int64_t> sizes{65536, 262144, 1048576, 2097152, 4194304, 8388608, 16777216};
};

}  // namespace desync
