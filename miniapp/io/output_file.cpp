#include "io/output_file.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <thread>

#include "core/errors.hpp"
#include "core/log.hpp"
#include "core/mpi_util.hpp"
#include "core/stop_request.hpp"
#include "io/h5.hpp"
#include "record/record_window.hpp"

namespace desync {
namespace {

using h5::Context;

const WorkloadResult& first(const RunRecord& r) { return *r.rows.front().result; }

// This process's rows of one per-rank value, concatenated in row order.
template <class T, class F>
std::vector<T> each_row(const RunRecord& r, F value) {
  std::vector<T> v;
  v.reserve(r.rows.size());
  for (const RankRecord& row : r.rows) v.push_back(static_cast<T>(value(row)));
  return v;
}

// The longest of the rows' lengths over every process: the width of padded per-rank datasets.
long long longest(long long mine, MPI_Comm comm) {
  MPI_Allreduce(MPI_IN_PLACE, &mine, 1, MPI_LONG_LONG, MPI_MAX, comm);
  return mine;
}

// One rank's row padded to m with `fill` (-1, 0 or NaN: no event), appended to out.
template <class T>
void append_padded(std::vector<T>& out, const std::vector<T>& v, long long m, T fill) {
  out.insert(out.end(), v.begin(), v.end());
  out.insert(out.end(), static_cast<std::size_t>(m) - v.size(), fill);
}

void write_root(const Context& c, hid_t file, const RunRecord& r) {
  h5::attr(c, file, "format", std::string("desync-output"));
  h5::attr(c, file, "format_version", std::int64_t{output_format_version});
  h5::attr(c, file, "verification", r.verification);
  if (!first(r).verification_scope.empty()) h5::attr(c, file, "verification_scope", first(r).verification_scope);
  h5::attr(c, file, "workload", r.cfg.run.workload);
  h5::attr(c, file, "collective", std::int64_t{r.collective ? 1 : 0});
  h5::attr(c, file, "desync_version", r.prov.desync_version);
  h5::attr(c, file, "git_revision", r.prov.git_revision);
  h5::attr(c, file, "compiler", r.prov.compiler);
  h5::attr(c, file, "build", r.prov.build);
  h5::attr(c, file, "kokkos_version", r.prov.kokkos_version);
  h5::attr(c, file, "execution_space", r.prov.execution_space);
  h5::attr(c, file, "mpi_library_version", r.prov.mpi_library_version);
  h5::attr(c, file, "mpi_thread_level", r.mpi.thread_level);
  h5::attr(c, file, "eager_limit_declared", r.cfg.comm.eager_limit);
  h5::attr(c, file, "gpu_aware_mpi", std::string(enum_name(gpu_aware_mpi_names, r.cfg.comm.gpu_aware_mpi)));
  if (r.gpu_aware) {
    h5::attr(c, file, "gpu_aware_mpi_effective", std::string(gpu_aware_effective_name(*r.gpu_aware)));
    h5::attr(c, file, "gpu_aware_mpi_detected", r.gpu_aware->detected);
    h5::attr(c, file, "device_memory", std::int64_t{r.gpu_aware->device_memory ? 1 : 0});
  }
  h5::attr(c, file, "start_time", r.prov.start_time);
  h5::attr(c, file, "command_line", r.prov.command_line);
  h5::attr(c, file, "ranks", static_cast<std::int64_t>(c.rows));
  // From the timeline: a module's own steps (WorkloadDeck::steps) may differ from [run] iterations.
  const Timeline& tl = first(r).timeline;
  h5::attr(c, file, "iterations", tl.iterations() - tl.warmup());
  h5::attr(c, file, "warmup_iterations", tl.warmup());
  // A run stopped by a signal keeps what it recorded; readers check `complete` first.
  const int stop = first(r).stop_signal;
  h5::attr(c, file, "complete", std::int64_t{stop == 0 && !r.flushed ? 1 : 0});
  h5::attr(c, file, "stop_signal", stop == 0 ? std::string() : signal_name(stop));
  h5::attr(c, file, "iterations_planned", r.iterations_planned);
  h5::attr(c, file, "last_iteration", tl.iterations() - tl.warmup() - 1);
  // Absent in real runs: readers treat a missing attribute as 0.
  if (r.simulation) h5::attr(c, file, "simulated", std::int64_t{1});
  // Written while the run ran (OUT.partial, docs/output.md): what it had done at that moment.
  if (r.flushed) h5::attr(c, file, "flushed", std::int64_t{1});
}

void write_simulation(const Context& c, hid_t file, const SimulationRecord& s) {
  h5::Handle g = h5::create_group(c, file, "simulation");
  h5::global_text(c, g, "platform_text", s.platform_text);
  h5::global_text(c, g, "platform_resolved", s.platform_resolved);
  h5::global_text(c, g, "model", s.model);
  h5::global_text(c, g, "simgrid_version", s.simgrid_version);
  const hsize_t domains = s.b1.size();
  h5::global(c, g, "b1", {domains}, s.b1, "B/s");
  h5::global(c, g, "b_saturated", {domains}, s.b_saturated, "B/s");
  h5::global(c, g, "saturation_point", {domains}, s.saturation_point, "1");
  h5::global_scalar(c, g, "wall_time", s.wall_time, "s");
}

void write_config(const Context& c, hid_t file, const RunRecord& r) {
  h5::Handle g = h5::create_group(c, file, "config");
  h5::global_text(c, g, "deck_text", r.cfg.deck_text);
  h5::global_text(c, g, "resolved", r.cfg.resolved_toml);
  std::string overrides;
  for (const auto& o : r.cfg.overrides) overrides += o + "\n";
  h5::global_text(c, g, "overrides", overrides);
  // A replayed noise file: the run is reproducible from the output file alone.
  if (r.cfg.noise.table) h5::global_text(c, g, "noise_file", r.cfg.noise.table->text);

  h5::Handle p = h5::create_group(c, file, "provenance");
  h5::global_text(c, p, "environment", r.prov.environment);
  h5::global_text(c, p, "kokkos_configuration", r.prov.kokkos_configuration);
  h5::global_text(c, p, "allocator", r.prov.allocator);
  h5::global_text(c, p, "mpi_eager", r.mpi.text);
  h5::global_text(c, p, "hwloc_version", r.rows.front().topo->hwloc_version);
  h5::global_text_list(c, p, "hwloc_xml", r.rows.front().topo->hwloc_xml);
  if (r.simulation) write_simulation(c, file, *r.simulation);
}

void write_topology(const Context& c, hid_t file, const RunRecord& r) {
  const Topology& t0 = *r.rows.front().topo;
  h5::Handle g = h5::create_group(c, file, "topology");
  std::string warnings;
  for (const auto& w : t0.warnings) warnings += w + "\n";
  h5::attr(c, g, "warnings", warnings);
  // How /topology/threads came about: the deck's count, the domain rule, or OMP_NUM_THREADS/default.
  h5::attr(c, g, "threads_rule", std::string(r.cfg.threads.per_domain ? "domain" : r.cfg.threads.per_rank > 0 ? "per_rank" : "environment"));
  h5::rank_text(c, g, "hostname", each_row<std::string>(r, [](const RankRecord& x) { return x.topo->hostname; }));
  h5::rows(c, g, "node_index", {}, each_row<std::int32_t>(r, [](const RankRecord& x) { return x.topo->node_index; }), "1");
  h5::rows(c, g, "ranks_on_node", {}, each_row<std::int32_t>(r, [](const RankRecord& x) { return x.topo->ranks_on_node; }), "1");
  h5::rows(c, g, "threads", {}, each_row<std::int32_t>(r, [](const RankRecord& x) { return x.topo->threads; }), "1");
  h5::rank_text(c, g, "device", each_row<std::string>(r, [](const RankRecord& x) { return x.topo->device; }));
  h5::rank_text(c, g, "process_cpuset", each_row<std::string>(r, [](const RankRecord& x) { return x.topo->process_cpuset; }));
  h5::rank_text(c, g, "cpu_frequency", each_row<std::string>(r, [](const RankRecord& x) { return x.topo->cpu_frequency; }));
  h5::rows(c, g, "hwloc_xml_index", {}, each_row<std::int32_t>(r, [](const RankRecord& x) { return x.topo->hwloc_xml_index; }), "1");
  h5::rows(c, g, "contention_domain", {}, each_row<std::int32_t>(r, [](const RankRecord& x) { return x.topo->contention_domain; }), "1");
  h5::rows(c, g, "clock_offset", {}, each_row<double>(r, [](const RankRecord& x) { return x.clock.start.offset; }), "s");
  h5::rows(c, g, "clock_offset_error", {}, each_row<double>(r, [](const RankRecord& x) { return x.clock.start.error; }), "s");
  h5::rows(c, g, "clock_offset_end", {}, each_row<double>(r, [](const RankRecord& x) { return x.clock.end.offset; }), "s");
  h5::rows(c, g, "clock_offset_end_error", {}, each_row<double>(r, [](const RankRecord& x) { return x.clock.end.error; }), "s");
  h5::rows(c, g, "clock_offset_at", {}, each_row<double>(r, [](const RankRecord& x) { return x.clock.start.at; }), "s");
  h5::rows(c, g, "clock_offset_end_at", {}, each_row<double>(r, [](const RankRecord& x) { return x.clock.end.at; }), "s");
  h5::rows(c, g, "clock_drift", {}, each_row<double>(r, [](const RankRecord& x) { return x.clock.drift; }), "s/s");

  long long tmax = 0;
  for (const RankRecord& x : r.rows) tmax = std::max<long long>(tmax, x.topo->threads);
  tmax = longest(tmax, c.comm);
  std::vector<std::string> cpuset;
  std::vector<std::int32_t> last, pkg, numa, l3;
  for (const RankRecord& x : r.rows) {
    const auto n = static_cast<std::size_t>(tmax);
    const std::size_t base = last.size();
    cpuset.resize(base + n);
    last.resize(base + n, -1);
    pkg.resize(base + n, -1);
    numa.resize(base + n, -1);
    l3.resize(base + n, -1);
    for (std::size_t i = 0; i < x.topo->thread.size() && i < n; ++i) {
      const ThreadPlace& p = x.topo->thread[i];
      cpuset[base + i] = p.cpuset;
      last[base + i] = p.last_cpu;
      pkg[base + i] = p.package;
      numa[base + i] = p.numa;
      l3[base + i] = p.l3;
    }
  }
  const std::vector<hsize_t> row{static_cast<hsize_t>(tmax)};
  h5::rows_text(c, g, "thread_cpuset", cpuset);
  h5::rows(c, g, "thread_last_cpu", row, last, "1");
  h5::rows(c, g, "thread_package", row, pkg, "1");
  h5::rows(c, g, "thread_numa", row, numa, "1");
  h5::rows(c, g, "thread_l3", row, l3, "1");
}

void write_timeline(const Context& c, hid_t file, const RunRecord& r, const KeptRows& kept) {
  const Timeline& tl = first(r).timeline;
  h5::Handle g = h5::create_group(c, file, "timeline");
  const auto rows = static_cast<hsize_t>(kept.all ? tl.iterations() : static_cast<std::int64_t>(kept.row.size()));
  std::vector<double> events;
  for (const RankRecord& x : r.rows) {
    const std::vector<double> mine = kept_events(x.result->timeline, kept);
    events.insert(events.end(), mine.begin(), mine.end());
  }
  h5::rows(c, g, "events", {rows, static_cast<hsize_t>(tl.events())}, events, "s");
  {
    h5::Handle d = h5::open_dataset(c, g, "events");
    h5::attr(c, d, "event_names", tl.event_names());
  }
  std::vector<std::uint8_t> warm;
  std::vector<std::int64_t> number;
  for (std::int64_t i = 0; i < tl.iterations(); ++i) {
    if (!kept.all && !std::binary_search(kept.row.begin(), kept.row.end(), i)) continue;
    warm.push_back(i < tl.warmup() ? 1 : 0);
    number.push_back(tl.number(i));
  }
  h5::global(c, g, "warmup", {warm.size()}, warm, "1");
  // The deck's number of every stored row: with [record] window/stride the rows are a selection.
  h5::global(c, g, "iteration", {number.size()}, number, "1");
  h5::attr(c, g, "recorded_iterations", static_cast<std::int64_t>(tl.iterations()));
  h5::attr(c, g, "record_stride", static_cast<std::int64_t>(r.cfg.record.stride));
}

void write_comm(const Context& c, hid_t file, const RunRecord& r) {
  h5::Handle g = h5::create_group(c, file, "comm");
  long long k = 0;
  for (const RankRecord& x : r.rows)
    k = std::max<long long>(k, static_cast<long long>(std::max(x.result->partners.send_rank.size(), x.result->partners.recv_rank.size())));
  k = longest(k, c.comm);
  std::vector<std::int32_t> send_rank, recv_rank;
  std::vector<std::int64_t> send_bytes, recv_bytes;
  for (const RankRecord& x : r.rows) {
    const PartnerList& pl = x.result->partners;
    append_padded(send_rank, std::vector<std::int32_t>(pl.send_rank.begin(), pl.send_rank.end()), k, std::int32_t{-1});
    append_padded(recv_rank, std::vector<std::int32_t>(pl.recv_rank.begin(), pl.recv_rank.end()), k, std::int32_t{-1});
    append_padded(send_bytes, pl.send_bytes, k, std::int64_t{0});
    append_padded(recv_bytes, pl.recv_bytes, k, std::int64_t{0});
  }
  const std::vector<hsize_t> row{static_cast<hsize_t>(k)};
  h5::rows(c, g, "send_partner", row, send_rank, "1");
  h5::rows(c, g, "recv_partner", row, recv_rank, "1");
  h5::rows(c, g, "send_bytes", row, send_bytes, "B");
  h5::rows(c, g, "recv_bytes", row, recv_bytes, "B");
}

// The workload's own datasets (WorkloadResult::datasets), each group opened or created once. Every
// row lists the same datasets in the same order; a per-rank one concatenates the rows' values.
void write_workload_datasets(const Context& c, hid_t file, const RunRecord& r) {
  const std::vector<WorkloadDataset>& list = first(r).datasets;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const WorkloadDataset& d = list[i];
    h5::Handle g = h5::group_exists(file, d.group) ? h5::open_group(c, file, d.group) : h5::create_group(c, file, d.group);
    const std::vector<hsize_t> dims(d.dims.begin(), d.dims.end());
    const char* units = d.units.c_str();
    std::vector<double> values = d.values;
    if (d.per_rank)
      for (std::size_t row = 1; row < r.rows.size(); ++row) {
        const std::vector<double>& more = r.rows[row].result->datasets.at(i).values;
        values.insert(values.end(), more.begin(), more.end());
      }
    if (d.integer) {
      const std::vector<std::int64_t> v(values.begin(), values.end());
      if (d.per_rank) h5::rows(c, g, d.name, dims, v, units);
      else h5::global(c, g, d.name, dims, v, units);
    } else {
      if (d.per_rank) h5::rows(c, g, d.name, dims, values, units);
      else h5::global(c, g, d.name, dims, values, units);
    }
  }
}

// The kept events of every row of one log type (/messages or /collectives): which of each row's
// events fall in kept iterations, how many, and the padded row width over all processes.
template <class Log>
struct KeptEvents {
  std::vector<const Log*> log;                // per row; an empty log for a row without one
  std::vector<std::vector<std::uint8_t>> in;  // per row and event
  std::vector<std::int64_t> n, outside, dropped;
  long long width = 0;

