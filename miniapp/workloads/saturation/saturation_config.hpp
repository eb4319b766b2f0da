#pragma once
// The [saturation] table of a deck as the saturation workload reads it (saturation_deck.cpp; docs/decks.md).
#include <cstdint>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "core/enum_table.hpp"

namespace desync {

// The saturation sweep's kernels (workloads/saturation/stream_kernels.hpp); the order is /saturation/kernel's code.
enum class SaturationKernel { copy, scale, add, triad, triad_nt, schoenauer };
inline constexpr EnumTable<SaturationKernel, 6> saturation_kernel_names{{{SaturationKernel::copy, "copy"},
                                                                         {SaturationKernel::scale, "scale"},
                                                                         {SaturationKernel::add, "add"},
                                                                         {SaturationKernel::triad, "triad"},
                                                                         {SaturationKernel::triad_nt, "triad_nt"},
                                                                         {SaturationKernel::schoenauer, "schoenauer"}}};

enum class SaturationMode { threads, ranks };
inline constexpr EnumTable<SaturationMode, 2> saturation_mode_names{
    {{SaturationMode::threads, "threads"}, {SaturationMode::ranks, "ranks"}}};

// The saturation sweep (workloads/saturation/saturation.hpp, papers.md B.5): b(N) for N = 1 .. max_n.
struct SaturationConfig {
  std::vector<SaturationKernel> kernels{SaturationKernel::triad};
  SaturationMode mode = SaturationMode::threads;  // N threads of one rank, or N ranks of one node
  std::int64_t max_n = 0;         // 0: threads: the cores of the rank's memory domain (at most its threads); ranks: all ranks
  std::int64_t size = 0;          // elements per array over the N workers; 0: max(2^24, 4 x the node's last-level caches / 8 B)
  std::int64_t repetitions = 10;  // timed sweeps per (N, kernel); the shortest gives b(N)
  double tolerance = 0.1;         // N_s = smallest N with b(N) >= (1 - tolerance) max b
  SourcePos kernels_pos, max_n_pos;
};

}  // namespace desync
