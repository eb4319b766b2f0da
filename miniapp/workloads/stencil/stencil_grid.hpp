#pragma once
// The 2D block decomposition of the stencil workload (docs/method.md, section 14): the process
// grid px x py (rank r at coordinates (r % px, r / px)), each rank's block of the n x n interior
// (remainders spread over the first rows/columns of ranks), its padded layout with ghost width g,
// and the ratio rule: which points of each tile a sweep updates.
#include <cstdint>
#include <utility>
#include <vector>

#include "config/config.hpp"
#include "workloads/stencil/stencil_config.hpp"

namespace desync {

// A half-open interval [begin, end) of one axis.
struct Segment {
  std::int64_t begin = 0, end = 0;
};

// Start and length of block c of n points split into p blocks (the first n % p get one more).
inline std::pair<std::int64_t, std::int64_t> block_of(std::int64_t n, std::int64_t p, std::int64_t c) {
  const std::int64_t q = n / p, rem = n % p;
  return {c * q + (c < rem ? c : rem), q + (c < rem ? 1 : 0)};
}

// px x py for nranks ranks: the deck's values, 0 meaning automatic (the most square
// factorization, px >= py). Throws DeckError naming [stencil] px/py, or ca_steps when the CA
// halo (s deep) is deeper than the smallest block edge of a dimension that has neighbours.
std::pair<int, int> stencil_process_grid(const StencilConfig& c, int nranks);
void validate_stencil_grid(const StencilConfig& c, int nranks);

struct StencilGrid {
  std::int64_t n = 0;
  int px = 1, py = 1, cx = 0, cy = 0;
  int g = 1;                       // ghost width: 1 (spmv, base) or s (ca)
  std::int64_t lx = 0, ly = 0;     // local block
  std::int64_t x0 = 0, y0 = 0;     // its global origin
  std::int64_t wx() const { return lx + 2 * g; }  // padded extents; x is the fastest index
  std::int64_t wy() const { return ly + 2 * g; }
  std::int64_t padded() const { return wx() * wy(); }
  // Rank at offset (dx, dy) on the process grid, -1 outside it (no periodic wrap).
  int neighbour(int dx, int dy) const;
  // Padded index of local point (i, j), both counted from the padded origin.
  std::int64_t at(std::int64_t i, std::int64_t j) const { return j * wx() + i; }
};

StencilGrid make_stencil_grid(const StencilConfig& c, int rank, int nranks);

// The updated intervals of one global axis of n points split into p blocks, each block cut into
// tiles of `tile` points (0: one tile per block) of which the first max(1, floor(ratio * tile))
// points are updated (the tile's own length bounds it). With ratio = 1: the tiles themselves.
std::vector<Segment> updated_segments(std::int64_t n, std::int64_t p, std::int64_t tile, double ratio);

// One row run of a sweep: padded row j, padded columns [i0, i1).
struct RowRun {
  std::int32_t j, i0, i1;
};

// The row runs of a sweep over the rank's block extended by `ext` cells into the ghost zone,
// clipped to the global interior and to the updated segments; tile-major order (tile rows, tile
// columns, then rows inside the tile) so that consecutive runs stay in one tile (loop blocking).
std::vector<RowRun> sweep_runs(const StencilGrid& grid, const std::vector<Segment>& xs,
                               const std::vector<Segment>& ys, std::int64_t ext);

}  // namespace desync
