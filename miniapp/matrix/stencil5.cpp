#include "matrix/stencil5.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>

namespace desync {

Stencil5::Stencil5(const Stencil5Params& p) : p_(p), rows_(0) {
  if (p.nx < 1 || p.ny < 1) throw std::invalid_argument("Stencil5: nx and ny must be >= 1");
  if (p.nx > std::numeric_limits<GlobalIndex>::max() / p.ny)
    throw std::invalid_argument("Stencil5: nx * ny too large for 64-bit row indices");
  for (double w : p.weights)
    if (!std::isfinite(w)) throw std::invalid_argument("Stencil5: weights must be finite");
  rows_ = p.nx * p.ny;
}

int Stencil5::row(GlobalIndex r, GlobalIndex* cols, Scalar* vals) const {
  const GlobalIndex nx = p_.nx;
  const GlobalIndex iy = r / nx, ix = r - iy * nx;
  const auto& w = p_.weights;  // centre, x-1, x+1, y-1, y+1
  int n = 0;
  // Emitted in ascending column order; zero weights are kept (see the header).
  if (iy > 0) {
    cols[n] = r - nx;
    vals[n++] = w[3];
  }
  if (ix > 0) {
    cols[n] = r - 1;
    vals[n++] = w[1];
  }
  cols[n] = r;
  vals[n++] = w[0];
  if (ix + 1 < nx) {
    cols[n] = r + 1;
    vals[n++] = w[2];
  }
  if (iy + 1 < p_.ny) {
    cols[n] = r + nx;
    vals[n++] = w[4];
  }
  return n;
}

}  // namespace desync
