#pragma once
// What one virtual rank does in every iteration, independent of SimGrid: a workload that can be
// simulated turns its deck into a Program (its own traffic and flop models, its own partner lists
// and halo plans), and the simulator's actor (sim_rank.cpp) interprets it. Built and tested
// without SimGrid.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "metrics/phase_stats.hpp"
#include "sim_model/platform_file.hpp"
#include "record/workload_result.hpp"

namespace desync::sim {

// One step of an iteration. mark: record event `arg` now; memory: stream amount[arg] bytes through
// the rank's domain; core: amount[arg] seconds of one core's work, shared by the rank's threads;
// busy: amount[arg] seconds of wall time (a timed busy loop on every thread: as long however
// the cores are shared; the toys' compute); delay: this iteration's [[inject]]/[noise] busy work (marks delay_begin/delay_end when > 0);
// post / wait: start / complete exchange `arg`; sync: the [comm] sync after the iteration (marks
// sync_end); allreduce: a collective inside the iteration (CG's dot products), modelled as the
// sync: every rank leaves when the last arrives, plus the modelled cost; no mark of its own;
// sum: a reduction's local sum of amount[arg] bytes (sim_model/sim_collectives.hpp), streamed
// through the rank's domain at one thread's bandwidth (MPI sums on the calling thread).
enum class Op : std::uint8_t { mark, memory, core, busy, delay, post, wait, sync, allreduce, sum };
struct Step {
  Op op;
  int arg = 0;
};

struct Message {
  int peer = -1;
  std::int64_t bytes = 0;
  // What a send and a receive match on besides the two ranks (MPI's tag): -1, the exchange's
  // index; else this channel, for a message received in another exchange than it was sent in
  // (the ping-pong's echo: received with the message out, sent after the message in).
  int channel = -1;
};

// The messages of one exchange of one rank: received from and sent to.
struct Exchange {
  std::vector<Message> recv, send;
};

struct RankWork {
  std::vector<double> amount;       // per amount slot: bytes (memory steps) or seconds (core, busy steps)
  std::vector<Exchange> exchange;   // per exchange index
  double bytes_per_iteration = 0.0; // the workload's traffic model of the work phase
  double flops_per_iteration = 0.0;
  PartnerList partners;             // for /comm, as the real run writes it
  std::vector<WorkloadDataset> datasets;  // per-rank datasets of the workload (e.g. /matrix/rows)
  // Asleep for the whole run ([placement] active_ppn): the rank takes part in the barriers (at
  // once, never late) and in nothing else; its timeline stays NaN, as a real parked rank's.
  bool parked = false;
};

struct Program {
  std::string workload;  // [run] workload
  std::vector<std::string> event_names;
  std::vector<Step> steps;          // one iteration, the same for every rank
  std::vector<RankWork> ranks;
  std::int64_t iterations = 0, warmup = 0;  // the timeline's rows: warm-up + measured
  std::int64_t sync_every = 1;  // [comm] sync_every: the Op::sync steps of the rows sync_due names (make_program)
  std::string work_phase = "compute";
  std::vector<CompositePhase> composites;
  std::vector<std::string> mpi_phases{"post", "wait", "reply", "sync"};
  std::vector<WorkloadDataset> datasets;  // global datasets of the workload (the same for all ranks)
  int delay_begin = -1, delay_end = -1, sync_end = -1;  // event indices the driver's steps mark
  // The paired run of [spmv] compare_barrier: after the run, every rank meets (at no simulated
  // cost, as the real ranks meet in a barrier before a loop) and runs the iterations again with
  // these steps, the same iteration with the other [comm] sync; empty: no paired run. The driver
  // then reports P_D as a real run does (docs/method.md section 13).
  std::vector<Step> paired_steps;
  // Iterations that differ in a fixed cycle (the stencil's CA: an exchange every ca_steps steps,
  // sweeps of a shrinking extended block): iteration it runs cycle[it % cycle.size()]; empty:
  // every iteration runs `steps`. Not combined with paired_steps.
  std::vector<std::vector<Step>> cycle;
  std::string model;                // how the workload's phases are modelled, for /simulation/model
  // [comm] communicators splits the program's collectives into N_DUP pipelined parts (else the
  // value changes nothing in a simulation, and make_program says so).
  bool uses_communicators = false;
  // The platform's [core] keys the program reads (divide_time, gemm_flops): a --pset of another
  // changes nothing in this simulation, and simulate says so.
  std::vector<std::string> core_keys;
  // The workload's own run-level results (datasets, /metrics, the printed report) from every
  // rank's simulated timeline (common time base), computed by the real run's code and given to
  // every rank's result; empty: none (the ping-pong's /pingpong tables).
  std::function<void(const std::vector<const Timeline*>& timelines, WorkloadResult& into)> results;

  // The steps of iteration `it`.
  const std::vector<Step>& steps_of(std::int64_t it) const {
    return cycle.empty() ? steps : cycle[static_cast<std::size_t>(it % static_cast<std::int64_t>(cycle.size()))];
  }
};

// How often each exchange is posted in the whole loop (one loop: the paired run posts as often):
// [exchange index] -> posts over the program's iterations.
std::vector<std::int64_t> exchange_posts(const Program& p);

// The message events a rank of the program logs ([comm] record_messages): every message of every
// post, cut into fragment_bytes pieces as the real run cuts them, both loops of a pair; `posts`
// from exchange_posts.
std::int64_t message_events(const Program& p, const RankWork& w, const std::vector<std::int64_t>& posts,
                            std::int64_t fragment_bytes);

// A deck value the simulator does not model: the DeckError every program throws for one
// ("DECK: error: [table] key = value: not modelled by desync simulate (why); remove it or use desync run").
[[noreturn]] void refuse(const Config& cfg, const std::string& table, const std::string& key, const std::string& value,
                         const std::string& why);

// The [comm] keys the simulator models (sync, fragment_bytes, send, progress: refuse_unmodelled
// refuses the values it does not) or notes (communicators, eager_limit). Every other
// [comm] key a deck changes from its workload's default is refused (make_program,
// workloads/simulated_programs.cpp, from config's changed_comm_keys: no list of keys to refuse),
// with the reason unmodelled_comm_reason gives.
bool modelled_comm_key(const std::string& key);
std::string unmodelled_comm_reason(const std::string& key);

// Deck values outside [comm] no program models (a STREAM table, SELL) are refused, the declared
// eager limit noted: part of every simulated program's first step (make_program).
void refuse_unmodelled(const Config& cfg, const Platform& platform);
// [comm] communicators > 1 for a program that does not split its collectives by it: said, not
// silently dropped (make_program, after the program is made).
void note_communicators(const Config& cfg, const Program& prog);

// The messages of a /comm partner list (one per partner, its bytes).
Exchange exchange_of(const PartnerList& partners);

// The iteration frame every program shares: the compute steps, then delay, post, wait, sync
// (the order of the real loop, loop/experiment_loop.hpp); events of iteration_event_names().
std::vector<Step> compute_then_exchange(const Config& cfg, const std::vector<Step>& compute);

// The steps of the paired run: `steps` with the other [comm] sync than `sync`, as the real paired
// run chooses it (a barrier after every iteration where the deck has no sync, none where it has one).
std::vector<Step> with_other_sync(const std::vector<Step>& steps, SyncMode sync);

// The index of event `name` in the program's event_names (the real workload's list); a missing
// name is a programming error (std::logic_error), never a NaN column.
int event_of(const Program& p, const std::string& name);

}  // namespace desync::sim
