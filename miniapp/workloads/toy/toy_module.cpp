// The communication-imbalance toys (papers.md D.3) as a workload module.
#include "workloads/toy/toy_module.hpp"

#include <fmt/format.h>

#include "core/errors.hpp"
#include "workloads/toy/sim_toy_program.hpp"
#include "workloads/toy/toy.hpp"
#include "workloads/toy/toy_deck.hpp"

#include <algorithm>
#include <cmath>

namespace desync {
namespace {

void toy_ranks(const Config& cfg, int nranks) {
  const ToyConfig& c = cfg.params.get<ToyConfig>();
  if (c.degree > nranks - 1)
    throw DeckError(fmt::format("{}: error: [toy] degree = {}: {} rank(s) have at most {} other rank(s) to send to; "
                                "allowed: 0 (all others) .. {}",
                                c.degree_pos.where, c.degree, nranks, nranks - 1, nranks - 1));
}

}  // namespace

WorkloadModule toy_module() {
  WorkloadModule m;
  m.deck.name = "toy";
  m.deck.tables = {"run", "toy", "comm", "inject", "noise", "threads", "record"};
  m.deck.read_table = read_toy_table;
  // The study's toys: blocking sends and an MPI_Allreduce per iteration.
  m.deck.default_send = SendMode::blocking;
  m.deck.default_sync = SyncMode::allreduce;
  m.deck.overlapped_work = [](const Config& cfg) -> const char* {
    return cfg.params.get<ToyConfig>().overlap ? "compute part 1 (microseconds)" : nullptr;
  };
  m.deck.no_overlap = [](const Config&) -> std::string {
    return "the no-overlap toy waits before computing; use [toy] overlap = true";
  };
  m.deck.validate_ranks = toy_ranks;
  m.memory = toy_memory;
  // Measured (docs/method.md, section 32): 9 own datasets; per target `messages` sends and as
  // many receives.
  m.output_shape = [](const Config& cfg, int ranks) {
    const ToyConfig& c = cfg.params.get<ToyConfig>();
    OutputShape s;
    s.events = c.overlap ? 7 : 6;
    s.phases = s.events + 2;
    s.partners = static_cast<double>(c.degree > 0 ? std::min<std::int64_t>(c.degree, ranks - 1) : ranks - 1);
    s.messages_per_row = 2.0 * s.partners * static_cast<double>(c.messages);
    s.datasets = 9;
    s.bytes = 144.0;
    return s;
  };
  m.run = run_toy;
  m.simulated = sim::toy_program;
  m.phases = {{"compute", PhaseClass::work, "#b9e3b0", "compute"},
              {"part1", PhaseClass::work, "#b9e3b0", "compute part 1"},
              {"part2", PhaseClass::work, "#8fd18a", "compute part 2"}};
  return m;
}

}  // namespace desync
