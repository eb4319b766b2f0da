// The point-to-point micro-benchmarks (ping-pong, k-pair bandwidth) as a workload module.
#include "workloads/pingpong/pingpong_module.hpp"

#include <fmt/format.h>

#include "config/locate_key.hpp"
#include "core/errors.hpp"
#include "workloads/pingpong/sim_pingpong_program.hpp"
#include "workloads/pingpong/pingpong.hpp"
#include "workloads/pingpong/pingpong_deck.hpp"

#include <algorithm>
#include <cmath>

namespace desync {
namespace {

void pingpong_ranks(const Config& cfg, int nranks) {
  const PingpongConfig& c = cfg.params.get<PingpongConfig>();
  if (nranks < 2)
    throw DeckError(fmt::format("{}: error: workload \"pingpong\" needs at least 2 ranks (pairs of rank i and i + P/2); "
                                "the run has {}", locate(cfg, "run.workload"), nranks));
  if (c.pairs > nranks / 2)
    throw DeckError(fmt::format("{}: error: [pingpong] pairs = {}: {} rank(s) make at most {} pair(s); allowed: 0 (the "
                                "mode's default) .. {}",
                                c.pairs_pos.where, c.pairs, nranks, nranks / 2, nranks / 2));
}

}  // namespace

WorkloadModule pingpong_module() {
  WorkloadModule m;
  m.deck.name = "pingpong";
  m.deck.cells_of_repetitions = true;  // a cell per message size
  m.deck.tables = {"run", "pingpong", "comm", "threads"};
  m.deck.read_table = read_pingpong_table;
  m.deck.no_overlap = [](const Config&) -> std::string { return "a micro-benchmark only communicates"; };
  m.deck.validate_ranks = pingpong_ranks;
  m.memory = pingpong_memory;
  // Measured (docs/method.md, section 32): /pingpong and 15 to 16 own datasets; per row one
  // message each way, a window of them in "bandwidth" mode.
  m.output_shape = [](const Config& cfg, int) {
    const PingpongConfig& c = cfg.params.get<PingpongConfig>();
    OutputShape s;
    s.events = 6;
    s.warmup = 0;
    s.phases = 6;
    const double per = c.mode == PingpongMode::pingpong ? 1.0 : static_cast<double>(c.window);
    s.partners = per;
    s.messages_per_row = 2.0 * per;
    s.datasets = 16;
    s.groups = 1;
    s.bytes = 416.0;
    return s;
  };
  m.run = run_pingpong;
  m.simulated = sim::pingpong_program;
  // One timeline row per (size, repetition).
  m.timeline_rows = [](const Config& cfg, int) {
    return static_cast<std::int64_t>(cfg.params.get<PingpongConfig>().sizes.size()) * cfg.run.iterations;
  };
  return m;
}

}  // namespace desync
