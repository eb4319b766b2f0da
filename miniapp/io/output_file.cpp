#include "io/output_file.hpp"

#include "record/record_window.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include "core/disk_space.hpp"
#include "core/errors.hpp"
#include "core/log.hpp"
#include "core/memory.hpp"
#include "core/stop_request.hpp"

#include "core/mpi_util.hpp"
#include "io/h5.hpp"

namespace desync {
namespace {

using h5::Context;

void write_root(const Context& c, hid_t file, const RunRecord& r) {
  h5::attr(c, file, "format", std::string("desync-output"));
  h5::attr(c, file, "format_version", std::int64_t{output_format_version});
  h5::attr(c, file, "verification", r.verification);
  h5::attr(c, file, "workload", std::string(enum_name(workload_names, r.cfg.run.workload)));
  h5::attr(c, file, "desync_version", r.prov.desync_version);
  h5::attr(c, file, "git_revision", r.prov.git_revision);
  h5::attr(c, file, "compiler", r.prov.compiler);
  h5::attr(c, file, "kokkos_version", r.prov.kokkos_version);
  h5::attr(c, file, "execution_space", r.prov.execution_space);
  h5::attr(c, file, "mpi_library_version", r.prov.mpi_library_version);
  h5::attr(c, file, "mpi_thread_level", r.mpi.thread_level);
  h5::attr(c, file, "eager_limit_declared", r.cfg.comm.eager_limit);
  h5::attr(c, file, "start_time", r.prov.start_time);
  h5::attr(c, file, "command_line", r.prov.command_line);
  h5::attr(c, file, "ranks", std::int64_t{c.size});
  // From the timeline: ChebFD's iterations are its degree steps, not [run] iterations.
  h5::attr(c, file, "iterations", r.result.timeline.iterations() - r.result.timeline.warmup());
  h5::attr(c, file, "warmup_iterations", r.result.timeline.warmup());
  // A run stopped by a signal keeps what it recorded; readers check `complete` first.
  const bool complete = r.result.stop_signal == 0;
  h5::attr(c, file, "complete", std::int64_t{complete ? 1 : 0});
  h5::attr(c, file, "stop_signal", complete ? std::string() : signal_name(r.result.stop_signal));
  h5::attr(c, file, "iterations_planned", r.iterations_planned);
  h5::attr(c, file, "last_iteration", r.result.timeline.iterations() - r.result.timeline.warmup() - 1);
}

void write_config(const Context& c, hid_t file, const RunRecord& r) {
  h5::Handle g = h5::create_group(c, file, "config");
  h5::global_text(c, g, "deck_text", r.cfg.deck_text);
  h5::global_text(c, g, "resolved", r.cfg.resolved_toml);
  std::string overrides;
  for (const auto& o : r.cfg.overrides) overrides += o + "\n";
  h5::global_text(c, g, "overrides", overrides);

  h5::Handle p = h5::create_group(c, file, "provenance");
  h5::global_text(c, p, "environment", r.prov.environment);
  h5::global_text(c, p, "kokkos_configuration", r.prov.kokkos_configuration);
  h5::global_text(c, p, "mpi_eager", r.mpi.text);
  h5::global_text(c, p, "hwloc_version", r.topo.hwloc_version);
}

void write_topology(const Context& c, hid_t file, const RunRecord& r) {
  const Topology& t = r.topo;
  h5::Handle g = h5::create_group(c, file, "topology");
  std::string warnings;
  for (const auto& w : t.warnings) warnings += w + "\n";
  h5::attr(c, g, "warnings", warnings);
  // How /topology/threads came about: the deck's count, the domain rule, or OMP_NUM_THREADS/default.
  h5::attr(c, g, "threads_rule", std::string(r.cfg.threads.per_domain ? "domain" : r.cfg.threads.per_rank > 0 ? "per_rank" : "environment"));
  h5::rank_text(c, g, "hostname", t.hostname);
  h5::rows<std::int32_t>(c, g, "node_index", {}, {t.node_index}, "1");
  h5::rows<std::int32_t>(c, g, "ranks_on_node", {}, {t.ranks_on_node}, "1");
  h5::rows<std::int32_t>(c, g, "threads", {}, {t.threads}, "1");
  h5::rank_text(c, g, "process_cpuset", t.process_cpuset);
  h5::rows<std::int32_t>(c, g, "contention_domain", {}, {t.contention_domain}, "1");
  h5::rows<double>(c, g, "clock_offset", {}, {r.clock.offset}, "s");
  h5::rows<double>(c, g, "clock_offset_error", {}, {r.clock.error}, "s");

  int tmax = t.threads;
  MPI_Allreduce(MPI_IN_PLACE, &tmax, 1, MPI_INT, MPI_MAX, c.comm);
  std::vector<std::string> cpuset(static_cast<std::size_t>(tmax));
  std::vector<std::int32_t> last(cpuset.size(), -1), pkg(cpuset.size(), -1), numa(cpuset.size(), -1),
      l3(cpuset.size(), -1);
  for (std::size_t i = 0; i < t.thread.size(); ++i) {
    cpuset[i] = t.thread[i].cpuset;
    last[i] = t.thread[i].last_cpu;
    pkg[i] = t.thread[i].package;
    numa[i] = t.thread[i].numa;
    l3[i] = t.thread[i].l3;
  }
  const std::vector<hsize_t> row{static_cast<hsize_t>(tmax)};
  h5::rows_text(c, g, "thread_cpuset", cpuset);
  h5::rows(c, g, "thread_last_cpu", row, last, "1");
  h5::rows(c, g, "thread_package", row, pkg, "1");
  h5::rows(c, g, "thread_numa", row, numa, "1");
  h5::rows(c, g, "thread_l3", row, l3, "1");
}

void write_timeline(const Context& c, hid_t file, const RunRecord& r, const KeptRows& kept) {
  const Timeline& tl = r.result.timeline;
  h5::Handle g = h5::create_group(c, file, "timeline");
  const auto rows = static_cast<hsize_t>(kept.all ? tl.iterations() : static_cast<std::int64_t>(kept.row.size()));
  h5::rows(c, g, "events", {rows, static_cast<hsize_t>(tl.events())}, kept_events(tl, kept), "s");
  {
    h5::Handle d = h5::open_dataset(c, g, "events");
    h5::attr(c, d, "event_names", tl.event_names());
  }
  std::vector<std::uint8_t> warm;
  std::vector<std::int64_t> number;
  for (std::int64_t i = 0; i < tl.iterations(); ++i) {
    if (!kept.all && !std::binary_search(kept.row.begin(), kept.row.end(), i)) continue;
    warm.push_back(i < tl.warmup() ? 1 : 0);
    number.push_back(i - tl.warmup());
  }
  h5::global(c, g, "warmup", {warm.size()}, warm, "1");
  // The deck's number of every stored row: with [record] window/stride the rows are a selection.
  h5::global(c, g, "iteration", {number.size()}, number, "1");
  h5::attr(c, g, "recorded_iterations", static_cast<std::int64_t>(tl.iterations()));
  h5::attr(c, g, "record_stride", static_cast<std::int64_t>(r.cfg.record.stride));
}

void write_comm(const Context& c, hid_t file, const RunRecord& r) {
  const PartnerList& pl = r.result.partners;
  h5::Handle g = h5::create_group(c, file, "comm");
  long long k = static_cast<long long>(std::max(pl.send_rank.size(), pl.recv_rank.size()));
  MPI_Allreduce(MPI_IN_PLACE, &k, 1, MPI_LONG_LONG, MPI_MAX, c.comm);
  const auto pad_rank = [&](const std::vector<int>& v) {
    std::vector<std::int32_t> out(static_cast<std::size_t>(k), -1);
    std::copy(v.begin(), v.end(), out.begin());
    return out;
  };
  const auto pad_bytes = [&](const std::vector<std::int64_t>& v) {
    std::vector<std::int64_t> out(static_cast<std::size_t>(k), 0);
    std::copy(v.begin(), v.end(), out.begin());
    return out;
  };
  const std::vector<hsize_t> row{static_cast<hsize_t>(k)};
  h5::rows(c, g, "send_partner", row, pad_rank(pl.send_rank), "1");
  h5::rows(c, g, "recv_partner", row, pad_rank(pl.recv_rank), "1");
  h5::rows(c, g, "send_bytes", row, pad_bytes(pl.send_bytes), "B");
  h5::rows(c, g, "recv_bytes", row, pad_bytes(pl.recv_bytes), "B");
}

// The workload's own datasets (WorkloadResult::datasets), each group opened or created once.
void write_workload_datasets(const Context& c, hid_t file, const RunRecord& r) {
  for (const WorkloadDataset& d : r.result.datasets) {
    h5::Handle g = h5::group_exists(file, d.group) ? h5::open_group(c, file, d.group) : h5::create_group(c, file, d.group);
    const std::vector<hsize_t> dims(d.dims.begin(), d.dims.end());
    const char* units = d.units.c_str();
    if (d.integer) {
      const std::vector<std::int64_t> v(d.values.begin(), d.values.end());
      if (d.per_rank) h5::rows(c, g, d.name, dims, v, units);
      else h5::global(c, g, d.name, dims, v, units);
    } else {
      if (d.per_rank) h5::rows(c, g, d.name, dims, d.values, units);
      else h5::global(c, g, d.name, dims, d.values, units);
    }
  }
}

// The longest of the ranks' event counts: the width of the padded /messages and /collectives rows.
long long longest(long long mine, MPI_Comm comm) {
  MPI_Allreduce(MPI_IN_PLACE, &mine, 1, MPI_LONG_LONG, MPI_MAX, comm);
  return mine;
}

// One rank's row of events padded to m with `fill` (-1, 0 or NaN: no event).
template <class T>
std::vector<T> padded(std::vector<T> v, long long m, T fill) {
  v.resize(static_cast<std::size_t>(m), fill);
  return v;
}

// /messages: every rank's message events, rows padded to the longest with -1 / NaN.
void write_messages(const Context& c, hid_t file, const RunRecord& r, const KeptRows& kept) {
  int has = r.result.messages ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &has, 1, MPI_INT, MPI_MAX, c.comm);
  if (!has) return;
  static const MessageLog empty(0);
  const MessageLog& log = r.result.messages ? *r.result.messages : empty;
  const std::vector<std::uint8_t> in = kept_by_time(r.result.timeline, kept, log.post());
  const auto n = static_cast<long long>(std::count(in.begin(), in.end(), std::uint8_t{1}));
  const long long m = longest(n, c.comm);
  const auto pad = [&](auto v, auto fill) { return padded(select(std::move(v), in), m, fill); };
  h5::Handle g = h5::create_group(c, file, "messages");
  const std::vector<hsize_t> row{static_cast<hsize_t>(m)};
  h5::rows<std::int64_t>(c, g, "count", {}, {n}, "1");
  h5::rows<std::int64_t>(c, g, "outside_window", {}, {log.count() - n}, "1");
  h5::rows<std::int64_t>(c, g, "dropped", {}, {log.dropped()}, "1");
  h5::rows(c, g, "peer", row, pad(log.peer(), std::int32_t{-1}), "1");
  h5::rows(c, g, "bytes", row, pad(log.bytes(), std::int64_t{0}), "B");
  h5::rows(c, g, "communicator", row, pad(log.comm(), std::int32_t{-1}), "1");
  h5::rows(c, g, "tag", row, pad(log.tag(), std::int32_t{-1}), "1");
  h5::rows(c, g, "send", row, pad(log.send(), std::uint8_t{0}), "1");
  h5::rows(c, g, "post", row, pad(log.post(), std::nan("")), "s");
  h5::rows(c, g, "done", row, pad(log.done(), std::nan("")), "s");
}

// /collectives: every rank's collective events, rows padded to the longest with -1 / NaN.
void write_collectives(const Context& c, hid_t file, const RunRecord& r, const KeptRows& kept) {
  int has = r.result.collectives ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &has, 1, MPI_INT, MPI_MAX, c.comm);
  if (!has) return;
  static const CollectiveLog empty(0, {});
  const CollectiveLog& log = r.result.collectives ? *r.result.collectives : empty;
  const std::vector<std::uint8_t> in = kept_by_time(r.result.timeline, kept, log.post());
  const auto n = static_cast<long long>(std::count(in.begin(), in.end(), std::uint8_t{1}));
  const long long m = longest(n, c.comm);
  const auto pad = [&](auto v, auto fill) { return padded(select(std::move(v), in), m, fill); };
  h5::Handle g = h5::create_group(c, file, "collectives");
  // The family names are the same on every rank (rank 0 always runs the kernel).
  std::vector<std::string> families = log.families();
  std::string joined;
  for (const auto& f : families) joined += f + "\n";
  bcast_string(joined, 0, c.comm);
  families.clear();
  for (std::size_t b = 0, e; (e = joined.find('\n', b)) != std::string::npos; b = e + 1) families.push_back(joined.substr(b, e - b));
  h5::attr(c, g, "families", families);
  h5::attr(c, g, "kinds", std::vector<std::string>{"", "bcast", "reduce", "allreduce", "send", "recv"});
  const std::vector<hsize_t> row{static_cast<hsize_t>(m)};
  h5::rows<std::int64_t>(c, g, "count", {}, {n}, "1");
  h5::rows<std::int64_t>(c, g, "outside_window", {}, {log.count() - n}, "1");
  h5::rows<std::int64_t>(c, g, "dropped", {}, {log.dropped()}, "1");
  h5::rows(c, g, "kind", row, pad(log.kind(), std::uint8_t{0}), "1");
  h5::rows(c, g, "family", row, pad(log.family(), std::int32_t{-1}), "1");
  h5::rows(c, g, "dup", row, pad(log.dup(), std::int32_t{-1}), "1");
  h5::rows(c, g, "root", row, pad(log.root(), std::int32_t{-1}), "1");
  h5::rows(c, g, "bytes", row, pad(log.bytes(), std::int64_t{0}), "B");
  h5::rows(c, g, "post", row, pad(log.post(), std::nan("")), "s");
  h5::rows(c, g, "posted", row, pad(log.posted(), std::nan("")), "s");
  h5::rows(c, g, "done", row, pad(log.done(), std::nan("")), "s");
}

