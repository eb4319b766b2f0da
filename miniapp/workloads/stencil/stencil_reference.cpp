#include "workloads/stencil/stencil_reference.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/mpi_util.hpp"
#include "kokkos_compat/staging_space.hpp"
#include "workloads/stencil/stencil_sweep.hpp"

namespace desync {
namespace {

// mask[a] for window cells a = 0 .. len+1 (ring included): does the ratio rule update global
// coordinate origin - 1 + a?
std::vector<char> update_mask(const std::vector<Segment>& segs, std::int64_t origin, std::int64_t len) {
  std::vector<char> m(static_cast<std::size_t>(len + 2), 0);
  for (const auto& s : segs)
    for (std::int64_t g = std::max(s.begin, origin); g < std::min(s.end, origin + len); ++g)
      m[static_cast<std::size_t>(g - origin + 1)] = 1;
  return m;
}

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// Bitwise on a host build: the kernels and the serial reference do the same additions and
// multiplications in the same order. A GPU build's nvcc contracts a*b + c into fused multiply-adds
// (its default, -fmad=true) where the host reference rounds twice, so there the grid agrees to
// the last bits only: a relative 1e-12 per value (the first H200 run: differences of 1 ulp after
// a few steps; the Jacobi sweep with weights summing to at most 1 does not amplify them).
constexpr double device_tolerance = compat::default_memory_host_accessible ? 0.0 : 1e-12;

bool agrees(double got, double want) {
  if (same_bits(got, want)) return true;
  return device_tolerance > 0.0 && std::fabs(got - want) <= device_tolerance * std::max(1.0, std::fabs(want));
}

void compare(StencilCheck& out, double got, double want, std::int64_t gx, std::int64_t gy) {
  ++out.checked;
  if (agrees(got, want)) return;
  if (out.wrong++ == 0) out.first_error = fmt::format("point ({}, {}) is {:.17g}, the serial reference {:.17g}", gx, gy, got, want);
}

}  // namespace

std::vector<double> stencil_reference(const StencilConfig& c, int px, int py, std::int64_t gx0, std::int64_t gy0,
                                      std::int64_t w, std::int64_t h, std::int64_t steps) {
  const StencilWeights wt{c.weights[0], c.weights[1], c.weights[2], c.weights[3], c.weights[4]};
  const std::int64_t W = w + 2, H = h + 2;
  std::vector<double> x(static_cast<std::size_t>(W * H));
  for (std::int64_t b = 0; b < H; ++b)
    for (std::int64_t a = 0; a < W; ++a) {
      const std::int64_t gx = gx0 - 1 + a, gy = gy0 - 1 + b;
      x[static_cast<std::size_t>(b * W + a)] =
          (gx >= 0 && gx < c.n && gy >= 0 && gy < c.n) ? stencil_initial(gx, gy) : c.boundary;
    }
  const auto mx = update_mask(updated_segments(c.n, px, c.tile_x, c.ratio), gx0, w);
  const auto my = update_mask(updated_segments(c.n, py, c.tile_y, c.ratio), gy0, h);
  std::vector<double> y = x;
  for (std::int64_t s = 0; s < steps; ++s) {
    for (std::int64_t b = 1; b <= h; ++b)
      for (std::int64_t a = 1; a <= w; ++a) {
        const std::size_t p = static_cast<std::size_t>(b * W + a);
        y[p] = (mx[static_cast<std::size_t>(a)] && my[static_cast<std::size_t>(b)])
                   ? stencil_update(wt, x[p], x[p - 1], x[p + 1], x[p - static_cast<std::size_t>(W)], x[p + static_cast<std::size_t>(W)])
                   : x[p];
      }
    std::swap(x, y);
  }
  std::vector<double> out(static_cast<std::size_t>(w * h));
  for (std::int64_t b = 0; b < h; ++b)
    for (std::int64_t a = 0; a < w; ++a) out[static_cast<std::size_t>(b * w + a)] = x[static_cast<std::size_t>((b + 1) * W + a + 1)];
  return out;
}

bool stencil_full_check(const StencilConfig& c, std::int64_t steps) {
  return c.n <= c.verify_full_max && static_cast<double>(c.n) * static_cast<double>(c.n) * static_cast<double>(steps) <= 4294967296.0;
}

StencilCheck check_stencil(const StencilConfig& c, const StencilGrid& grid, const std::vector<double>& block,
                           std::int64_t steps, bool finite_only, MPI_Comm comm) {
  StencilCheck out;
  if (finite_only) {
    for (double v : block) {
      ++out.checked;
      if (!std::isfinite(v) && out.wrong++ == 0) out.first_error = "a non-finite value in the grid";
    }
    return out;
  }
  if (stencil_full_check(c, steps)) {
    const int rank = comm_rank(comm), size = comm_size(comm);
    std::vector<int> counts(static_cast<std::size_t>(size)), displs(static_cast<std::size_t>(size));
    const int mine = static_cast<int>(block.size());
    MPI_Gather(&mine, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, comm);
    for (int r = 1; r < size; ++r) displs[static_cast<std::size_t>(r)] = displs[static_cast<std::size_t>(r - 1)] + counts[static_cast<std::size_t>(r - 1)];
    std::vector<double> all(rank == 0 ? static_cast<std::size_t>(c.n * c.n) : 0);
    MPI_Gatherv(block.data(), mine, MPI_DOUBLE, all.data(), counts.data(), displs.data(), MPI_DOUBLE, 0, comm);
    if (rank != 0) return out;
    const std::vector<double> ref = stencil_reference(c, grid.px, grid.py, 0, 0, c.n, c.n, steps);
    for (int r = 0; r < size; ++r) {
      const auto [x0, lx] = block_of(c.n, grid.px, r % grid.px);
      const auto [y0, ly] = block_of(c.n, grid.py, r / grid.px);
      const double* got = all.data() + displs[static_cast<std::size_t>(r)];
      for (std::int64_t j = 0; j < ly; ++j)
        for (std::int64_t i = 0; i < lx; ++i)
          compare(out, got[j * lx + i], ref[static_cast<std::size_t>((y0 + j) * c.n + x0 + i)], x0 + i, y0 + j);
    }
    return out;
  }
  // Corner windows of the own block; the reference window reaches `steps` further out.
  const std::int64_t cw = std::min<std::int64_t>(8, grid.lx), ch = std::min<std::int64_t>(8, grid.ly);
  for (const std::int64_t wi : {std::int64_t{0}, grid.lx - cw})
    for (const std::int64_t wj : {std::int64_t{0}, grid.ly - ch}) {
      const std::int64_t gx = grid.x0 + wi, gy = grid.y0 + wj;
      const std::int64_t rx0 = std::max<std::int64_t>(0, gx - steps), ry0 = std::max<std::int64_t>(0, gy - steps);
      const std::int64_t rx1 = std::min(c.n, gx + cw + steps), ry1 = std::min(c.n, gy + ch + steps);
      const auto ref = stencil_reference(c, grid.px, grid.py, rx0, ry0, rx1 - rx0, ry1 - ry0, steps);
      for (std::int64_t j = 0; j < ch; ++j)
        for (std::int64_t i = 0; i < cw; ++i)
          compare(out, block[static_cast<std::size_t>((wj + j) * grid.lx + wi + i)],
                  ref[static_cast<std::size_t>((gy + j - ry0) * (rx1 - rx0) + gx + i - rx0)], gx + i, gy + j);
    }
  return out;
}

}  // namespace desync
