#pragma once
// The check of SymmSquareCube for any N (above [symmsquarecube] verify_n, where the serial product
// of ssc_reference.hpp would cost N^3): Freivalds' projection. A layer-0 rank multiplies its blocks
// D^2_{i,j} and D^3_{i,j} by a vector v (one value per column j of D, magnitudes in [0.5, 1), signs
// from a hash) and compares with the same products taken the other way round from the generated
// entries: y = D_{:,j} v, z = D y, so D^2_{i,j} v = z's rows of block i and D^3_{i,j} v = D_{i,:} z.
// N^2 entries generated (in kernels on the default execution space); 4 N doubles held on the
// device, 2 N on the host. A wrong entry delta of a block shows as at least delta / 2 in its
// row's projection (unless other wrong entries of the row cancel it, which a hashed v makes
// unlikely, not impossible). The bound is componentwise: 16 N eps times the same products of
// absolute values, above what rounding can reach however much the projection cancels; so an
// error is caught once it exceeds about 44 N eps times its row's absolute product (docs/method.md,
// SymmSquareCube's Verification, gives that at N = 4096).
#include <cstdint>
#include <vector>

#include "workloads/symmsquarecube/ssc_reference.hpp"

namespace desync {

// got2, got3 as for ssc_check. checked: the block entries the projections cover (2 nr nc); wrong:
// projected rows beyond the bound (or not finite); max_error: the largest row's |got - ref| over
// its absolute product (|D| |D_{:,j}| |v| or |D_{i,:}| |D| |D_{:,j}| |v|).
SscCheck ssc_projection_check(const SymmSquareCubeConfig& c, std::uint64_t seed, const BlockCut& cut, int i, int j,
                              const std::vector<double>& got2, const std::vector<double>& got3);

// The projection vector's entry for global column g (deterministic, independent of D's entries).
double ssc_projection_weight(std::int64_t g, std::uint64_t seed);

}  // namespace desync
