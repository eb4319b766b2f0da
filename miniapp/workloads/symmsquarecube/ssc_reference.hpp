#pragma once
// The serial check of SymmSquareCube (N up to [symmsquarecube] verify_n): a layer-0 rank
// recomputes its blocks D^2_{i,j} and D^3_{i,j} with plain loops from the generated entries (no
// BLAS, no MPI) and compares.
#include <cstdint>
#include <vector>

#include "config/config.hpp"
#include "workloads/symmsquarecube/symmsquarecube_config.hpp"
#include "workload/block_cut.hpp"

namespace desync {

struct SscCheck {
  std::int64_t checked = 0, wrong = 0, nonfinite = 0;
  double max_error = 0.0;  // max |got - ref| / max |ref| over both blocks
};

// got2, got3: this rank's D^2_{i,j}, D^3_{i,j}, column-major rows(i) x rows(j), on the host.
SscCheck ssc_check(const SymmSquareCubeConfig& c, std::uint64_t seed, const BlockCut& cut, int i, int j,
                   const std::vector<double>& got2, const std::vector<double>& got3);

}  // namespace desync