  // One padded [rows, width] column: `field` of every row's kept events, `fill` beyond.
  template <class F, class T>
  std::vector<T> column(F field, T fill) const {
    std::vector<T> out;
    for (std::size_t i = 0; i < log.size(); ++i) append_padded(out, select(field(*log[i]), in[i]), width, fill);
    return out;
  }
};

template <class Log, class Get>
KeptEvents<Log> kept_events_of(const Context& c, const RunRecord& r, const KeptRows& kept, Get get, const Log& empty) {
  KeptEvents<Log> k;
  for (const RankRecord& x : r.rows) {
    const Log* log = get(*x.result) ? get(*x.result).get() : &empty;
    k.log.push_back(log);
    k.in.push_back(kept_by_time(x.result->timeline, kept, log->post()));
    k.n.push_back(static_cast<std::int64_t>(std::count(k.in.back().begin(), k.in.back().end(), std::uint8_t{1})));
    k.outside.push_back(log->count() - k.n.back());
    k.dropped.push_back(log->dropped());
    k.width = std::max<long long>(k.width, k.n.back());
  }
  k.width = longest(k.width, c.comm);
  return k;
}

// Whether any row of any process has the log (collective).
bool any_row_has(const Context& c, const RunRecord& r, bool (*has)(const WorkloadResult&)) {
  int any = 0;
  for (const RankRecord& x : r.rows) any |= has(*x.result) ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &any, 1, MPI_INT, MPI_MAX, c.comm);
  return any != 0;
}

