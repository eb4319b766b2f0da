#pragma once
// Parameters of the matrix generators ([matrix] and its sub-tables; docs/decks.md). Plain
// structs: the deck loader fills and validates them, the generators in matrix/ read them.
#include <array>
#include <cstdint>
#include <string>

#include "core/enum_table.hpp"

namespace desync {

enum class GeneratorKind { spin, hhq, topi, stencil5, minife };
inline constexpr EnumTable<GeneratorKind, 5> generator_names{{{GeneratorKind::spin, "spin"},
                                                              {GeneratorKind::hhq, "hhq"},
                                                              {GeneratorKind::topi, "topi"},
                                                              {GeneratorKind::stencil5, "stencil5"},
                                                              {GeneratorKind::minife, "minife"}}};

// rows / nnz: contiguous row blocks; box: the generator's own geometric blocks (minife).
enum class PartitionKind { rows, nnz, box };
inline constexpr EnumTable<PartitionKind, 3> partition_names{
    {{PartitionKind::rows, "rows"}, {PartitionKind::nnz, "nnz"}, {PartitionKind::box, "box"}}};

enum class PhononOrder { pe, ep };  // pe: phonon index fastest; ep: electron index fastest
inline constexpr EnumTable<PhononOrder, 2> phonon_order_names{{{PhononOrder::pe, "pe"}, {PhononOrder::ep, "ep"}}};

enum class LatticeBoundary { open, periodic };
inline constexpr EnumTable<LatticeBoundary, 2> lattice_boundary_names{
    {{LatticeBoundary::open, "open"}, {LatticeBoundary::periodic, "periodic"}}};

enum class TopiOrdering { node_block, scamac };
inline constexpr EnumTable<TopiOrdering, 2> topi_ordering_names{
    {{TopiOrdering::node_block, "node-block"}, {TopiOrdering::scamac, "scamac"}}};

// XXZ spin-1/2 chain (matrices.md §2), ScaMaC value convention.
struct SpinParams {
  int sites = 10;
  int up = 5;
  double jxy = 1.0;
  double jz = 1.0;
  double bz = 0.0;
  LatticeBoundary boundary = LatticeBoundary::open;
  double disorder = 0.0;  // random field h_j in [-disorder, disorder] on S^z_j (values only)
  std::uint64_t seed = 1;
};

// Holstein-Hubbard ring (matrices.md §4).
struct HhqParams {
  int sites = 4;
  int up = 1;
  int down = 1;
  int phonons = 3;  // maximal total phonon number N_ph
  double t = 1.0;
  double u = 4.0;
  double omega0 = 1.0;
  double g = 1.0;
  PhononOrder order = PhononOrder::pe;
  LatticeBoundary boundary = LatticeBoundary::periodic;
};

// 3-D topological insulator (matrices.md §5, topi-ordering.md). The lattice is `nodes` blocks of
// `block` sites per direction: L_d = block_d * nodes_d.
struct TopiParams {
  std::array<std::int64_t, 3> block{4, 4, 4};
  std::array<std::int64_t, 3> nodes{1, 1, 1};
  std::array<LatticeBoundary, 3> boundary{LatticeBoundary::periodic, LatticeBoundary::periodic,
                                          LatticeBoundary::open};
  TopiOrdering ordering = TopiOrdering::node_block;
  double t = 1.0;
  double mass = 2.0;
  double disorder = 0.0;  // on-site potential per site, uniform in [-disorder/2, disorder/2]
  std::uint64_t seed = 1;
};

// 5-point star on nx x ny interior unknowns, Dirichlet boundaries (matrices.md §6).
// Weights: centre, x-1, x+1, y-1, y+1. All five are stored even when zero.
struct Stencil5Params {
  std::int64_t nx = 4;
  std::int64_t ny = 3;
  std::array<double, 5> weights{4.0, -1.0, -1.0, -1.0, -1.0};
};

// miniFE-like 3-D finite-element box (matrix/minife.hpp): nx x ny x nz trilinear hexahedral
// elements, one row per node; `grid` splits the nodes into px x py x pz boxes numbered one after
// another (partition = "box" gives rank k box k).
struct MinifeParams {
  std::array<std::int64_t, 3> elements{8, 8, 8};
  std::array<std::int64_t, 3> grid{1, 1, 1};
};

// How a rank stores its rows (matrix/sell_matrix.hpp): CRS, or SELL-C-sigma for the workloads
// whose module allows it (WorkloadDeck::sell_format; their halo plan and messages are those of CRS).
enum class MatrixFormat { crs, sell };
inline constexpr EnumTable<MatrixFormat, 2> matrix_format_names{{{MatrixFormat::crs, "crs"}, {MatrixFormat::sell, "sell"}}};

// The default chunk height per backend, set once by the build (miniapp/CMakeLists.txt): 8 on a
// CPU (SIMD lanes, independent add chains), 32 on a GPU (a warp per chunk under the row-per-item
// mapping, matrix/sell_matrix.hpp). config/ includes no Kokkos header (its TOML readers are
// host-only under nvcc), hence a definition rather than a Kokkos trait.
#ifndef DESYNC_DEFAULT_SELL_CHUNK
#define DESYNC_DEFAULT_SELL_CHUNK 8
#endif

// [matrix.sell]: chunk height C, sorting scope sigma, and GHOST's chunk-aligned row ranges.
struct SellParams {
  int chunk = DESYNC_DEFAULT_SELL_CHUNK;  // rows per chunk: one of 1, 2, 4, 8, 16, 32
  int sigma = 32;           // rows sorted by length inside windows of sigma rows; 1 or a multiple of chunk
  bool align_rows = false;  // every rank's first row a multiple of chunk (partition "rows" and "nnz")
};

struct MatrixConfig {
  GeneratorKind generator = GeneratorKind::spin;
  PartitionKind partition = PartitionKind::rows;
  MatrixFormat format = MatrixFormat::crs;
  SellParams sell;
  std::string format_where;  // where the deck says format (for errors of other tables)
  SpinParams spin;
  HhqParams hhq;
  TopiParams topi;
  Stencil5Params stencil5;
  MinifeParams minife;
};

}  // namespace desync
