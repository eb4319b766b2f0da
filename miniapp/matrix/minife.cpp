#include "matrix/minife.hpp"

#include <algorithm>
#include <stdexcept>

namespace desync {

Minife::Minife(const MinifeParams& p) {
  rows_ = 1;
  for (int d = 0; d < 3; ++d) {
    if (p.elements[d] < 1 || p.grid[d] < 1 || p.grid[d] > p.elements[d] + 1)
      throw std::invalid_argument("Minife: elements >= 1 and 1 <= grid <= elements + 1 per axis");
    n_[d] = p.elements[d] + 1;
    grid_[d] = p.grid[d];
    rows_ *= n_[d];
  }
  box_start_.push_back(0);
  for (int bz = 0; bz < grid_[2]; ++bz)
    for (int by = 0; by < grid_[1]; ++by)
      for (int bx = 0; bx < grid_[0]; ++bx)
        box_start_.push_back(box_start_.back() + piece_size(0, bx) * piece_size(1, by) * piece_size(2, bz));
}

GlobalIndex Minife::piece_size(int d, int b) const { return n_[d] / grid_[d] + (b < n_[d] % grid_[d] ? 1 : 0); }

GlobalIndex Minife::piece_start(int d, int b) const {
  return static_cast<GlobalIndex>(b) * (n_[d] / grid_[d]) + std::min<GlobalIndex>(b, n_[d] % grid_[d]);
}

int Minife::piece(int d, GlobalIndex i) const {
  const GlobalIndex q = n_[d] / grid_[d], rem = n_[d] % grid_[d];
  if (i < rem * (q + 1)) return static_cast<int>(i / (q + 1));
  return static_cast<int>(rem + (i - rem * (q + 1)) / q);
}

GlobalIndex Minife::row_of(const std::array<GlobalIndex, 3>& n) const {
  int b[3];
  GlobalIndex l[3], s[3];
  for (int d = 0; d < 3; ++d) {
    b[d] = piece(d, n[d]);
    l[d] = n[d] - piece_start(d, b[d]);
    s[d] = piece_size(d, b[d]);
  }
  const auto box = static_cast<std::size_t>(b[0] + grid_[0] * (b[1] + grid_[1] * b[2]));
  return box_start_[box] + l[0] + s[0] * (l[1] + s[1] * l[2]);
}

std::array<GlobalIndex, 3> Minife::node(GlobalIndex r) const {
  const auto box = static_cast<GlobalIndex>(std::upper_bound(box_start_.begin(), box_start_.end(), r) - box_start_.begin() - 1);
  const int b[3] = {static_cast<int>(box % grid_[0]), static_cast<int>((box / grid_[0]) % grid_[1]),
                    static_cast<int>(box / (grid_[0] * grid_[1]))};
  GlobalIndex local = r - box_start_[static_cast<std::size_t>(box)];
  std::array<GlobalIndex, 3> n{};
  for (int d = 0; d < 3; ++d) {
    const GlobalIndex s = piece_size(d, b[d]);
    n[d] = piece_start(d, b[d]) + local % s;
    local /= s;
  }
  return n;
}

bool Minife::on_boundary(const std::array<GlobalIndex, 3>& n) const {
  for (int d = 0; d < 3; ++d)
    if (n[d] == 0 || n[d] == n_[d] - 1) return true;
  return false;
}

int Minife::row(GlobalIndex r, GlobalIndex* cols, Scalar* vals) const {
  // Assembled stiffness by how many coordinates differ (0: diagonal, 1: edge, 2: face diagonal,
  // 3: body diagonal), for an interior node with all 8 surrounding elements.
  static constexpr double stiffness[4] = {8.0 / 3.0, 0.0, -1.0 / 6.0, -1.0 / 12.0};
  const std::array<GlobalIndex, 3> c = node(r);
  const bool boundary = on_boundary(c);
  int n = 0;
  for (int dz = -1; dz <= 1; ++dz)
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) {
        const std::array<GlobalIndex, 3> m{c[0] + dx, c[1] + dy, c[2] + dz};
        bool inside = true;
        for (int d = 0; d < 3; ++d) inside = inside && m[d] >= 0 && m[d] < n_[d];
        if (!inside) continue;
        const int differ = (dx != 0) + (dy != 0) + (dz != 0);
        double v;
        if (boundary) v = differ == 0 ? 1.0 : 0.0;  // Dirichlet row: the identity
        else v = on_boundary(m) ? 0.0 : stiffness[differ];  // boundary column eliminated
        cols[n] = row_of(m);
        vals[n++] = Scalar(v, 0.0);
      }
  // Box numbering is not monotone in (dz, dy, dx): sort by column, keeping the zeros.
  for (int i = 1; i < n; ++i)
    for (int j = i; j > 0 && cols[j - 1] > cols[j]; --j) {
      std::swap(cols[j - 1], cols[j]);
      std::swap(vals[j - 1], vals[j]);
    }
  return n;
}

}  // namespace desync