// /messages: every rank's message events, rows padded to the longest with -1 / NaN.
void write_messages(const Context& c, hid_t file, const RunRecord& r, const KeptRows& kept) {
  if (!any_row_has(c, r, [](const WorkloadResult& x) { return x.messages != nullptr; })) return;
  static const MessageLog empty(0);
  const auto k = kept_events_of(c, r, kept, [](const WorkloadResult& x) -> const auto& { return x.messages; }, empty);
  h5::Handle g = h5::create_group(c, file, "messages");
  const std::vector<hsize_t> row{static_cast<hsize_t>(k.width)};
  h5::rows(c, g, "count", {}, k.n, "1");
  h5::rows(c, g, "outside_window", {}, k.outside, "1");
  h5::rows(c, g, "dropped", {}, k.dropped, "1");
  h5::rows(c, g, "peer", row, k.column([](const MessageLog& l) { return l.peer(); }, std::int32_t{-1}), "1");
  h5::rows(c, g, "bytes", row, k.column([](const MessageLog& l) { return l.bytes(); }, std::int64_t{0}), "B");
  h5::rows(c, g, "communicator", row, k.column([](const MessageLog& l) { return l.comm(); }, std::int32_t{-1}), "1");
  h5::rows(c, g, "tag", row, k.column([](const MessageLog& l) { return l.tag(); }, std::int32_t{-1}), "1");
  h5::rows(c, g, "send", row, k.column([](const MessageLog& l) { return l.send(); }, std::uint8_t{0}), "1");
  h5::rows(c, g, "post", row, k.column([](const MessageLog& l) { return l.post(); }, std::nan("")), "s");
  h5::rows(c, g, "done", row, k.column([](const MessageLog& l) { return l.done(); }, std::nan("")), "s");
}

