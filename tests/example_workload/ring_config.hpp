#pragma once
// [ring]: the example workload's own table (ring_deck.cpp reads it).
#include <cstdint>

namespace desync {

struct RingConfig {
  std::int64_t size = 4096;  // elements of each rank's array
};

}  // namespace desync
