#pragma once
// The [spmv] table of a deck as the spmv workload reads it (spmv_deck.cpp; docs/decks.md).
#include <cstdint>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "core/enum_table.hpp"

namespace desync {

enum class SpmvScheme { nonsplit, splitwait };
inline constexpr EnumTable<SpmvScheme, 2> spmv_scheme_names{
    {{SpmvScheme::nonsplit, "nonsplit"}, {SpmvScheme::splitwait, "splitwait"}}};

enum class SpmvKernel { desync, kokkoskernels };
inline constexpr EnumTable<SpmvKernel, 2> spmv_kernel_names{
    {{SpmvKernel::desync, "desync"}, {SpmvKernel::kokkoskernels, "kokkoskernels"}}};

enum class SpmvValues { stochastic, generator };
inline constexpr EnumTable<SpmvValues, 2> spmv_values_names{
    {{SpmvValues::stochastic, "stochastic"}, {SpmvValues::generator, "generator"}}};

// Back-to-back SpMV (papers.md A.3.3); iterations, warm-up and the barrier are in [run].
struct SpmvConfig {
  SpmvScheme scheme = SpmvScheme::splitwait;
  SpmvKernel kernel = SpmvKernel::desync;
  SpmvValues values = SpmvValues::stochastic;
  bool compare_barrier = false;        // also run the other barrier variant and report P_D
  std::int64_t barrier_samples = 1000;  // barriers timed by the micro-benchmark
};

}  // namespace desync