// /collectives: every rank's collective events, rows padded to the longest with -1 / NaN.
void write_collectives(const Context& c, hid_t file, const RunRecord& r, const KeptRows& kept) {
  if (!any_row_has(c, r, [](const WorkloadResult& x) { return x.collectives != nullptr; })) return;
  static const CollectiveLog empty(0, {});
  const auto k = kept_events_of(c, r, kept, [](const WorkloadResult& x) -> const auto& { return x.collectives; }, empty);
  h5::Handle g = h5::create_group(c, file, "collectives");
  // The family names are the same on every rank (rank 0 always runs the kernel).
  std::vector<std::string> families = k.log.front()->families();
  std::string joined;
  for (const auto& f : families) joined += f + "\n";
  bcast_string(joined, 0, c.comm);
  families.clear();
  for (std::size_t b = 0, e; (e = joined.find('\n', b)) != std::string::npos; b = e + 1) families.push_back(joined.substr(b, e - b));
  h5::attr(c, g, "families", families);
  h5::attr(c, g, "kinds", std::vector<std::string>{"", "bcast", "reduce", "allreduce", "send", "recv"});
  const std::vector<hsize_t> row{static_cast<hsize_t>(k.width)};
  h5::rows(c, g, "count", {}, k.n, "1");
  h5::rows(c, g, "outside_window", {}, k.outside, "1");
  h5::rows(c, g, "dropped", {}, k.dropped, "1");
  h5::rows(c, g, "kind", row, k.column([](const CollectiveLog& l) { return l.kind(); }, std::uint8_t{0}), "1");
  h5::rows(c, g, "family", row, k.column([](const CollectiveLog& l) { return l.family(); }, std::int32_t{-1}), "1");
  h5::rows(c, g, "dup", row, k.column([](const CollectiveLog& l) { return l.dup(); }, std::int32_t{-1}), "1");
  h5::rows(c, g, "root", row, k.column([](const CollectiveLog& l) { return l.root(); }, std::int32_t{-1}), "1");
  h5::rows(c, g, "bytes", row, k.column([](const CollectiveLog& l) { return l.bytes(); }, std::int64_t{0}), "B");
  h5::rows(c, g, "post", row, k.column([](const CollectiveLog& l) { return l.post(); }, std::nan("")), "s");
  h5::rows(c, g, "posted", row, k.column([](const CollectiveLog& l) { return l.posted(); }, std::nan("")), "s");
  h5::rows(c, g, "done", row, k.column([](const CollectiveLog& l) { return l.done(); }, std::nan("")), "s");
}

