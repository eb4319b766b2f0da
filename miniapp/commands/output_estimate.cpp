// The output-size estimate (commands/output_estimate.hpp): the layout of io/output_file.cpp, part
// by part, with the workload's share from its module (workload/output_shape.hpp).
#include "commands/output_estimate.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "core/errors.hpp"
#include "record/collective_log.hpp"
#include "record/hwloc_xml.hpp"
#include "record/iteration_events.hpp"
#include "record/message_log.hpp"
#include "record/provenance.hpp"
#include "record/record_window.hpp"
#include "workloads/registry.hpp"

namespace desync {
namespace {

// HDF5's own bytes (default file format, contiguous datasets, compact attributes), measured on
// result files of every shipped deck (docs/method.md, section 32): the superblock, root group and
// root attributes; each further group (symbol-table B-tree and local heap); each dataset (object
// header with its dataspace, type, layout and `units` attribute).
constexpr double meta_file = 3900.0;
constexpr double meta_group = 530.0;
constexpr double meta_dataset = 410.0;
// Datasets and groups every file has (/config 3, /provenance 6, /topology 21, /timeline 3, /comm 4,
// /summary 5, /phases 4, /metrics 7; the root and 8 groups), and what /messages and /collectives add.
constexpr int shared_datasets = 53, shared_groups = 9;
constexpr int message_datasets = 10, collective_datasets = 11;
// Bytes of one message event and one collective part (the logs' own); 3 counters per rank each.
constexpr double message_event_bytes = MessageLog::event_bytes;
constexpr double collective_event_bytes = CollectiveLog::event_bytes;
// Texts that do not come from the deck: Kokkos' configuration, the eager-limit description, the
// hwloc version (measured: about 1.3 KiB; the root's strings are in meta_file).
constexpr double other_texts = 1400.0;
// /topology per rank: 6 numbers and 3 short strings, and per thread a cpuset string and 4 numbers
// (measured: 57 B per rank of one thread); the cpufreq line, about 100 B where readable.
constexpr double topology_rank = 140.0, topology_thread = 17.0;

}  // namespace

OutputEstimate estimate_output(const Config& cfg, int ranks) {
  const WorkloadModule& w = workload_module(cfg.run.workload);
  const OutputShape s = w.output_shape ? w.output_shape(cfg, std::max(ranks, 1)) : OutputShape{};
  const double p = std::max(ranks, 1);
  const std::int64_t rows = planned_iterations(cfg, static_cast<int>(p));
  const std::int64_t warm = std::clamp<std::int64_t>(s.warmup >= 0 ? s.warmup : cfg.run.warmup, 0, rows);
  const RecordConfig& rw = cfg.record;
  const double kept = rw.filters_rows()
                          ? static_cast<double>(kept_rows(rows, warm, rw.window_begin, rw.window_end, rw.stride).row.size())
                          : static_cast<double>(rows);
  const double events = s.events > 0 ? s.events : static_cast<double>(iteration_event_names().size());
  const double phases = s.phases > 0 ? s.phases : std::max(events - 1.0, 1.0);

  OutputEstimate e;
  // /timeline: events [ranks, rows, events], warmup (1 B) and iteration (8 B) per row.
  e.add("timeline", kept * events * 8.0 * p + kept * 9.0);
  int datasets = shared_datasets + s.datasets, groups = shared_groups + s.groups;
  // /messages and /collectives: rows padded to the widest rank's kept events, which [comm]
  // record_messages_max caps (it counts the whole run's, so the kept share of the cap).
  const auto padded = [&](double per_row) {
    const double all = per_row * static_cast<double>(rows);
    const double capped = std::min(all, static_cast<double>(cfg.comm.record_messages_max));
    return rows > 0 ? std::ceil(capped * kept / static_cast<double>(rows)) : 0.0;
  };
  if (cfg.comm.record_messages && s.messages_per_row > 0) {
    e.add("messages", p * (padded(s.messages_per_row) * message_event_bytes + 24.0));
    datasets += message_datasets;
    groups += 1;
  }
  if (cfg.comm.record_messages && s.collectives_per_row > 0) {
    e.add("collectives", p * (padded(s.collectives_per_row) * collective_event_bytes + 24.0));
    datasets += collective_datasets;
    groups += 1;
  }
  // /topology, /comm (4 values per partner), /summary (3 statistics per phase, 4 numbers), /metrics.
  const double threads = std::max<double>(static_cast<double>(cfg.threads.per_rank), 1.0);
  e.add("per-rank rows", p * (topology_rank + threads * topology_thread + s.partners * 24.0 + phases * 24.0 + 32.0) +
                             phases * 40.0);
  e.add("workload datasets", s.bytes);
  // /config and /provenance: the deck as read, as resolved, the overrides, the environment (the
  // variables a run records: estimated from this process's, which a launcher's rarely changes much).
  double overrides = 0;
  for (const auto& o : cfg.overrides) overrides += static_cast<double>(o.size()) + 1.0;
  // A process not started by mpiexec (`desync check`) lacks the launcher's variables: about 1 KiB.
  const bool launched = std::getenv("OMPI_COMM_WORLD_SIZE") || std::getenv("PMI_SIZE") || std::getenv("PMIX_RANK");
  if (cfg.noise.table) {
    e.add("noise file", static_cast<double>(cfg.noise.table->text.size()));
    datasets += 1;  // /config/noise_file
  }
  e.add("texts", static_cast<double>(cfg.deck_text.size() + cfg.resolved_toml.size() + placement_environment().size()) +
                     overrides + other_texts + (launched ? 0.0 : 1024.0));
  // /provenance/hwloc_xml: this machine's topology, the one entry of a cluster of alike nodes.
  e.add("hwloc topology", static_cast<double>(this_node_xml_bytes()));
  e.add("metadata", meta_file + groups * meta_group + datasets * meta_dataset);
  return e;
}

std::string output_summary(const Config& cfg, int ranks) {
  int p = ranks;
  if (p <= 0) {
    const auto implied = workload_module(cfg.run.workload).deck_ranks;
    p = implied ? static_cast<int>(implied(cfg)) : 0;
  }
  if (p <= 0) p = 1;
  try {
    return fmt::format("# output estimate on {} rank(s): {} (docs/decks.md, \"Output size\")\n", p,
                       estimate_output(cfg, p).describe());
  } catch (const DeckError&) {
    return "# output estimate: give --ranks P (the deck needs a rank count)\n";
  }
}

}  // namespace desync