void write_summary(const Context& c, hid_t file, const RunRecord& r) {
  const RunMetrics& m = r.metrics;
  h5::Handle g = h5::create_group(c, file, "summary");
  std::vector<double> stats;
  for (const auto& s : m.local) stats.insert(stats.end(), {s.min, s.median, s.max});
  h5::rows(c, g, "phase_stats", {m.layout.names.size(), 3}, stats, "s");
  {
    h5::Handle d = h5::open_dataset(c, g, "phase_stats");
    h5::attr(c, d, "phase_names", m.layout.names);
    h5::attr(c, d, "stat_names", std::vector<std::string>{"min", "median", "max"});
  }
  h5::rows<double>(c, g, "bytes_per_iteration", {}, {m.bytes_per_iteration[static_cast<std::size_t>(c.rank)]}, "B");
  h5::rows<double>(c, g, "bandwidth", {}, {m.bandwidth[static_cast<std::size_t>(c.rank)]}, "B/s");
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
  for (const auto& v : r.result.metrics) {
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

}  // namespace

void write_output(const std::string& path, const RunRecord& rec, MPI_Comm comm) {
  const Context c{comm, comm_rank(comm), comm_size(comm)};
  h5::Handle file = h5::create_file(c, path);
  write_root(c, file, rec);
  write_config(c, file, rec);
  write_topology(c, file, rec);
  const Timeline& tl = rec.result.timeline;
  const RecordConfig& rw = rec.cfg.record;
  const KeptRows kept = rw.window_given || rw.stride > 1
                            ? kept_rows(tl.iterations(), tl.warmup(), rw.window_begin, rw.window_end, rw.stride)
                            : KeptRows{};
  if (!kept.clipped.empty()) log::warn("{}\n", kept.clipped);
  write_timeline(c, file, rec, kept);
  write_comm(c, file, rec);
  write_messages(c, file, rec, kept);
  write_collectives(c, file, rec, kept);
  write_summary(c, file, rec);
  write_metrics(c, file, rec);
  write_workload_datasets(c, file, rec);  // last: into groups above or new ones
  h5::close_file(c, file);
}

namespace {

// Rank 0, after every rank closed the file: data on disk, and the file opens with a plain serial
// reader. Returns the problem, empty if none.
std::string settle_and_read_back(const std::string& tmp) {
  const int fd = ::open(tmp.c_str(), O_RDONLY);
  if (fd < 0) return std::string("reopening for fsync: ") + std::strerror(errno);
  const bool synced = ::fsync(fd) == 0;
  const int err = errno;
  ::close(fd);
  if (!synced) return std::string("fsync: ") + std::strerror(err);
  const hid_t f = H5Fopen(tmp.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (f < 0) return "the written file does not open: " + h5::last_error();
  const htri_t has = H5Aexists(f, "format");
  H5Fclose(f);
  if (has <= 0) return "the written file has no format attribute";
  return {};
}

// Bytes the file will take: every rank's timeline and per-rank rows, the texts, and a generous
// allowance for HDF5's metadata. Collective.
double expected_file_bytes(const RunRecord& r, MPI_Comm comm) {
  double mine = 8.0 * static_cast<double>(r.result.timeline.data().size()) + 64.0 * 1024.0;
  MPI_Allreduce(MPI_IN_PLACE, &mine, 1, MPI_DOUBLE, MPI_SUM, comm);
  return mine + static_cast<double>(r.cfg.deck_text.size() + r.cfg.resolved_toml.size() + r.prov.environment.size() +
                                    r.prov.kokkos_configuration.size()) + 1024.0 * 1024.0;
}

// A full file system is found before HDF5 writes anything: HDF5 does not recover cleanly from a
// write that fails half-way (a flush error leaves a file object that crashes MPI_Finalize, and a
// collective write can hang ranks that did not see the error).
std::string check_room(const std::string& path, double need) {
  const std::string dir = directory_of(path);
  const double room = free_bytes(dir);
  if (room < 0 || room >= need) return {};
  return fmt::format("the file system of {} has {} free, the result needs about {}", dir, format_bytes(room),
                     format_bytes(need));
}

}  // namespace

void commit_output(const std::string& path, const RunRecord& rec, MPI_Comm comm) {
  const Context c{comm, comm_rank(comm), comm_size(comm)};
  const std::string tmp = path + ".tmp";
  const double need = expected_file_bytes(rec, comm);
  std::string failure;
  if (c.rank == 0) failure = check_room(path, need);
  bcast_string(failure, 0, comm);
  if (!failure.empty()) throw OutputError("writing " + path + " failed (" + failure + "); no file was written");
  set_pending_output(tmp);
  try {
    write_output(tmp, rec, comm);
  } catch (const h5::Error& e) {
    failure = e.what();  // the same on every rank
  }
  if (failure.empty()) {
    std::string mine;
    if (c.rank == 0) {
      mine = settle_and_read_back(tmp);
      if (mine.empty() && ::rename(tmp.c_str(), path.c_str()) != 0) mine = std::string("renaming to ") + path + ": " + std::strerror(errno);
    }
    bcast_string(mine, 0, comm);
    failure = mine;
  }
  if (!failure.empty()) {
    MPI_Barrier(comm);  // every rank has closed its handles
    if (c.rank == 0) ::unlink(tmp.c_str());
    set_pending_output("");
    throw OutputError("writing " + path + " failed (" + failure + "); no file was left");
  }
  set_pending_output("");
  if (c.rank == 0) {
    // Make the rename itself durable (best effort: not every file system allows it).
    const int dfd = ::open(directory_of(path).c_str(), O_RDONLY | O_DIRECTORY);
    if (dfd >= 0) {
      ::fsync(dfd);
      ::close(dfd);
    }
  }
}

}  // namespace desync
