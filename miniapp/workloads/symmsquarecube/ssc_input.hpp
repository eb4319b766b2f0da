#pragma once
// The input matrix D of SymmSquareCube, entry by entry from (i, j) alone, so every rank makes
// its own block and the serial check makes the same matrix:
//   random:       D_ij = (2u - 1) / sqrt(N), u uniform in [0, 1) from the unordered pair {i, j};
//   purification: D = I / 2 + M / 32 with M_ij = (2u - 1) exp(-|i - j| / 8) off the diagonal:
//                 symmetric, decaying away from the diagonal, and by Gershgorin its spectrum lies
//                 in (0, 1), as a density matrix's does during purification.
#include <Kokkos_Core.hpp>

#include <cstdint>

#include "config/config.hpp"
#include "workloads/symmsquarecube/symmsquarecube_config.hpp"
#include "kokkos_compat/math.hpp"
#include "workload/block_cut.hpp"

namespace desync {

KOKKOS_INLINE_FUNCTION double ssc_entry(std::int64_t i, std::int64_t j, std::int64_t n, std::uint64_t seed, bool purification) {
  const std::int64_t lo = i < j ? i : j, hi = i < j ? j : i;
  const double u = 2.0 * unit_hash(static_cast<std::uint64_t>(lo), static_cast<std::uint64_t>(hi), seed) - 1.0;
  if (!purification) return u / compat::sqrt(static_cast<double>(n));
  if (i == j) return 0.5;
  return u * compat::exp(-static_cast<double>(hi - lo) / 8.0) / 32.0;
}

}  // namespace desync
