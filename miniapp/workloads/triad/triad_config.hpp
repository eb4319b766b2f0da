#pragma once
// The [triad] table of a deck as the triad workload reads it (triad_deck.cpp; docs/decks.md).
#include <cstdint>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "core/enum_table.hpp"

namespace desync {

enum class TriadKernel { stream, schoenauer, divide };
inline constexpr EnumTable<TriadKernel, 3> triad_kernel_names{{{TriadKernel::stream, "stream"},
                                                               {TriadKernel::schoenauer, "schoenauer"},
                                                               {TriadKernel::divide, "divide"}}};

enum class Boundary { open, periodic };
inline constexpr EnumTable<Boundary, 2> boundary_names{
    {{Boundary::open, "open"}, {Boundary::periodic, "periodic"}}};

struct TriadConfig {
  TriadKernel kernel = TriadKernel::stream;
  // The partner pattern (papers.md A.3.2): rank r sends to r + d and receives from r - d.
  std::vector<std::int64_t> offsets{1, -1};
  Boundary boundary = Boundary::open;
  std::int64_t message_bytes = 16384;
  std::int64_t size_per_rank = 0;  // elements per array and rank; 0: use global_size
  std::int64_t global_size = 0;    // elements per array over all ranks; 0: use size_per_rank
  double scalar = 3.0;
  std::int64_t divides = 64;  // back-to-back divisions per element (kernel "divide")
  bool write_allocate = true; // count write-allocate traffic for A in the byte model
};

}  // namespace desync
