// The [symmsquarecube] table of a deck: every key, its default and its allowed range (docs/decks.md). Reads
// TOML, so it includes no Kokkos header (the CUDA build compiles it host-only: miniapp/CMakeLists.txt).
#include <fmt/format.h>

#include <limits>

#include "config/table_reader.hpp"
#include "workloads/symmsquarecube/symmsquarecube_deck.hpp"

namespace desync {

void read_symmsquarecube_table(TableReader& r, Config& cfg) {
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
  cfg.params.set(std::move(c));
}

}  // namespace desync
