// Back-to-back SpMV (papers.md A.3.3) as a workload module.
#include "workloads/spmv/spmv_module.hpp"
#include "workloads/spmv/spmv_state.hpp"

#include <fmt/format.h>

#include "config/locate_key.hpp"
#include "core/errors.hpp"
#include "matrix/make_generator.hpp"
#include "workloads/spmv/sim_spmv_program.hpp"
#include "workloads/spmv/spmv.hpp"
#include "workloads/spmv/spmv_deck.hpp"

#include <algorithm>
#include <cmath>

namespace desync {
namespace {

const char* spmv_overlap(const Config& cfg) {
  const SpmvConfig& s = cfg.params.get<SpmvConfig>();
  // KokkosKernels' product is one library call over all rows: it cannot be cut into chunks.
  if (s.kernel == SpmvKernel::kokkoskernels) return nullptr;
  return s.scheme == SpmvScheme::splitwait ? "the local part of the product (rows)" : nullptr;
}

std::string spmv_no_overlap(const Config& cfg) {
  if (cfg.params.get<SpmvConfig>().kernel == SpmvKernel::kokkoskernels)
    return "kernel = \"kokkoskernels\" is one library call that cannot be cut into chunks; use kernel = \"desync\"";
  return "scheme \"nonsplit\" waits before computing; use scheme = \"splitwait\"";
}

void spmv_deck(const Config& cfg) {
  // At load, so that `desync check` says it too; the generator is made only for such a deck.
  if (cfg.params.get<SpmvConfig>().values != SpmvValues::stochastic && make_generator(cfg.matrix)->is_complex())
    throw DeckError(fmt::format("{}: error: [spmv] values = \"generator\" needs a real matrix; the {} matrix is "
                                "complex (allowed here: values = \"stochastic\", its magnitudes)",
                                locate(cfg, "spmv.values"), enum_name(generator_names, cfg.matrix.generator)));
  if (cfg.matrix.format == MatrixFormat::sell && cfg.params.get<SpmvConfig>().kernel == SpmvKernel::kokkoskernels)
    throw DeckError(fmt::format("{}: error: [matrix] format = \"sell\" with [spmv] kernel = \"kokkoskernels\": "
                                "KokkosKernels' spmv reads CRS; use kernel = \"desync\" or format = \"crs\"",
                                cfg.matrix.format_where));
}

}  // namespace

WorkloadModule spmv_module() {
  WorkloadModule m;
  m.deck.name = "spmv";
  m.deck.pairs_barrier = [](const Config& cfg) { return cfg.params.get<SpmvConfig>().compare_barrier; };
  m.deck.tables = {"run", "spmv", "matrix", "comm", "inject", "noise", "threads", "record"};
  m.deck.read_table = read_spmv_table;
  m.deck.needs_matrix = true;
  m.deck.sell_format = true;
  m.deck.device_buffers = true;
  m.deck.overlapped_work = spmv_overlap;
  m.deck.no_overlap = spmv_no_overlap;
  m.deck.validate_deck = spmv_deck;
  m.memory = spmv_memory;
  // A complex generator's matrix runs as its real magnitudes (spmv_matrix.cpp): 8 B per value.
  m.halo_values = [](const Config&) { return HaloValues{8, 1}; };
  // Measured (docs/method.md, section 32): /matrix and 19 to 23 own datasets; halo partners
  // bounded by 3 (the shipped partitions), a send and a receive each.
  m.output_shape = [](const Config& cfg, int ranks) {
    OutputShape s;
    s.events = static_cast<int>(spmv_event_names(cfg.params.get<SpmvConfig>().scheme).size());
    s.phases = s.events + 2;
    s.halo(ranks, 3);
    s.datasets = 22;
    s.groups = 1;
    s.bytes = 340.0;
    return s;
  };
  m.run = run_spmv;
  m.phases = {{"local", PhaseClass::work, "#b9e3b0", "local part"},
              {"remote", PhaseClass::work, "#8fd18a", "remote part"}};
  m.simulated = sim::spmv_program;
  return m;
}

}  // namespace desync