void write_summary(const Context& c, hid_t file, const RunRecord& r) {
  const RunMetrics& m = r.metrics;
  h5::Handle g = h5::create_group(c, file, "summary");
  std::vector<double> stats, bytes, bandwidth;
  for (hsize_t i = 0; i < c.row_count; ++i) {
    const auto rank = static_cast<std::size_t>(c.first_row + i);
    for (const auto& s : m.all[rank]) stats.insert(stats.end(), {s.min, s.median, s.max});
    bytes.push_back(m.bytes_per_iteration[rank]);
    bandwidth.push_back(m.bandwidth[rank]);
  }
  h5::rows(c, g, "phase_stats", {m.layout.names.size(), 3}, stats, "s");
  {
    h5::Handle d = h5::open_dataset(c, g, "phase_stats");
    h5::attr(c, d, "phase_names", m.layout.names);
    h5::attr(c, d, "stat_names", std::vector<std::string>{"min", "median", "max"});
  }
  h5::rows(c, g, "bytes_per_iteration", {}, bytes, "B");
  h5::rows(c, g, "bandwidth", {}, bandwidth, "B/s");
}

// /phases: what each phase of /summary's phase_names is, so the tools need no list of their own
// (docs/output.md).
void write_phases(const Context& c, hid_t file, const RunRecord& r) {
  if (r.phases.size() != r.metrics.layout.names.size())
    throw std::logic_error("write_output: the phase styles do not match the phase layout");
  h5::Handle g = h5::create_group(c, file, "phases");
  std::vector<std::string> name, cls, colour, label;
  for (const auto& p : r.phases) {
    name.push_back(p.name);
    cls.push_back(phase_class_name(p.cls));
    colour.push_back(p.colour);
    label.push_back(p.label);
  }
  h5::global_text_list(c, g, "name", name);
  h5::global_text_list(c, g, "class", cls);
  h5::global_text_list(c, g, "colour", colour);
  h5::global_text_list(c, g, "label", label);
}

