#pragma once
// The [chebfd] table of a deck as the chebfd workload reads it (chebfd_deck.cpp; docs/decks.md).
#include <cstdint>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "core/enum_table.hpp"

namespace desync {

enum class ChebfdScheme { nonsplit, splitwait, pipeline };
inline constexpr EnumTable<ChebfdScheme, 3> chebfd_scheme_names{{{ChebfdScheme::nonsplit, "nonsplit"},
                                                                {ChebfdScheme::splitwait, "splitwait"},
                                                                {ChebfdScheme::pipeline, "pipeline"}}};

enum class ChebfdBounds { gershgorin, lanczos };
inline constexpr EnumTable<ChebfdBounds, 2> chebfd_bounds_names{
    {{ChebfdBounds::gershgorin, "gershgorin"}, {ChebfdBounds::lanczos, "lanczos"}}};

// ChebFD polynomial filter (matrices.md §7, papers.md A.3.4); the degree steps are the timeline's
// iterations, [run] iterations is not used (docs/decks.md).
struct ChebfdConfig {
  std::int64_t ns = 8;   // search-space vectors
  std::int64_t nb = 4;   // vectors per block (ns multiple of nb)
  std::int64_t np = 50;  // polynomial degree (>= 2)
  ChebfdScheme scheme = ChebfdScheme::nonsplit;
  bool barrier_per_degree = false;
  bool compare_barrier = false;          // also run the filter with the other barrier setting: P_D
  std::int64_t barrier_samples = 1000;  // barriers timed by the micro-benchmark (the barrier runs)
  SourcePos barrier_samples_pos;
  double lambda_min = -0.5, lambda_max = 0.5;  // target window
  ChebfdBounds bounds = ChebfdBounds::gershgorin;
  std::int64_t lanczos_steps = 20;  // bounds = "lanczos": Lanczos iterations at setup
  std::int64_t verify_rows = 20000;  // global rows up to this: serial reference on rank 0
};

// ChebFD's timeline iterations (warm-up included): the degree steps 2..np, per block unless
// pipelined. Its module's WorkloadDeck::steps.
inline std::int64_t chebfd_steps(const ChebfdConfig& c) {
  return c.scheme == ChebfdScheme::pipeline ? c.np - 1 : (c.ns / c.nb) * (c.np - 1);
}

}  // namespace desync
