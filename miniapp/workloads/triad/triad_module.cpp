// The MPI-augmented STREAM triad (papers.md A.3.1-A.3.2) as a workload module.
#include "workloads/triad/triad_module.hpp"

#include <fmt/format.h>

#include "config/locate_key.hpp"
#include "core/errors.hpp"
#include "workloads/triad/sim_triad_program.hpp"
#include "workloads/triad/triad.hpp"
#include "workloads/triad/triad_deck.hpp"

#include <algorithm>
#include <cmath>

namespace desync {
namespace {

void triad_ranks(const Config& cfg, int nranks) {
  const TriadConfig& t = cfg.params.get<TriadConfig>();
  if (t.global_size > 0 && t.global_size < nranks)
    throw DeckError(fmt::format("{}: error: [triad] global_size = {}: fewer elements than the {} ranks; allowed: >= {}",
                                locate(cfg, "triad.global_size"), t.global_size, nranks, nranks));
}

}  // namespace

WorkloadModule triad_module() {
  WorkloadModule m;
  m.deck.name = "triad";
  m.deck.tables = {"run", "triad", "comm", "inject", "noise", "threads", "record"};
  m.deck.read_table = read_triad_table;
  m.deck.former_comm_keys = {"offsets", "boundary", "message_bytes"};  // [comm] held the partner pattern until session 2
  m.deck.no_overlap = [](const Config&) -> std::string { return "the triad sweeps, then communicates"; };
  m.deck.validate_ranks = triad_ranks;
  m.memory = triad_memory;
  // Measured (docs/method.md, section 32): 10 own metrics; a send and a receive per offset.
  m.output_shape = [](const Config& cfg, int) {
    OutputShape s;
    const double k = static_cast<double>(cfg.params.get<TriadConfig>().offsets.size());
    s.partners = k;
    s.messages_per_row = 2.0 * k;
    s.datasets = 10;
    s.bytes = 160.0;
    return s;
  };
  m.run = run_triad;
  m.phases = {{"compute", PhaseClass::work, "#b9e3b0", "compute"}};
  m.simulated = sim::triad_program;
  return m;
}

}  // namespace desync
