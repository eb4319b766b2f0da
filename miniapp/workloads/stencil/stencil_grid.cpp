#include "workloads/stencil/stencil_grid.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/errors.hpp"

namespace desync {

std::pair<int, int> stencil_process_grid(const StencilConfig& c, int nranks) {
  std::int64_t px = c.px, py = c.py;
  const auto where = [&] { return c.px > 0 ? c.px_pos.where : c.py_pos.where; };
  if (px == 0 && py == 0) {
    py = 1;
    for (std::int64_t d = 1; d * d <= nranks; ++d)
      if (nranks % d == 0) py = d;
    px = nranks / py;
  } else if (px == 0 || py == 0) {
    const std::int64_t given = px > 0 ? px : py;
    if (nranks % given != 0)
      throw DeckError(fmt::format("{}: error: [stencil] {} = {} does not divide the {} rank(s); set px and py "
                                  "with px * py = {} (or both 0 for automatic)",
                                  where(), c.px > 0 ? "px" : "py", given, nranks, nranks));
    (px > 0 ? py : px) = nranks / given;
  }
  if (px * py != nranks)
    throw DeckError(fmt::format("{}: error: [stencil] px = {}, py = {}: px * py = {} but the run has {} rank(s); "
                                "allowed: px * py = {} (or px = py = 0 for automatic)",
                                where(), px, py, px * py, nranks, nranks));
  if (px > c.n || py > c.n)
    throw DeckError(fmt::format("{}: error: [stencil] px = {}, py = {}: more ranks along an axis than grid "
                                "points (n = {}); allowed: px, py <= n (a larger n, or fewer ranks)",
                                where(), px, py, c.n));
  return {static_cast<int>(px), static_cast<int>(py)};
}

void validate_stencil_grid(const StencilConfig& c, int nranks) {
  const auto [px, py] = stencil_process_grid(c, nranks);
  if (c.variant != StencilVariant::ca) return;
  // An s-deep halo must come from the one neighbour: every block edge with a neighbour >= s.
  const std::int64_t min_x = c.n / px, min_y = c.n / py;
  for (const auto& [p, m, axis] : {std::tuple{px, min_x, "x"}, std::tuple{py, min_y, "y"}})
    if (p > 1 && c.ca_steps > m)
      throw DeckError(fmt::format("{}: error: [stencil] ca_steps = {}: deeper than the smallest local block "
                                  "edge along {} ({} points for n = {} on {} x {} ranks); allowed: 1..{}",
                                  c.ca_steps_pos.where, c.ca_steps, axis, m, c.n, px, py, std::min(min_x, min_y)));
}

int StencilGrid::neighbour(int dx, int dy) const {
  const int x = cx + dx, y = cy + dy;
  if (x < 0 || x >= px || y < 0 || y >= py) return -1;
  return y * px + x;
}

StencilGrid make_stencil_grid(const StencilConfig& c, int rank, int nranks) {
  validate_stencil_grid(c, nranks);
  StencilGrid s;
  std::tie(s.px, s.py) = stencil_process_grid(c, nranks);
  s.n = c.n;
  s.cx = rank % s.px;
  s.cy = rank / s.px;
  s.g = c.variant == StencilVariant::ca ? static_cast<int>(c.ca_steps) : 1;
  std::tie(s.x0, s.lx) = block_of(c.n, s.px, s.cx);
  std::tie(s.y0, s.ly) = block_of(c.n, s.py, s.cy);
  return s;
}

std::vector<Segment> updated_segments(std::int64_t n, std::int64_t p, std::int64_t tile, double ratio) {
  std::vector<Segment> out;
  for (std::int64_t b = 0; b < p; ++b) {
    const auto [start, len] = block_of(n, p, b);
    const std::int64_t t = tile > 0 ? tile : len;
    const std::int64_t u = std::max<std::int64_t>(1, static_cast<std::int64_t>(std::floor(ratio * static_cast<double>(t))));
    for (std::int64_t k = 0; k < len; k += t) out.push_back({start + k, start + std::min(k + u, std::min(k + t, len))});
  }
  return out;
}

std::vector<RowRun> sweep_runs(const StencilGrid& grid, const std::vector<Segment>& xs,
                               const std::vector<Segment>& ys, std::int64_t ext) {
  // Global bounds of the swept region, then clipped segments in padded coordinates.
  const auto clip = [&](const std::vector<Segment>& segs, std::int64_t origin, std::int64_t len) {
    const std::int64_t lo = std::max<std::int64_t>(0, origin - ext), hi = std::min(grid.n, origin + len + ext);
    std::vector<Segment> out;
    for (const auto& s : segs) {
      const std::int64_t b = std::max(s.begin, lo), e = std::min(s.end, hi);
      if (b < e) out.push_back({b - origin + grid.g, e - origin + grid.g});
    }
    return out;
  };
  const auto cx = clip(xs, grid.x0, grid.lx), cy = clip(ys, grid.y0, grid.ly);
  std::vector<RowRun> runs;
  for (const auto& y : cy)
    for (const auto& x : cx)
      for (std::int64_t j = y.begin; j < y.end; ++j)
        runs.push_back({static_cast<std::int32_t>(j), static_cast<std::int32_t>(x.begin), static_cast<std::int32_t>(x.end)});
  return runs;
}

}  // namespace desync
