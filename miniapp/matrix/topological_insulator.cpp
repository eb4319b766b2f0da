#include "matrix/topological_insulator.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "core/mix64.hpp"

namespace desync {

namespace {

using Mat2 = std::array<std::array<Scalar, 2>, 2>;
using Mat4 = std::array<std::array<Scalar, 4>, 4>;

// Gamma matrices as Kronecker products of Pauli matrices (the right factor acts on the fast
// orbital bit): Gamma1 = 1 (x) sz = diag(1,-1,1,-1), Gamma2 = sx (x) sx, Gamma3 = sy (x) sx,
// Gamma4 = sz (x) sx. They are Hermitian and pairwise anticommute. M_d = Gamma1 - i Gamma_{d+2}
// then has exactly the zero patterns of matrices.md §5.3 (M_x, M_y: diagonal and anti-diagonal;
// M_z: the diagonal 2x2 blocks) and entries in {0, +-1, +-i}.
Mat4 kron(const Mat2& a, const Mat2& b) {
  Mat4 c{};
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      for (int k = 0; k < 2; ++k)
        for (int l = 0; l < 2; ++l) c[2 * i + k][2 * j + l] = a[i][j] * b[k][l];
  return c;
}

Mat4 hopping_matrix(int d) {
  const Scalar i1(0.0, 1.0);
  const Mat2 s0{{{1.0, 0.0}, {0.0, 1.0}}};
  const Mat2 sx{{{0.0, 1.0}, {1.0, 0.0}}};
  const Mat2 sy{{{0.0, -i1}, {i1, 0.0}}};
  const Mat2 sz{{{1.0, 0.0}, {0.0, -1.0}}};
  const Mat4 g1 = kron(s0, sz);
  const Mat4 gd = kron(d == 0 ? sx : d == 1 ? sy : sz, sx);
  Mat4 m{};
  for (int a = 0; a < 4; ++a)
    for (int b = 0; b < 4; ++b) m[a][b] = g1[a][b] - i1 * gd[a][b];
  return m;
}

bool valid(LatticeBoundary b) { return b == LatticeBoundary::open || b == LatticeBoundary::periodic; }

// a * b, or throws if it leaves [1, INT64_MAX]; both factors are >= 1.
std::int64_t checked_mul(std::int64_t a, std::int64_t b) {
  if (a > std::numeric_limits<std::int64_t>::max() / b)
    throw std::invalid_argument("TopologicalInsulator: lattice too large for 64-bit row indices");
  return a * b;
}

TopiExtent lattice_of(const TopiParams& p) {
  for (int d = 0; d < 3; ++d)
    if (p.block[d] < 1 || p.nodes[d] < 1)
      throw std::invalid_argument("TopologicalInsulator: block and nodes must be >= 1 in every direction");
  return {checked_mul(p.block[0], p.nodes[0]), checked_mul(p.block[1], p.nodes[1]),
          checked_mul(p.block[2], p.nodes[2])};
}

}  // namespace

TopologicalInsulator::TopologicalInsulator(const TopiParams& p) : TopologicalInsulator(p, lattice_of(p)) {}

TopologicalInsulator::TopologicalInsulator(const TopiParams& p, const TopiExtent& lattice)
    : p_(p), lattice_(lattice) {
  if (p.ordering != TopiOrdering::scamac && p.ordering != TopiOrdering::node_block)
    throw std::invalid_argument("TopologicalInsulator: unknown ordering");
  if (!std::isfinite(p.t) || !std::isfinite(p.mass) || !std::isfinite(p.disorder) || p.disorder < 0.0)
    throw std::invalid_argument("TopologicalInsulator: t and mass must be finite, disorder finite and >= 0");
  for (int d = 0; d < 3; ++d) {
    if (!valid(p.boundary[d])) throw std::invalid_argument("TopologicalInsulator: unknown boundary");
    if (lattice[d] < 1 || p.block[d] < 1)
      throw std::invalid_argument("TopologicalInsulator: lattice and block extents must be >= 1");
    if (p.ordering == TopiOrdering::node_block && lattice[d] % p.block[d] != 0)
      throw std::invalid_argument(
          "TopologicalInsulator: node-block ordering needs blocks that tile the lattice (direction " +
          std::to_string(d) + ")");
    block_[d] = std::min(p.block[d], lattice[d]);
    blocks_[d] = (lattice[d] + block_[d] - 1) / block_[d];
    last_width_[d] = lattice[d] - (blocks_[d] - 1) * block_[d];
    periodic_[d] = p.boundary[d] == LatticeBoundary::periodic;
    hops_[d] = lattice[d] > 1 && p.t != 0.0;
  }
  sites_ = checked_mul(checked_mul(lattice[0], lattice[1]), lattice[2]);
  rows_ = checked_mul(sites_, 4);
  block_sites_ = block_[0] * block_[1] * block_[2];
  diagonal_ = p.mass != 0.0 || p.disorder != 0.0;
  for (int a = 0; a < 4; ++a) mass_diag_[a] = (a % 2 == 0) ? p.mass : -p.mass;

  const double h = -0.5 * p.t;
  for (int d = 0; d < 3; ++d) {
    const Mat4 m = hopping_matrix(d);
    for (int a = 0; a < 4; ++a) {
      int nf = 0, nb = 0;
      for (int b = 0; b < 4; ++b) {
        if (m[b][a] != Scalar(0.0)) fwd_[d][a][nf++] = {b, h * m[b][a]};
        if (m[a][b] != Scalar(0.0)) bwd_[d][a][nb++] = {b, h * std::conj(m[a][b])};
      }
      if (nf != 2 || nb != 2) throw std::logic_error("TopologicalInsulator: hopping matrix pattern");
    }
  }
}

TopologicalInsulator::Pos TopologicalInsulator::decode(GlobalIndex s) const {
  Pos q;
  if (p_.ordering == TopiOrdering::node_block) {
    const GlobalIndex node = s / block_sites_;
    GlobalIndex local = s - node * block_sites_;
    const std::int64_t plane = block_[1] * block_[2];
    q.j[0] = local / plane;
    local -= q.j[0] * plane;
    q.j[1] = local / block_[2];
    q.j[2] = local - q.j[1] * block_[2];
    const GlobalIndex nxy = node / blocks_[2];
    q.k[2] = node - nxy * blocks_[2];
    q.k[0] = nxy / blocks_[1];
    q.k[1] = nxy - q.k[0] * blocks_[1];
  } else {
    // z-slabs of full thickness hold Lx*Ly*bz sites, y-rows in slab kz Lx*by*wz, blocks in a row
    // bx*wy*wz; only the last slab / row / block is thinner.
    const GlobalIndex slab = lattice_[0] * lattice_[1] * block_[2];
    q.k[2] = s / slab;
    s -= q.k[2] * slab;
    const std::int64_t wz = width(2, q.k[2]);
    const GlobalIndex yrow = lattice_[0] * block_[1] * wz;
    q.k[1] = s / yrow;
    s -= q.k[1] * yrow;
    const std::int64_t wy = width(1, q.k[1]);
    const GlobalIndex cell = block_[0] * wy * wz;
    q.k[0] = s / cell;
    s -= q.k[0] * cell;
    const std::int64_t wx = width(0, q.k[0]);
    const GlobalIndex yz = s / wx;
    q.j[0] = s - yz * wx;
    q.j[2] = yz / wy;
    q.j[1] = yz - q.j[2] * wy;
  }
  return q;
}

GlobalIndex TopologicalInsulator::encode(const Pos& q) const {
  if (p_.ordering == TopiOrdering::node_block) {
    const GlobalIndex node = (q.k[0] * blocks_[1] + q.k[1]) * blocks_[2] + q.k[2];
    return node * block_sites_ + (q.j[0] * block_[1] + q.j[1]) * block_[2] + q.j[2];
  }
  const std::int64_t wx = width(0, q.k[0]), wy = width(1, q.k[1]), wz = width(2, q.k[2]);
  return lattice_[0] * lattice_[1] * block_[2] * q.k[2] + lattice_[0] * block_[1] * wz * q.k[1] +
         block_[0] * wy * wz * q.k[0] + q.j[0] + wx * (q.j[1] + wy * q.j[2]);
}

// Moves q one site in direction +d (-d); false if there is no such neighbour (open boundary).
// Only the block number and offset in direction d change: no division needed.
bool TopologicalInsulator::step_forward(int d, Pos& q) const {
  if (q.k[d] * block_[d] + q.j[d] + 1 == lattice_[d]) {
    if (!periodic_[d]) return false;
    q.k[d] = 0;
    q.j[d] = 0;
  } else if (q.j[d] + 1 < block_[d]) {
    ++q.j[d];
  } else {
    ++q.k[d];
    q.j[d] = 0;
  }
  return true;
}

bool TopologicalInsulator::step_backward(int d, Pos& q) const {
  if (q.j[d] > 0) {
    --q.j[d];
  } else if (q.k[d] > 0) {
    --q.k[d];
    q.j[d] = block_[d] - 1;
  } else {
    if (!periodic_[d]) return false;
    q.k[d] = blocks_[d] - 1;
    q.j[d] = last_width_[d] - 1;
  }
  return true;
}

GlobalIndex TopologicalInsulator::site_of(const TopiExtent& c) const {
  Pos q;
  for (int d = 0; d < 3; ++d) {
    q.k[d] = c[d] / block_[d];
    q.j[d] = c[d] - q.k[d] * block_[d];
  }
  return encode(q);
}

TopiExtent TopologicalInsulator::coords_of(GlobalIndex site) const {
  const Pos q = decode(site);
  return {q.k[0] * block_[0] + q.j[0], q.k[1] * block_[1] + q.j[1], q.k[2] * block_[2] + q.j[2]};
}

double TopologicalInsulator::potential(const TopiExtent& c) const {
  if (p_.disorder == 0.0) return 0.0;
  const std::uint64_t index = static_cast<std::uint64_t>(c[0] + lattice_[0] * (c[1] + lattice_[1] * c[2]));
  const std::uint64_t h = mix64(mix64(p_.seed ^ 0x5851f42d4c957f2dull) ^ index);
  // (k + 1/2) / 2^53 with k < 2^53: strictly inside (0, 1) and never exactly 1/2.
  const double u = (static_cast<double>(h >> 11) + 0.5) * 0x1p-53;
  return p_.disorder * (u - 0.5);
}

int TopologicalInsulator::row(GlobalIndex r, GlobalIndex* cols, Scalar* vals) const {
  const GlobalIndex site = r >> 2;
  const int a = static_cast<int>(r & 3);
  const Pos here = decode(site);
  int n = 0;
  if (diagonal_) {
    double v = mass_diag_[a];
    if (p_.disorder != 0.0)
      v += potential({here.k[0] * block_[0] + here.j[0], here.k[1] * block_[1] + here.j[1],
                      here.k[2] * block_[2] + here.j[2]});
    cols[n] = r;
    vals[n++] = v;
  }
  for (int d = 0; d < 3; ++d) {
    if (!hops_[d]) continue;
    Pos q = here;
    if (step_forward(d, q)) {
      const GlobalIndex base = 4 * encode(q);
      for (const Link& l : fwd_[d][a]) {
        cols[n] = base + l.orbital;
        vals[n++] = l.value;
      }
    }
    q = here;
    if (step_backward(d, q)) {
      const GlobalIndex base = 4 * encode(q);
      for (const Link& l : bwd_[d][a]) {
        cols[n] = base + l.orbital;
        vals[n++] = l.value;
      }
    }
  }
  // Sorts and, for L_d = 2 periodic, merges the coinciding forward and backward neighbours
  // (their off-diagonal orbital entries cancel exactly, matrices.md §5.3).
  return normalize_row(cols, vals, n);
}

GlobalIndex topi_nnz(const TopiExtent& lattice, const std::array<LatticeBoundary, 3>& boundary, double t,
                     bool diagonal) {
  const GlobalIndex sites = lattice[0] * lattice[1] * lattice[2];
  GlobalIndex nnz = diagonal ? 4 * sites : 0;
  if (t == 0.0) return nnz;
  for (int d = 0; d < 3; ++d) {
    const GlobalIndex area = sites / lattice[d];
    if (lattice[d] == 1) continue;
    if (boundary[d] == LatticeBoundary::open)
      nnz += 16 * (lattice[d] - 1) * area;
    else if (lattice[d] == 2)
      nnz += 8 * area;
    else
      nnz += 16 * lattice[d] * area;
  }
  return nnz;
}

GlobalIndex topi_nnz(const TopiParams& p) {
  return topi_nnz(lattice_of(p), p.boundary, p.t, p.mass != 0.0 || p.disorder != 0.0);
}

}  // namespace desync