void write_metrics(const Context& c, hid_t file, const RunRecord& r) {
  const RunMetrics& m = r.metrics;
  h5::Handle g = h5::create_group(c, file, "metrics");
  h5::global_scalar(c, g, "total_time", m.total_time, "s");
  h5::global_scalar(c, g, "aggregate_bandwidth", m.aggregate_bandwidth, "B/s");
  h5::global_scalar(c, g, "effective_bandwidth", m.effective_bandwidth, "B/s");
  h5::global_scalar(c, g, "verification_errors", r.verification_errors, "1");
  std::vector<double> over;
  std::vector<std::int32_t> argmin, argmax;
  for (const auto& o : m.over_ranks) {
    over.insert(over.end(), {o.stat.min, o.stat.median, o.stat.max});
    argmin.push_back(o.argmin);
    argmax.push_back(o.argmax);
  }
  for (const auto& v : first(r).metrics) {
    if (v.count)
      h5::global_scalar(c, g, v.name, static_cast<std::int64_t>(v.value), v.units.c_str());
    else
      h5::global_scalar(c, g, v.name, v.value, v.units.c_str());
  }
  const auto f = static_cast<hsize_t>(m.layout.names.size());
  h5::global(c, g, "phase_over_ranks", {f, 3}, over, "s");
  h5::global(c, g, "phase_argmin_rank", {f}, argmin, "1");
  h5::global(c, g, "phase_argmax_rank", {f}, argmax, "1");
  for (const char* name : {"phase_over_ranks", "phase_argmin_rank", "phase_argmax_rank"}) {
    h5::Handle d = h5::open_dataset(c, g, name);
    h5::attr(c, d, "phase_names", m.layout.names);
  }
}

