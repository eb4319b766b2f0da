// The [triad] table of a deck: every key, its default and its allowed range (docs/decks.md). Reads
// TOML, so it includes no Kokkos header (the CUDA build compiles it host-only: miniapp/CMakeLists.txt).
#include <fmt/format.h>

#include <limits>
#include <set>

#include "config/table_reader.hpp"
#include "workloads/triad/triad_deck.hpp"

namespace desync {
namespace {
constexpr double real_max = std::numeric_limits<double>::max();
}  // namespace

void read_triad_table(TableReader& r, Config& cfg) {
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
  r.warn_where_unused("scalar", c.kernel == TriadKernel::stream, c.scalar, TriadConfig{}.scalar,
                      "only kernel = \"stream\" uses it (a = b + scalar c)");
  r.warn_where_unused("divides", c.kernel == TriadKernel::divide, c.divides, TriadConfig{}.divides,
                      "only kernel = \"divide\" uses it (the divisions per element)");
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
  cfg.params.set(std::move(c));
}

}  // namespace desync
