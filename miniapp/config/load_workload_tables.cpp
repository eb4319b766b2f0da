// The workload tables of a deck: every key, its default and its allowed range (docs/decks.md).
#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <set>

#include "config/load_workload_tables.hpp"

namespace desync {
namespace {
constexpr auto int_max = std::numeric_limits<std::int64_t>::max();
constexpr double real_max = std::numeric_limits<double>::max();
}  // namespace

TriadConfig read_triad(TableReader r) {
  TriadConfig c;
  c.kernel = r.choice("kernel", c.kernel, triad_kernel_names);
  c.global_size = r.integer("global_size", 0, 0, std::int64_t{1} << 48);
  c.size_per_rank = r.integer("size_per_rank", c.global_size > 0 ? 0 : 2'000'000, 0, std::int64_t{1} << 40);
  if (c.global_size > 0 && c.size_per_rank > 0)
    r.fail("global_size", "give either size_per_rank or global_size, not both (set the other to 0)");
  if (c.global_size == 0 && c.size_per_rank == 0)
    r.fail("size_per_rank", "one of size_per_rank and global_size must be > 0");
  c.scalar = r.real("scalar", c.scalar, -real_max, real_max);
  c.divides = r.integer("divides", c.divides, 1, 1'000'000);
  c.write_allocate = r.boolean("write_allocate", c.write_allocate);
  c.offsets = r.integer_list("offsets", c.offsets, -1'000'000, 1'000'000);
  if (c.offsets.empty() || c.offsets.size() > 1024)
    r.fail("offsets", "allowed: a non-empty array of at most 1024 partner distances");
  std::set<std::int64_t> seen;
  for (auto d : c.offsets) {
    if (d == 0) r.fail("offsets", "offset 0 (a rank talking to itself) is not allowed");
    if (!seen.insert(d).second) r.fail("offsets", fmt::format("offset {} is listed twice", d));
  }
  c.boundary = r.choice("boundary", c.boundary, boundary_names);
  c.message_bytes = r.integer("message_bytes", c.message_bytes, 0, std::numeric_limits<int>::max());
  r.finish();
  return c;
}

SpmvConfig read_spmv(TableReader r) {
  SpmvConfig c;
  c.scheme = r.choice("scheme", c.scheme, spmv_scheme_names);
  c.kernel = r.choice("kernel", c.kernel, spmv_kernel_names);
  c.values = r.choice("values", c.values, spmv_values_names);
  c.compare_barrier = r.boolean("compare_barrier", c.compare_barrier);
  c.barrier_samples = r.integer("barrier_samples", c.barrier_samples, 1, 10'000'000);
  r.finish();
  return c;
}

ChebfdConfig read_chebfd(TableReader r) {
  ChebfdConfig c;
  c.ns = r.integer("ns", c.ns, 1, 1'000'000);
  c.nb = r.integer("nb", c.nb, 1, 1024);
  if (c.ns % c.nb != 0)
    r.fail("ns", fmt::format("ns = {} is not a multiple of nb = {}; allowed: k * nb", c.ns, c.nb));
  c.np = r.integer("np", c.np, 2, 1'000'000);
  c.scheme = r.choice("scheme", c.scheme, chebfd_scheme_names);
  c.barrier_per_degree = r.boolean("barrier_per_degree", c.barrier_per_degree);
  c.lambda_min = r.real("lambda_min", c.lambda_min, -real_max, real_max);
  c.lambda_max = r.real("lambda_max", c.lambda_max, -real_max, real_max);
  if (!(c.lambda_min < c.lambda_max))
    r.fail("lambda_max", fmt::format("lambda_max = {} must be > lambda_min = {}", c.lambda_max, c.lambda_min));
  c.bounds = r.choice("bounds", c.bounds, chebfd_bounds_names);
  c.lanczos_steps = r.integer("lanczos_steps", c.lanczos_steps, 2, 1000);
  c.verify_rows = r.integer("verify_rows", c.verify_rows, 0, int_max);
  r.finish();
  return c;
}

StencilConfig read_stencil(TableReader r) {
  StencilConfig c;
  c.n = r.integer("n", c.n, 1, 1'000'000);
  c.px = r.integer("px", c.px, 0, 1'000'000);
  c.py = r.integer("py", c.py, 0, 1'000'000);
  c.px_pos = r.position("px");
  c.py_pos = r.position("py");
  if (c.px > c.n) r.fail("px", fmt::format("more process columns than grid columns (n = {})", c.n));
  if (c.py > c.n) r.fail("py", fmt::format("more process rows than grid rows (n = {})", c.n));
  c.variant = r.choice("variant", c.variant, stencil_variant_names);
  c.ca_steps = r.integer("ca_steps", c.ca_steps, 1, 100'000);
  c.ca_steps_pos = r.position("ca_steps");
  const auto tile = r.integer_list("tile", {c.tile_x, c.tile_y}, 0, 1'000'000);
  if (tile.size() != 2) r.fail("tile", "allowed: an array of 2 integers [mb, nb] (0: the whole local block)");
  c.tile_x = tile[0];
  c.tile_y = tile[1];
  c.ratio = r.real("ratio", c.ratio, -real_max, real_max);
  if (!(c.ratio > 0.0 && c.ratio <= 1.0)) r.fail("ratio", "not allowed; allowed: a number in (0, 1]");
  c.weights = r.real_list("weights", c.weights, 5);
  c.boundary = r.real("boundary", c.boundary, -real_max, real_max);
  c.latency = r.real("latency", c.latency, 0.0, 10.0);
  c.skip_redundant = r.boolean("skip_redundant", c.skip_redundant);
  if (c.skip_redundant && c.variant != StencilVariant::ca)
    r.fail("skip_redundant", "only the \"ca\" variant has redundant work to skip");
  c.verify_full_max = r.integer("verify_full_max", c.verify_full_max, 0, 65'536);
  r.finish();
  return c;
}

PingpongConfig read_pingpong(TableReader r) {
  PingpongConfig c;
  c.mode = r.choice("mode", c.mode, pingpong_mode_names);
  c.sizes = r.integer_list("sizes", c.sizes, 0, std::int64_t{1} << 30);
  if (c.sizes.empty() || c.sizes.size() > 64) r.fail("sizes", "allowed: a non-empty array of at most 64 message sizes (bytes)");
  c.pairs = r.integer("pairs", c.pairs, 0, 1 << 20);
  c.pairs_pos = r.position("pairs");
  c.window = r.integer("window", c.window, 1, 1024);
  r.only_where_used("window", c.mode == PingpongMode::bandwidth, c.window, PingpongConfig{}.window,
                    "only used with mode = \"bandwidth\" (messages in flight per pair)");
  r.finish();
  return c;
}

ToyConfig read_toy(TableReader r) {
  ToyConfig c;
  c.overlap = r.boolean("overlap", c.overlap);
  c.degree = r.integer("degree", c.degree, 0, 1 << 20);
  c.degree_pos = r.position("degree");
  c.messages = r.integer("messages", c.messages, 1, 4096);  // one MPI tag each: an exchange has 4096 (comm/channels.hpp)
  c.max_bytes = r.integer("max_bytes", c.max_bytes, 0, std::int64_t{1} << 30);
  c.min_bytes = r.integer("min_bytes", std::min(c.min_bytes, c.max_bytes), 0, std::int64_t{1} << 30);
  if (c.min_bytes > c.max_bytes) r.fail("min_bytes", fmt::format("larger than max_bytes = {}", c.max_bytes));
  c.compute = r.real("compute", c.compute, 0.0, 3600.0);
  c.part1 = r.real("part1", c.part1, 0.0, 1.0);
  r.only_where_used("part1", c.overlap, c.part1, ToyConfig{}.part1, "only used with overlap = true (the share of compute before the wait)");
  r.finish();
  return c;
}

CgConfig read_cg(TableReader r) {
  CgConfig c;
  c.overlap = r.boolean("overlap", c.overlap);
  r.finish();
  return c;
}

CollbenchConfig read_collbench(TableReader r) {
  CollbenchConfig c;
  c.ops = r.choice_vector("ops", c.ops, coll_op_names);
  c.mode = r.choice("mode", c.mode, coll_mode_names);
  // Floats: a size is a whole number of them; one part is one MPI call (int count).
  c.sizes = r.integer_list("sizes", c.sizes, 4, std::int64_t{1} << 31);
  if (c.sizes.empty() || c.sizes.size() > 64) r.fail("sizes", "allowed: a non-empty array of at most 64 sizes (bytes)");
  for (auto b : c.sizes)
    if (b % 4 != 0) r.fail("sizes", fmt::format("{} bytes is not a whole number of floats; allowed: multiples of 4", b));
  r.finish();
  return c;
}

Matvec2dConfig read_matvec2d(TableReader r) {
  Matvec2dConfig c;
  c.n = r.integer("n", c.n, 1, 1'000'000);
  c.pipelined = r.boolean("pipelined", c.pipelined);
  r.finish();
  return c;
}

SymmSquareCubeConfig read_symmsquarecube(TableReader r) {
  SymmSquareCubeConfig c;
  c.n = r.integer("n", c.n, 1, 1'000'000);
  c.algorithm = r.choice("algorithm", c.algorithm, ssc_algorithm_names);
  c.replication = r.integer("replication", c.replication, 1, 1024);
  c.replication_pos = r.position("replication");
  r.only_where_used("replication", c.algorithm == SscAlgorithm::twofive, c.replication, SymmSquareCubeConfig{}.replication,
                    "only used with algorithm = \"2.5d\" (the number of layers c)");
  c.input = r.choice("input", c.input, ssc_input_names);
  c.verify_n = r.integer("verify_n", c.verify_n, 0, 100'000);
  r.finish();
  return c;
}

SaturationConfig read_saturation(TableReader r) {
  SaturationConfig c;
  c.kernels = r.choice_vector("kernels", c.kernels, saturation_kernel_names);
  c.kernels_pos = r.position("kernels");
  c.mode = r.choice("mode", c.mode, saturation_mode_names);
  c.max_n = r.integer("max_n", c.max_n, 0, 4096);
  c.max_n_pos = r.position("max_n");
  c.size = r.integer("size", c.size, 0, std::int64_t{1} << 40);
  if (c.size > 0 && c.size < 1024) r.fail("size", "allowed: 0 (from the node's caches) or >= 1024 elements per array");
  c.repetitions = r.integer("repetitions", c.repetitions, 1, 1'000'000);
  c.tolerance = r.real("tolerance", c.tolerance, 0.0, 0.99);
  r.finish();
  return c;
}

void read_stream_table_keys(TableReader& r, RunConfig& c) {
  c.stream_table = r.boolean("stream_table", c.stream_table);
  c.stream_size = r.integer("stream_size", c.stream_size, 0, std::int64_t{1} << 40);
  if (c.stream_size > 0 && c.stream_size < 1024) r.fail("stream_size", "allowed: 0 (from the node's caches) or >= 1024 elements per array and rank");
  r.only_where_used("stream_size", c.stream_table, c.stream_size, RunConfig{}.stream_size,
                    "only used with stream_table = true (the STREAM table's elements per array and rank)");
}

PlacementConfig read_placement(TableReader r) {
  PlacementConfig c;
  c.ranks_per_node = r.integer("ranks_per_node", c.ranks_per_node, 0, 1 << 20);
  c.ranks_per_node_pos = r.position("ranks_per_node");
  c.active_ppn = r.integer("active_ppn", c.active_ppn, 0, 1 << 20);
  c.active_ppn_pos = r.position("active_ppn");
  r.finish();
  return c;
}

}  // namespace desync
