// The [ring] table. Reads TOML, so it includes no Kokkos header (host-only in the CUDA build:
// desync_toml_readers() in this folder's CMakeLists.txt).
#include "ring_deck.hpp"

#include "config/table_reader.hpp"

namespace desync {

void read_ring_table(TableReader& r, Config& cfg) {
  RingConfig c;
  c.size = r.integer("size", c.size, 1, std::int64_t{1} << 26);
  r.finish();
  cfg.params.set(c);
}

}  // namespace desync
