#pragma once
// The [stencil] table of a deck as the stencil workload reads it (stencil_deck.cpp; docs/decks.md).
#include <cstdint>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "core/enum_table.hpp"

namespace desync {

enum class StencilVariant { spmv, base, ca };
inline constexpr EnumTable<StencilVariant, 3> stencil_variant_names{
    {{StencilVariant::spmv, "spmv"}, {StencilVariant::base, "base"}, {StencilVariant::ca, "ca"}}};

// 2D 5-point Jacobi (papers.md C); steps are [run] iterations (+ warmup).
struct StencilConfig {
  std::int64_t n = 512;            // global interior grid n x n
  std::int64_t px = 0, py = 0;     // process grid; 0: automatic near-square factorization of P
  StencilVariant variant = StencilVariant::base;
  std::int64_t ca_steps = 4;       // s: steps per halo exchange of the CA variant
  std::int64_t tile_x = 0, tile_y = 0;  // [mb, nb] loop blocking of the local sweep; 0: whole block
  double ratio = 1.0;              // updated part of each tile edge (papers.md C.2.4)
  std::vector<double> weights{0.0, 0.25, 0.25, 0.25, 0.25};  // centre, x-1, x+1, y-1, y+1
  double boundary = 1.0;           // Dirichlet value on the global boundary
  double latency = 0.0;            // s of busy work added to every halo exchange
  bool skip_redundant = false;     // CA: skip the redundant ghost-zone sweeps (paper's simulation)
  std::int64_t verify_full_max = 4096;  // n up to this: gathered full-grid check; above: windows
  SourcePos px_pos, py_pos, ca_steps_pos;
};

}  // namespace desync
