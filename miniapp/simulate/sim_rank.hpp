#pragma once
// The virtual ranks of a simulation: one SimGrid actor per rank interprets the Program's steps on
// the simulated clock and records the same timeline a real rank records.
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "config/config.hpp"
#include "record/message_log.hpp"
#include "record/timeline.hpp"
#include "simulate/sim_platform.hpp"
#include "sim_model/sim_program.hpp"

namespace desync::sim {

struct SimOutcome {
  std::vector<Timeline> timeline;          // per rank, on the simulated clock (s)
  std::vector<std::int64_t> stamp_errors;  // per rank: messages from the wrong iteration
  std::vector<std::int64_t> messages;      // per rank: messages received and checked
  double simulated_time = 0.0;             // the simulated clock at the end
  int stop_signal = 0;                     // a stop request ended it early (timelines truncated)
  // The paired run (Program::paired_steps): per rank its timeline, empty when the program has
  // none or a stop request came first; paired_complete: it ran to its end.
  std::vector<Timeline> paired;
  bool paired_complete = false;
  // [comm] record_messages: per rank its message events (both loops of a pair), as a real rank's
  // log; empty when not recording.
  std::vector<std::shared_ptr<MessageLog>> message_logs;
};

// What one [comm] sync costs on the modelled cluster beyond waiting for the last rank: a barrier or
// allreduce of ceil(log2 P) stages of the platform's sync_latency.
double modelled_sync_cost(const Platform& platform, int ranks);

// Creates the actors and their mailboxes (the Engine and the platform must exist), runs the
// simulation and returns what the ranks recorded. `progress` is called from rank 0's actor after
// each iteration (iteration, simulated time; the paired run's iterations count on from the first
// run's last).
// stack_bytes: each actor's stack (0: SimGrid's contexts/stack-size).
SimOutcome simulate_ranks(const Config& cfg, const Platform& platform, const Program& program, const SimHosts& hosts,
                          const std::function<void(std::int64_t, double)>& progress, std::size_t stack_bytes = 0);

}  // namespace desync::sim