// A real run: one row per MPI rank. A simulation: this single process writes every virtual rank.
Context context_for(const RunRecord& rec, MPI_Comm comm) {
  return rec.rows.size() == 1 ? h5::mpi_context(comm) : h5::virtual_ranks_context(comm, rec.rows.size());
}
}  // namespace

KeptRows kept_rows_for(const Timeline& tl, const RecordConfig& rw) {
  return rw.filters_rows() ? kept_rows(tl.iterations(), tl.planned_warmup(), rw.window_begin, rw.window_end, rw.stride)
                                          : KeptRows{};
}

void write_output(const std::string& path, const RunRecord& rec, MPI_Comm comm, double pause_before_close) {
  const Context c = context_for(rec, comm);
  h5::Handle file = h5::create_file(c, path);
  write_root(c, file, rec);
  write_config(c, file, rec);
  write_topology(c, file, rec);
  const Timeline& tl = rec.rows.front().result->timeline;
  const KeptRows kept = kept_rows_for(tl, rec.cfg.record);
  // Only where it says something: a window the user gave, reaching past a run that did all its
  // iterations (a flush or a stopped run has fewer rows by design), or a stopped run's window
  // that kept none of them.
  const bool stopped = rec.rows.front().result->stop_signal != 0;
  if (!kept.clipped.empty() && rec.cfg.record.window_given && !rec.flushed && (!stopped || kept.row.empty()))
    log::warn("{}\n", kept.clipped);
  write_timeline(c, file, rec, kept);
  write_comm(c, file, rec);
  write_messages(c, file, rec, kept);
  write_collectives(c, file, rec, kept);
  write_summary(c, file, rec);
  write_phases(c, file, rec);
  write_metrics(c, file, rec);
  write_workload_datasets(c, file, rec);  // last: into groups above or new ones
  if (pause_before_close > 0) std::this_thread::sleep_for(std::chrono::duration<double>(pause_before_close));
  h5::close_file(c, file);
}

}  // namespace desync
