#pragma once
// The serial reference of the stencil workload, computed from the definition (papers.md C.2) by a
// plain host loop, and the checks built on it (docs/method.md, section 14).
#include <mpi.h>

#include <cstdint>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "workloads/stencil/stencil_config.hpp"
#include "workloads/stencil/stencil_grid.hpp"

namespace desync {

// Jacobi steps on the global window [gx0, gx0 + w) x [gy0, gy0 + h) of the n x n interior,
// surrounded by a one-cell ring held fixed at its start value (the boundary value outside the
// interior). Only points the ratio rule updates (tiles of the px x py decomposition) change.
// Exact wherever the window edge is the global boundary or at least `steps` cells away.
// Returns the w x h values, x fastest.
std::vector<double> stencil_reference(const StencilConfig& c, int px, int py, std::int64_t gx0, std::int64_t gy0,
                                      std::int64_t w, std::int64_t h, std::int64_t steps);

struct StencilCheck {
  std::int64_t checked = 0, wrong = 0;
  std::string first_error;  // empty if none
};

// Collective. `block` is the rank's own lx x ly values (x fastest) after `steps` steps.
// Small grids: gathered to rank 0 (MPI_Gatherv) and compared bitwise with the full reference.
// Large grids: every rank compares the 4 corner windows (up to 8 x 8) of its block bitwise with
// reference windows extended by `steps` cells. `finite_only`: only check that values are finite.
StencilCheck check_stencil(const StencilConfig& c, const StencilGrid& grid, const std::vector<double>& block,
                           std::int64_t steps, bool finite_only, MPI_Comm comm);

// Full (gathered) check when n <= verify_full_max and n^2 * steps <= 2^32 point updates.
bool stencil_full_check(const StencilConfig& c, std::int64_t steps);

}  // namespace desync
