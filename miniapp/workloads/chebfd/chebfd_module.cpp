// The ChebFD polynomial filter (matrices.md section 7, papers.md A.3.4) as a workload module.
#include "workloads/chebfd/chebfd_module.hpp"
#include "workloads/chebfd/chebfd_filter.hpp"

#include "core/errors.hpp"
#include "matrix/make_generator.hpp"
#include "workloads/chebfd/sim_chebfd_program.hpp"
#include "workloads/chebfd/chebfd.hpp"
#include "workloads/chebfd/chebfd_deck.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace desync {
namespace {

const char* chebfd_overlap(const Config& cfg) {
  const ChebfdScheme s = cfg.params.get<ChebfdConfig>().scheme;
  if (s == ChebfdScheme::splitwait) return "the local part of the product (rows)";
  if (s == ChebfdScheme::pipeline) return "the fused kernel of the previous sub-block (rows)";
  return nullptr;
}

// barrier_samples sizes the barrier micro-benchmark, which runs only where a barrier is (any
// [comm] sync, barrier_per_degree) or compare_barrier pairs one: nowhere else may it be ignored.
// After loading, since [comm] is read after [chebfd].
void chebfd_deck(const Config& cfg) {
  const ChebfdConfig& c = cfg.params.get<ChebfdConfig>();
  if (c.barrier_samples != ChebfdConfig{}.barrier_samples && !c.compare_barrier && cfg.comm.sync == SyncMode::none)
    throw DeckError(fmt::format("{}: error: [chebfd] barrier_samples = {}: not used: the barrier micro-benchmark runs only "
                                "with a barrier ([comm] sync, barrier_per_degree = true) or compare_barrier = true; "
                                "remove it or set one of them",
                                c.barrier_samples_pos.where, c.barrier_samples));
}

}  // namespace

WorkloadModule chebfd_module() {
  WorkloadModule m;
  m.deck.name = "chebfd";
  m.deck.pairs_barrier = [](const Config& cfg) { return cfg.params.get<ChebfdConfig>().compare_barrier; };
  m.deck.tables = {"run", "chebfd", "matrix", "comm", "inject", "noise", "threads", "record"};
  m.deck.read_table = read_chebfd_table;
  m.deck.needs_matrix = true;
  m.deck.sell_format = true;
  m.deck.device_buffers = true;
  m.deck.validate_deck = chebfd_deck;
  m.deck.asks_barrier = [](const Config& cfg) { return cfg.params.get<ChebfdConfig>().barrier_per_degree; };
  m.deck.overlapped_work = chebfd_overlap;
  m.deck.no_overlap = [](const Config&) -> std::string {
    return "scheme \"nonsplit\" waits before computing; use \"splitwait\" or \"pipeline\"";
  };
  // Its timeline steps are the degree steps 2..np, per block unless pipelined.
  m.deck.steps = [](const Config& cfg) { return chebfd_steps(cfg.params.get<ChebfdConfig>()); };
  m.deck.steps_name = "degree steps";
  m.deck.steps_hint = "(np - 1 per block); set [chebfd] np instead";
  m.memory = chebfd_memory;
  m.halo_values = [](const Config& cfg) {
    return HaloValues{make_generator(cfg.matrix)->is_complex() ? 16 : 8, static_cast<int>(cfg.params.get<ChebfdConfig>().nb)};
  };
  // Measured (docs/method.md, section 32): /matrix and 24 to 26 own datasets; halo partners
  // bounded by 3 (the shipped partitions), a send and a receive each.
  m.output_shape = [](const Config& cfg, int ranks) {
    OutputShape s;
    s.events = static_cast<int>(chebfd::event_names(cfg.params.get<ChebfdConfig>().scheme).size());
    s.phases = s.events + 2;
    s.warmup = 0;
    s.halo(ranks, 3);
    s.datasets = 25;
    s.groups = 1;
    s.bytes = 380.0;
    return s;
  };
  m.run = run_chebfd;
  m.phases = {{"fused", PhaseClass::work, "#a6dba0", "fused kernel"},
              {"local", PhaseClass::work, "#b9e3b0", "local part"},
              {"remote", PhaseClass::work, "#8fd18a", "remote part"}};
  m.simulated = sim::chebfd_program;
  return m;
}

}  // namespace desync
