#include "simulate/sim_run.hpp"

#include <fmt/format.h>
#include <simgrid/s4u.hpp>
#include <simgrid/version.h>
#include <xbt/log.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "commands/preflight.hpp"
#include "config/locate_key.hpp"
#include "workloads/registry.hpp"
#include "core/clock.hpp"
#include "core/errors.hpp"
#include "core/log.hpp"
#include "core/memory.hpp"
#include "core/mpi_util.hpp"
#include "core/stop_request.hpp"
#include "io/output_file.hpp"
#include "metrics/comm_balance.hpp"
#include "metrics/desync_speedup.hpp"
#include "metrics/phase_stats.hpp"
#include "record/iteration_events.hpp"
#include "record/mpi_library.hpp"
#include "record/provenance.hpp"
#include "record/topology.hpp"
#include "report/progress.hpp"
#include "report/summary_table.hpp"
#include "simulate/sim_deck_platform.hpp"
#include "simulate/sim_platform.hpp"
#include "sim_model/sim_program.hpp"
#include "workloads/simulated_programs.hpp"
#include "simulate/sim_rank.hpp"

namespace desync {
namespace {

std::string simgrid_version() {
  return fmt::format("{}.{}.{}", SIMGRID_VERSION_MAJOR, SIMGRID_VERSION_MINOR, SIMGRID_VERSION_PATCH);
}

// A virtual rank's /topology row: the platform's node and domain, its cores as hwloc lists.
Topology virtual_topology(const sim::Platform& p, const sim::RankPlace& x) {
  Topology t;
  t.hostname = fmt::format("{}-node{}", p.name, x.node);
  t.node_index = x.node;
  t.ranks_on_node = x.ranks_on_node;
  t.threads = p.threads_per_rank;
  const int last = x.first_core + p.threads_per_rank - 1;
  t.process_cpuset = last > x.first_core ? fmt::format("{}-{}", x.first_core, last) : std::to_string(x.first_core);
  for (int c = x.first_core; c <= last; ++c)
    t.thread.push_back({std::to_string(c), c, x.socket, x.domain_in_node, x.domain_in_node});
  t.contention_domain = x.node * 1024 + x.domain_in_node;  // the formula of record/topology.cpp
  t.oversubscribed = x.core_share < 1.0;
  t.hwloc_version = "none: simulated";
  t.cpu_frequency = "none: simulated";
  if (p.oversubscribe && x.core_share < 1.0)
    t.warnings.push_back(fmt::format("simulated: ranks time-share cores (each keeps {:.3g} of a core)", x.core_share));
  return t;
}

std::string model_text(const Config& cfg, const sim::Platform& p, const sim::Program& prog) {
  return fmt::format(
      "simulator: SimGrid {} (S4U), network/model CM02, crosstraffic off, TCP-gamma off\n"
      "memory: one host per contention domain; a memory phase of V bytes executes V at rate min(b(T) x share, "
      "b(n T) / n) for n ranks of T threads streaming at once ({})\n"
      "cores: a core-bound phase of t seconds at one core takes t / (T x share)\n"
      "network: per rank a link of {} B/s and {} s, per node a NIC link of {} B/s adding {} s; {}\n"
      "messages: eager up to {} B inside a node and {} B between nodes (complete at the sender), rendezvous above, {}\n"
      "sync: barrier or allreduce = everyone leaves when the last arrives, plus ceil(log2 P) x {} s\n"
      "workload: {}\n",
      simgrid_version(), p.memory_table.empty() ? "b(n) = min(n b1, b_saturated)" : "b(n) from the measured table",
      p.intra_bandwidth, p.intra_latency, p.inter_bandwidth, p.inter_latency - p.intra_latency,
      p.receiver_links ? "links at both ends" : "links on the sending side only", p.eager_limit_intra, p.eager_limit_inter,
      cfg.comm.progress == ProgressMode::thread
          ? "starting when both sides posted (progress = \"thread\")"
          : "pulled by the receiver inside MPI (progress = \"wait\": a request to send, taken in the receiver's post, "
            "blocking send or wait, starts the transfer)",
      p.sync_latency, prog.model);
}

// The slowest rank's span of the measured iterations (metrics/phase_stats.hpp's measured_wall,
// over the simulated ranks instead of a communicator).
double slowest_span(double wall, const MeasuredSpan& s) {
  return std::isnan(s.first) || std::isnan(s.last) ? wall : std::max(wall, s.last - s.first);
}
double measured_wall(const std::vector<Timeline>& timelines) {
  double wall = 0.0;
  for (const Timeline& tl : timelines) wall = slowest_span(wall, measured_span(tl));
  return wall;
}

// compare_barrier simulated (Program::paired_steps): the real run's metrics under the same names
// (metrics/desync_speedup.hpp), from the two simulated loops; the barrier's cost is the modelled
// one (every rank leaves when the last arrives, plus ceil(log2 P) x sync_latency), so P_barrier
// subtracts exactly what the model added. Without a complete paired run only the first run's
// numbers (as a real run stopped in its paired run).
// wall: the first loop's measured_wall; measured_rows: its measured iterations.
std::vector<NamedValue> paired_metrics(const Config& cfg, const sim::Program& prog, double wall, std::int64_t measured_rows,
                                       const std::vector<Timeline>& paired, bool complete, double barrier) {
  double flops_per_iteration = 0.0;
  for (const sim::RankWork& w : prog.ranks) flops_per_iteration += w.flops_per_iteration;
  const double flops = flops_per_iteration * static_cast<double>(measured_rows);
  std::vector<NamedValue> m = {{"gflops", wall > 0 ? 1e-9 * flops / wall : 0.0, "Gflop/s"}};
  for (auto& v : barrier_metrics(flops, wall, complete ? measured_wall(paired) : 0.0, cfg.comm.sync != SyncMode::none,
                                 syncs_in(cfg.comm.sync_every, measured_rows), barrier))
    m.push_back(std::move(v));
  return m;
}

// The bytes /messages takes ([comm] record_messages): every message of every post of both loops,
// fragments counted, at most record_messages_max per rank (the disk-space check's estimate).
double message_bytes(const Config& cfg, const sim::Program& prog) {
  if (!cfg.comm.record_messages) return 0.0;
  double all = 0.0;
  const std::vector<std::int64_t> posts = sim::exchange_posts(prog);
  for (const sim::RankWork& w : prog.ranks) {
    const std::int64_t n = sim::message_events(prog, w, posts, cfg.comm.fragment_bytes);
    all += static_cast<double>(std::min(n, cfg.comm.record_messages_max)) * MessageLog::event_bytes;
  }
  return all;
}

// Bytes one simulated rank holds beyond its timeline: its actor, the part of its stack it
// touches, its program's exchange lists and message state. Measured: 29 KB per rank (peak RSS of
// the next-pair triad on meggie, 2000 to 60000 ranks x 5 iterations, 2026-11-29).
constexpr double simulated_rank_bytes = 32.0 * 1024.0;

// The simulating process's peak: every rank's actor and timeline, the timelines' copy for the
// file, and /messages where recorded. Refused, like a real run's, when more than
// [run] memory_limit_gib (here: the one simulating process's) or what the machine has.
void check_simulation_memory(const Config& cfg, int ranks, double rows, double events, double messages) {
  MemoryEstimate m;
  m.add("simulated ranks", simulated_rank_bytes * ranks);
  m.add("timelines", 8.0 * rows * events * ranks);
  m.add("timeline copy (the file)", 8.0 * rows * events * ranks);
  if (messages > 0) m.add("message logs", messages);
  const bool limited = cfg.run.memory_limit_gib > 0;
  const double limit = limited ? cfg.run.memory_limit_gib * 1073741824.0 : node_available_bytes();
  if (limit > 0 && m.total() > limit)
    throw DeckError(fmt::format("{}: error: simulating {} rank(s) x {} iterations needs about {}, but {} {}; give fewer "
                                "--ranks or iterations{}",
                                limited ? locate(cfg, "run.memory_limit_gib") : cfg.deck_path, ranks,
                                static_cast<std::int64_t>(rows), m.describe(),
                                limited ? "[run] memory_limit_gib allows" : "this machine has", format_bytes(limit),
                                messages > 0 ? " (or [comm] record_messages_max)" : ""));
}

}  // namespace

// The actors' stacks. SimGrid's default (8 MiB behind a guard page) costs each actor two memory
// mappings, and Linux allows a process vm.max_map_count of them (65530 by default): a simulation
// of more than about 30,000 ranks died in its set-up ("Failed to protect stack"). Past that,
// every actor gets a stack of 120 KiB without a guard page, from the heap (below glibc's mmap
// threshold of 128 KiB: no mapping at all); a rank's code (simulate/sim_rank.cpp) keeps its data
// on the heap and needs a few KiB of stack. Returns 0 (SimGrid's default) when the mappings
// suffice; the simulated results are the same either way.
std::size_t actor_stack_bytes(int ranks) {
  long limit = 65530;
  if (std::FILE* f = std::fopen("/proc/sys/vm/max_map_count", "r")) {
    if (std::fscanf(f, "%ld", &limit) != 1) limit = 65530;
    std::fclose(f);
  }
  constexpr long spare = 8192;  // the mappings of the program, its libraries and its heap
  if (2L * ranks + spare <= limit) return 0;
  simgrid::s4u::Engine::set_config("contexts/guard-size", 0);
  log::info("desync simulate: {} ranks need more than vm.max_map_count = {} memory mappings with guarded 8 MiB "
            "stacks; each rank's actor runs on 120 KiB without a guard page\n",
            ranks, limit);
  return 120 * 1024;
}

bool simulator_available() { return true; }

int simulate_deck(const Config& cfg, const SimulateOptions& opt, MPI_Comm comm) {
  if (comm_size(comm) != 1)
    throw DeckError("desync: error: desync simulate runs as one process (it simulates every rank itself); start it "
                    "without mpiexec and give the ranks with --ranks");
  sim::require_simulatable(cfg);  // before any rule of the workload's own
  const sim::Platform platform = sim::platform_for_deck(cfg, opt.platform, opt.platform_sets);
  if (cfg.record.flush_given && cfg.record.flush_seconds > 0)
    log::warn("{}: [record] flush_seconds = {}: no effect in desync simulate, which writes its file once, at the end\n",
              locate(cfg, "record.flush_seconds"), cfg.record.flush_seconds);
  const std::int64_t full = static_cast<std::int64_t>(platform.nodes) * platform.ranks_per_node;
  if (opt.ranks <= 0 && full > max_simulated_ranks)
    throw DeckError(fmt::format("{}: error: the platform's {} node(s) x {} rank(s) per node = {} virtual ranks, more than a "
                                "simulation takes ({}); give --ranks P",
                                opt.platform, platform.nodes, platform.ranks_per_node, full, max_simulated_ranks));
  const int ranks = opt.ranks > 0 ? opt.ranks : static_cast<int>(full);
  const int nodes = sim::nodes_needed(platform, ranks);
  validate_for_ranks(cfg, ranks);
  // Memory before the program is made (its exchange lists grow with the ranks), then with the
  // message logs the program implies.
  const WorkloadModule& module = workload_module(cfg.run.workload);
  const double planned_rows = static_cast<double>(planned_iterations(cfg, ranks));
  const int shape_events = module.output_shape ? module.output_shape(cfg, ranks).events : 0;
  const double events = shape_events > 0 ? shape_events : static_cast<double>(iteration_event_names().size());
  check_simulation_memory(cfg, ranks, planned_rows, events, 0.0);
  const sim::Program prog = sim::make_program(cfg, platform, ranks);
  check_simulation_memory(cfg, ranks, static_cast<double>(prog.iterations),
                          static_cast<double>(prog.event_names.size()), message_bytes(cfg, prog));
  // A --pset of a [core] key this program does not read would change nothing: said.
  for (const std::string& set : opt.platform_sets) {
    if (set.rfind("core.", 0) != 0) continue;
    const std::string key = set.substr(5, set.find('=') - 5);
    if (std::find(prog.core_keys.begin(), prog.core_keys.end(), key) != prog.core_keys.end()) continue;
    std::string reads;
    for (const std::string& k : prog.core_keys) reads += (reads.empty() ? "[core] " : ", ") + k;
    log::warn("command line (--pset {}): [core] {}: no effect on this simulation of {} (it reads {})\n", set, key,
              cfg.run.workload, reads.empty() ? "no [core] key" : reads);
  }
  const OutputTarget out = output_target(cfg, opt.output, opt.force);
  check_output_path(cfg, out, 8.0 * static_cast<double>(prog.iterations * prog.event_names.size()) * ranks + message_bytes(cfg, prog) + 65536.0, comm);

  log::info("desync simulate: workload {} on {} virtual rank(s) x {} thread(s), {} node(s) of platform {} (SimGrid {})\n",
            cfg.run.workload, ranks, platform.threads_per_rank, nodes, platform.name,
            simgrid_version());
  const Provenance real_prov = collect_provenance(opt.command_line, comm);
  MpiLibraryRecord mpi = probe_mpi_library(comm);

  xbt_log_control_set("root.thres:warning");
  simgrid::s4u::Engine engine("desync");
  // Exact bandwidths and latencies (docs/design/simulate.md section 1): no LV08 correction
  // factors, no reverse-direction traffic, no TCP window cap.
  simgrid::s4u::Engine::set_config("network/model:CM02");
  simgrid::s4u::Engine::set_config("network/crosstraffic", false);
  simgrid::s4u::Engine::set_config("network/TCP-gamma", 0.0);
  const std::size_t stack_bytes = actor_stack_bytes(ranks);
  const sim::SimHosts hosts = sim::build_platform(platform, ranks);
  // After the Engine, which installs its own SIGINT handler (exit without a file): a stop request
  // ends the simulation after an iteration every rank reaches, and the file keeps what ran.
  install_stop_handlers();
  Progress progress(prog.iterations * (prog.paired_steps.empty() ? 1 : 2), cfg.run.progress_interval);
  const double wall0 = now();
  sim::SimOutcome o = sim::simulate_ranks(cfg, platform, prog, hosts, [&](std::int64_t it, double) { progress.tick(it + 1); },
                                          stack_bytes);
  const double wall = now() - wall0;
  log::info("desync simulate: {:.6g} simulated s in {:.1f} s ({:.2f} us per rank-iteration)\n", o.simulated_time, wall,
            1e6 * wall / (static_cast<double>(ranks) * static_cast<double>(prog.iterations)));

  // The common time base of a real run: zero at rank 0's first measured iteration.
  const Timeline& t0 = o.timeline.front();
  const double origin = t0.iterations() == 0 ? 0.0 : t0.at(t0.warmup() < t0.iterations() ? t0.warmup() : 0, 0);
  std::vector<WorkloadResult> results;
  std::vector<Topology> topos;
  results.reserve(static_cast<std::size_t>(ranks));
  topos.reserve(static_cast<std::size_t>(ranks));
  const PhaseLayout layout = phase_layout(prog.event_names, prog.composites);
  std::vector<std::vector<MinMedMax>> stats;
  std::vector<double> bytes, shares, cers;
  std::vector<SentPerExchange> sent;
  MeasuredSpan span;
  double slowest = 0.0;  // the slowest rank's span of the measured iterations (compare_barrier's P_D)
  std::int64_t stamp_errors = 0, disorder = 0;
  const ClockMap to_common(RankClock::exact(), origin);  // one simulated clock for every rank
  for (int r = 0; r < ranks; ++r) {
    const auto i = static_cast<std::size_t>(r);
    const sim::RankWork& w = prog.ranks[i];
    results.emplace_back(std::move(o.timeline[i]));
    WorkloadResult& res = results.back();
    res.timeline.to_common(to_common);
    if (!o.message_logs.empty()) {
      res.messages = o.message_logs[i];
      res.messages->to_common(to_common);
    }
    res.stop_signal = o.stop_signal;
    res.work_phase = prog.work_phase;
    res.composites = prog.composites;
    res.mpi_phases = prog.mpi_phases;
    res.bytes_per_iteration = w.bytes_per_iteration;
    res.flops_per_iteration = w.flops_per_iteration;
    res.partners = w.partners;
    res.messages_checked = o.messages[i];
    res.message_errors = o.stamp_errors[i];
    stamp_errors += o.stamp_errors[i];
    res.parked = w.parked;  // asleep ([placement] active_ppn): NaN rows, as a real parked rank's
    if (!w.parked) disorder += timeline_disorder(res.timeline);
    topos.push_back(virtual_topology(platform, hosts.place[i]));
    std::vector<std::vector<double>> durations = phase_durations(res.timeline, layout);  // one pass per rank
    shares.push_back(mpi_share(durations, layout, prog.mpi_phases));
    cers.push_back(comm_to_exec(phase_total(durations, layout, "comm"), phase_total(durations, layout, "exec")));
    stats.push_back(phase_stats(std::move(durations)));
    bytes.push_back(w.bytes_per_iteration);
    sent.push_back(sent_per_exchange(w.partners, cfg.comm.fragment_bytes));
    const MeasuredSpan s = measured_span(res.timeline);
    slowest = slowest_span(slowest, s);
    if (!std::isnan(s.first)) span.first = std::isnan(span.first) ? s.first : std::min(span.first, s.first);
    if (!std::isnan(s.last)) span.last = std::isnan(span.last) ? s.last : std::max(span.last, s.last);
  }
  for (const Timeline& tl : o.paired) disorder += timeline_disorder(tl);
  const std::int64_t done = results.front().timeline.iterations();
  if (o.stop_signal != 0)
    log::warn("stopped by {} after {} of {} iterations; writing what was simulated, marked incomplete\n",
              signal_name(o.stop_signal), done, prog.iterations);
  const RunMetrics metrics = combine_metrics(layout, prog.work_phase, std::move(stats), std::move(bytes), span,
                                             std::max<std::int64_t>(0, done - prog.warmup));
  const CommBalance bal = combine_comm_balance(std::move(shares), sent);
  for (int r = 0; r < ranks; ++r) {
    const auto i = static_cast<std::size_t>(r);
    WorkloadResult& res = results[i];
    res.datasets = prog.datasets;
    res.datasets.insert(res.datasets.end(), prog.ranks[i].datasets.begin(), prog.ranks[i].datasets.end());
    record_comm_balance(res, bal, i);
  }
  // The halo workloads' communication-to-execution ratio (papers.md A.5, Table 4) under the real
  // run's name and definition (workload/halo_metrics.cpp): per rank, summed comm over summed exec
  // time of the measured iterations; the median over ranks.
  if (layout.index("exec") >= 0 && layout.index("comm") >= 0) {
    const NamedValue cer{"cer_median", min_med_max(cers).median, "1"};
    for (WorkloadResult& res : results) res.metrics.push_back(cer);
  }
  if (prog.results) {
    std::vector<const Timeline*> timelines;
    for (const WorkloadResult& res : results) timelines.push_back(&res.timeline);
    WorkloadResult own(Timeline({}, 0, 0));
    prog.results(timelines, own);
    for (WorkloadResult& res : results) {
      res.datasets.insert(res.datasets.end(), own.datasets.begin(), own.datasets.end());
      res.metrics.insert(res.metrics.end(), own.metrics.begin(), own.metrics.end());
    }
    results.front().report = own.report;
  }
  if (!prog.paired_steps.empty()) {
    const std::vector<NamedValue> m =
        paired_metrics(cfg, prog, slowest, std::max<std::int64_t>(0, done - prog.warmup), o.paired, o.paired_complete,
                       sim::modelled_sync_cost(platform, ranks));
    for (WorkloadResult& res : results) res.metrics.insert(res.metrics.end(), m.begin(), m.end());
  }

  // What a simulated file says about itself (docs/output.md, "Simulated runs").
  Provenance prov = real_prov;
  prov.mpi_library_version = "none: simulated with SimGrid " + simgrid_version();
  prov.execution_space = "simulated";
  mpi.text = fmt::format("simulated: eager_limit_intra = {}\nsimulated: eager_limit_inter = {}\n", platform.eager_limit_intra,
                         platform.eager_limit_inter);
  mpi.thread_level = "simulated";
  SimulationRecord simrec;
  simrec.platform_text = platform.text;
  simrec.platform_resolved = platform.resolved;
  simrec.model = model_text(cfg, platform, prog);
  simrec.simgrid_version = simgrid_version();
  for (std::size_t d = 0; d < hosts.memory.size(); ++d) {
    simrec.b1.push_back(platform.b1);
    simrec.b_saturated.push_back(platform.domain_bandwidth(platform.cores_per_domain));
    simrec.saturation_point.push_back(platform.saturation_point());
  }
  simrec.wall_time = wall;

  const std::int64_t errors = stamp_errors + disorder;
  std::string verification = "passed";
  if (errors > 0)
    verification = fmt::format("failed: {} messages from the wrong iteration, {} timeline events missing or out of order",
                               stamp_errors, disorder);
  std::vector<RankRecord> rows;
  rows.reserve(results.size());
  for (int r = 0; r < ranks; ++r) rows.push_back({&topos[static_cast<std::size_t>(r)], RankClock::exact(), &results[static_cast<std::size_t>(r)]});
  RunRecord rec{cfg, prov, std::move(rows), metrics, verification, errors, planned_iterations(cfg, ranks), mpi, &simrec, nullptr,
                phase_styles(cfg, metrics.layout.names, prog.work_phase), workload_module(cfg.run.workload).deck.collective};
  commit_output(out.path, temporary_output_path(out.path, comm), rec, out.overwrite, comm);

  log::info("{}", summary_table(metrics, results.front().metrics, std::max<std::int64_t>(0, done - prog.warmup), verification, out.path,
                                "simulated on platform " + platform.name + " (" + platform.path + ")\n"));
  if (!results.front().report.empty()) log::info("\n{}", results.front().report);
  if (o.stop_signal != 0) return exit_interrupted;
  return errors == 0 ? exit_ok : exit_verification_failed;
}

}  // namespace desync
