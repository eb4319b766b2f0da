// The [matrix] table and its generator sub-tables. docs/decks.md mirrors this file.
#include <fmt/format.h>

#include <algorithm>
#include <limits>

#include "config/load_matrix.hpp"
#include "matrix/combinatorics.hpp"
#include "matrix/topi_decomposition.hpp"

namespace desync {
namespace {

constexpr double real_max = std::numeric_limits<double>::max();

// a * b, or -1 on overflow / negative input.
std::int64_t times(std::int64_t a, std::int64_t b) {
  if (a < 0 || b < 0) return -1;
  if (b != 0 && a > kIntegerKeyMax / b) return -1;
  return a * b;
}

double positive(TableReader& r, const char* key, double def, const char* why) {
  const double v = r.real(key, def, -real_max, real_max);
  if (!(v > 0.0)) r.fail(key, std::string("must be > 0 (") + why + ")");
  return v;
}

SpinParams read_spin(TableReader r) {
  SpinParams c;
  c.sites = static_cast<int>(r.integer("sites", c.sites, 2, 62));
  if (!r.has("up") && c.sites % 2 != 0)
    r.fail("sites", "half filling (the default for up) needs an even number of sites; give up explicitly");
  c.up = static_cast<int>(r.integer("up", c.sites / 2, 0, c.sites));
  c.jxy = r.real("jxy", c.jxy, -real_max, real_max);
  c.jz = r.real("jz", c.jz, -real_max, real_max);
  c.bz = r.real("bz", c.bz, -real_max, real_max);
  c.boundary = r.choice("boundary", c.boundary, lattice_boundary_names);
  // Two sites on a ring: the wrap bond (1, 0) is the bond (0, 1) again (the generator would drop
  // it silently, matrices.md would sum it): refused, as the HHQ ring of 2 is.
  if (c.sites == 2 && c.boundary == LatticeBoundary::periodic)
    r.fail("boundary", "with sites = 2 the periodic bond (1, 0) is the open bond (0, 1) again; allowed: \"open\", or "
                       "sites >= 3");
  c.disorder = r.real("disorder", c.disorder, 0.0, real_max);
  c.seed = static_cast<std::uint64_t>(r.integer("seed", 1, 0, kIntegerKeyMax));
  r.warn_where_unused("seed", c.disorder > 0.0, c.seed, std::uint64_t{1}, "only disorder > 0 uses it (the random on-site terms)");
  r.finish();
  return c;
}

HhqParams read_hhq(TableReader r) {
  HhqParams c;
  c.sites = static_cast<int>(r.integer("sites", c.sites, 3, 40));
  c.up = static_cast<int>(r.integer("up", c.up, 0, c.sites));
  c.down = static_cast<int>(r.integer("down", c.down, 0, c.sites));
  c.phonons = static_cast<int>(r.integer("phonons", c.phonons, 0, 1000));
  c.t = r.real("t", c.t, -real_max, real_max);
  c.u = positive(r, "u", c.u, "the zero-diagonal count of the papers' matrices assumes U > 0");
  c.omega0 = positive(r, "omega0", c.omega0, "the zero-diagonal count of the papers' matrices assumes omega0 > 0");
  c.g = r.real("g", c.g, -real_max, real_max);
  c.order = r.choice("order", c.order, phonon_order_names);
  c.boundary = r.choice("boundary", c.boundary, lattice_boundary_names);
  const int modes = c.sites - 1;
  // The phonon basis is numbered through a binomial table up to comb::max_n (64 bits).
  if (c.phonons + modes > comb::max_n)
    r.fail("phonons", fmt::format("allowed: phonons + sites - 1 <= {} (the phonon basis' binomial table), here at most {}",
                                  comb::max_n, comb::max_n - modes));
  const std::int64_t phonon_states = comb::binomial(c.phonons + modes, modes);
  const std::int64_t rows = times(times(comb::binomial(c.sites, c.up), comb::binomial(c.sites, c.down)), phonon_states);
  if (rows <= 0) r.fail("phonons", "the matrix would have more than 2^63 rows");
  r.finish();
  return c;
}

TopiParams read_topi(TableReader r) {
  TopiParams c;
  const auto block = r.integer_list("block", {c.block[0], c.block[1], c.block[2]}, 1, std::int64_t{1} << 20);
  if (block.size() != 3) r.fail("block", "give three extents [nx, ny, nz]");
  for (int d = 0; d < 3; ++d) c.block[d] = block[d];
  if (r.has("decomposition")) {
    if (r.has("nodes")) r.fail("decomposition", "give either nodes or decomposition, not both");
    const std::string name = r.string("decomposition", "M1");
    if (!r.has("node_count")) r.fail("decomposition", "needs node_count, the number of nodes it splits the lattice over");
    const std::int64_t n = r.integer("node_count", 1, 1, std::int64_t{1} << 20);
    const auto grid = topi_decomposition(name, n);
    if (!grid)
      r.fail("decomposition", fmt::format("cannot serve node_count = {}; {} needs {} (allowed names: M1..M9)", n,
                                          name, topi_decomposition_rule(name)));
    c.nodes = *grid;
  } else {
    if (r.has("node_count")) r.fail("node_count", "only used with decomposition = \"M1\"..\"M9\"");
    const auto nodes = r.integer_list("nodes", {1, 1, 1}, 1, std::int64_t{1} << 20);
    if (nodes.size() != 3) r.fail("nodes", "give three node counts [mx, my, mz]");
    for (int d = 0; d < 3; ++d) c.nodes[d] = nodes[d];
  }
  c.boundary = r.choice_list("boundary", c.boundary, lattice_boundary_names);
  c.ordering = r.choice("ordering", c.ordering, topi_ordering_names);
  c.t = r.real("t", c.t, -real_max, real_max);
  c.mass = r.real("mass", c.mass, -real_max, real_max);
  c.disorder = r.real("disorder", c.disorder, 0.0, real_max);
  c.seed = static_cast<std::uint64_t>(r.integer("seed", 1, 0, kIntegerKeyMax));
  r.warn_where_unused("seed", c.disorder > 0.0, c.seed, std::uint64_t{1}, "only disorder > 0 uses it (the random on-site terms)");
  std::int64_t rows = 4;
  for (int d = 0; d < 3; ++d) rows = times(rows, times(c.block[d], c.nodes[d]));
  if (rows <= 0 || rows > (std::int64_t{1} << 62)) r.fail("block", "the lattice is too large (more than 2^62 rows)");
  r.finish();
  return c;
}

Stencil5Params read_stencil5(TableReader r) {
  Stencil5Params c;
  c.nx = r.integer("nx", c.nx, 1, std::int64_t{1} << 31);
  c.ny = r.integer("ny", c.ny, 1, std::int64_t{1} << 31);
  const auto w = r.real_list("weights", {c.weights.begin(), c.weights.end()}, 5);
  for (int i = 0; i < 5; ++i) c.weights[i] = w[i];
  r.finish();
  return c;
}

MinifeParams read_minife(TableReader r) {
  MinifeParams c;
  const auto e = r.integer_list("elements", {c.elements[0], c.elements[1], c.elements[2]}, 1, std::int64_t{1} << 20);
  if (e.size() != 3) r.fail("elements", "give three element counts [nx, ny, nz]");
  const auto g = r.integer_list("grid", {c.grid[0], c.grid[1], c.grid[2]}, 1, std::int64_t{1} << 20);
  if (g.size() != 3) r.fail("grid", "give three box counts [px, py, pz]");
  for (int d = 0; d < 3; ++d) {
    c.elements[d] = e[d];
    c.grid[d] = g[d];
    if (c.grid[d] > c.elements[d] + 1)
      r.fail("grid", fmt::format("{} boxes along axis {} but only {} nodes ({} elements + 1)", c.grid[d], d,
                                 c.elements[d] + 1, c.elements[d]));
  }
  std::int64_t rows = 1;
  for (int d = 0; d < 3; ++d) rows = times(rows, c.elements[d] + 1);
  if (rows <= 0 || rows > (std::int64_t{1} << 62)) r.fail("elements", "the box is too large (more than 2^62 nodes)");
  if (c.grid[0] * c.grid[1] * c.grid[2] > (std::int64_t{1} << 20))
    r.fail("grid", "more than 2^20 boxes (one per rank with partition = \"box\")");
  r.finish();
  return c;
}

SellParams read_sell(TableReader r) {
  SellParams c;
  c.chunk = static_cast<int>(r.integer("chunk", c.chunk, 1, 32));
  if (c.chunk & (c.chunk - 1)) r.fail("chunk", "allowed: 1, 2, 4, 8, 16, 32 (the heights the kernels are compiled for)");
  c.sigma = static_cast<int>(r.integer("sigma", std::max(c.sigma, c.chunk), 1, 1 << 30));
  if (c.sigma > 1 && c.sigma % c.chunk != 0)
    r.fail("sigma", "allowed: 1 (no sorting) or a multiple of chunk = " + std::to_string(c.chunk));
  c.align_rows = r.boolean("align_rows", c.align_rows);
  r.finish();
  return c;
}

}  // namespace

MatrixConfig read_matrix(TableReader r) {
  MatrixConfig c;
  c.generator = r.choice("generator", c.generator, generator_names);
  c.partition = r.choice("partition", c.partition, partition_names);
  c.format = r.choice("format", c.format, matrix_format_names);
  c.format_where = r.position("format").where;
  // [matrix.sell] is checked wherever it is given; with format = "crs" it has no effect (said,
  // not refused: a sweep switches the format with --set on one deck).
  if (c.format == MatrixFormat::sell || r.has("sell")) {
    const SellParams sell = read_sell(r.nested("sell"));
    if (c.format == MatrixFormat::sell) c.sell = sell;
    else r.warn("sell", "has no effect: only format = \"sell\" uses it (the deck's format is \"crs\")");
  }
  if (c.sell.align_rows && c.partition == PartitionKind::box)
    r.fail("partition", "\"box\" keeps the generator's boxes; [matrix.sell] align_rows needs \"rows\" or \"nnz\"");
  // The chosen generator's table is always resolved; the others are checked if present.
  const auto wanted = [&](GeneratorKind g, const char* key) { return c.generator == g || r.has(key); };
  // Another generator's table: one warning for the table, none for the keys inside it.
  const auto table = [&](GeneratorKind g, const char* key) {
    TableReader t = r.nested(key);
    if (c.generator != g) {
      r.warn(key, fmt::format("has no effect: generator = \"{}\" (checked only, so that --set matrix.generator can switch)",
                              enum_name(generator_names, c.generator)));
      t.warn_into(nullptr);
    }
    return t;
  };
  if (wanted(GeneratorKind::spin, "spin")) c.spin = read_spin(table(GeneratorKind::spin, "spin"));
  if (wanted(GeneratorKind::hhq, "hhq")) c.hhq = read_hhq(table(GeneratorKind::hhq, "hhq"));
  if (wanted(GeneratorKind::topi, "topi")) c.topi = read_topi(table(GeneratorKind::topi, "topi"));
  if (wanted(GeneratorKind::stencil5, "stencil5")) c.stencil5 = read_stencil5(table(GeneratorKind::stencil5, "stencil5"));
  if (wanted(GeneratorKind::minife, "minife")) c.minife = read_minife(table(GeneratorKind::minife, "minife"));
  if (c.partition == PartitionKind::box && c.generator != GeneratorKind::minife)
    r.fail("partition", "\"box\" is the minife generator's geometric partition; use \"rows\" or \"nnz\" here");
  r.also_valid({"sell", "spin", "hhq", "topi", "stencil5", "minife"});
  r.finish();
  return c;
}

}  // namespace desync
