#pragma once
// The [pingpong] table of a deck as the pingpong workload reads it (pingpong_deck.cpp; docs/decks.md).
#include <cstdint>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "core/enum_table.hpp"

namespace desync {

enum class PingpongMode { pingpong, bandwidth };
inline constexpr EnumTable<PingpongMode, 2> pingpong_mode_names{
    {{PingpongMode::pingpong, "pingpong"}, {PingpongMode::bandwidth, "bandwidth"}}};

// Point-to-point micro-benchmarks (workloads/pingpong/pingpong.hpp): pair i is rank i and rank i + P/2.
struct PingpongConfig {
  PingpongMode mode = PingpongMode::pingpong;
  // Message sizes in bytes, each measured [run] iterations times after [run] warmup untimed ones.
  std::vector<std::int64_t> sizes{32768, 65536, 131072, 262144, 524288, 1048576, 2097152, 4194304};
  std::int64_t pairs = 0;   // 0: one pair for "pingpong", P/2 pairs for "bandwidth"
  std::int64_t window = 64; // "bandwidth": messages in flight per pair before the receiver's reply
  SourcePos pairs_pos;
};

}  // namespace desync
