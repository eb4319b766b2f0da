#pragma once
// The code-balance model of the sparse kernels (docs/method.md, section 27): bytes one call moves
// between memory and the cores, and so bytes per flop, for CRS and SELL-C-sigma. The one term
// that depends on the matrix's structure is the right-hand side x: loaded once (8 B per row and
// vector) when the window of x that consecutive rows touch stays in a core's cache, once per
// nonzero in the worst case. The matrix's bandwidth says which: rows i touch columns within
// i +- bandwidth, so a window of 2 x bandwidth x 8 x nb bytes that fits in the L2 means x once.
#include <cstdint>

#include "device.hpp"
#include "kokkos_compat/staging_space.hpp"
#include "record/memory_domain.hpp"

namespace desync::bench {

// Whether a store to the default memory space first reads its cache line (write-allocate): a
// CPU's caches do, so a triad moves 32 B per element and a written vector counts twice; an NVIDIA
// GPU's L2 takes a store that fills a whole 32-byte sector without reading it, so a triad moves
// 24 B per element there. The roofline (the triad's bandwidth) and the kernels' models use the
// same rule, so their ratios compare like with like on both (docs/gpu_kit.md).
inline constexpr bool store_allocates = compat::default_memory_host_accessible;
inline constexpr double triad_bytes_per_element = store_allocates ? 32.0 : 24.0;

// The cache the window rule (x_once) holds x in: one core's L2 on a CPU (each core runs its
// rows); the device's L2 on a GPU, which all its multiprocessors share (50 MB on an H100, 60 MB on
// an H200, against the host CPU's 2 MB: the first GPU run, with the host's, modelled TOPI's x
// as loaded per nonzero and put SELL at 2.3x the triad).
inline double window_cache_bytes() {
  if constexpr (store_allocates) return core_l2_bytes();
  return backend::device_l2_bytes(backend::current_device());
}

struct SparseShape {
  double rows = 0, nnz = 0, stored = 0;  // stored: SELL entries with padding (= nnz for CRS)
  double bandwidth = 0;                  // max |i - j| of a nonzero
  int chunk = 0;                         // SELL chunk height; 0: CRS
  int scalar = 8;                        // bytes of a value (16: complex)
};

// x loaded once per row (true) or once per nonzero (false): what the window rule says.
inline bool x_once(const SparseShape& s, int nb, double l2_bytes) {
  return 2.0 * s.bandwidth * s.scalar * nb <= l2_bytes;
}

// One product y = A x on nb vectors: the matrix (value + 32-bit column per stored entry, row
// pointers: 8 B per row for CRS, 8 B per chunk plus a 4-byte row index per row for SELL), x,
// and y written (2 x per element with write-allocate, store_allocates).
inline double spmv_bytes_model(const SparseShape& s, int nb, bool once) {
  const double matrix = (s.scalar + 4.0) * s.stored + (s.chunk > 0 ? 8.0 * s.rows / s.chunk + 4.0 * s.rows : 8.0 * s.rows);
  const double x = s.scalar * nb * (once ? s.rows : s.nnz);
  return matrix + x + (store_allocates ? 2.0 : 1.0) * s.scalar * nb * s.rows;
}

// The fused ChebFD step (matrices.md §7.4) on nb vectors: the product as above reading u, then
// w and x read and written in place (2 x each, no write-allocate since both are read first);
// u's own row is the x term. With x once this is chebfd::bytes_per_step plus the row pointers.
inline double fused_bytes_model(const SparseShape& s, int nb, bool once) {
  const double matrix = (s.scalar + 4.0) * s.stored + (s.chunk > 0 ? 8.0 * s.rows / s.chunk + 4.0 * s.rows : 8.0 * s.rows);
  const double u = s.scalar * nb * (once ? s.rows : s.nnz);
  return matrix + u + 4.0 * s.scalar * nb * s.rows;
}

}  // namespace desync::bench
