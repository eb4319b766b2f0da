// The saturation workload's defaults and the rules a deck must meet on the ranks and threads it
// runs with, its memory estimate and its timeline length (the registry's hooks).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <tuple>

#include "workload/domain_threads.hpp"
#include "comm/node_layout.hpp"
#include "config/locate_key.hpp"
#include "core/errors.hpp"
#include "core/mpi_util.hpp"
#include "kokkos_compat/concurrency.hpp"
#include "record/timeline.hpp"
#include "workloads/saturation/domain_sizes.hpp"
#include "workloads/saturation/nt_store.hpp"
#include "workloads/saturation/saturation.hpp"
#include "workloads/saturation/saturation_sweep.hpp"
#include "workloads/saturation/stream_arrays.hpp"

namespace desync {
namespace {

int arrays_needed(const SaturationConfig& c) {
  const bool has_c = std::any_of(c.kernels.begin(), c.kernels.end(), saturation::reads_c);
  const bool has_d = std::any_of(c.kernels.begin(), c.kernels.end(), saturation::reads_d);
  return 2 + (has_c ? 1 : 0) + (has_d ? 1 : 0);
}

std::string where(const Config& cfg, const SourcePos& pos) { return pos.where.empty() ? cfg.deck_path : pos.where; }

}  // namespace

std::int64_t saturation_elements(const SaturationConfig& c) {
  return c.size > 0 ? c.size : saturation::default_sweep_elements(saturation::node_llc_bytes());
}

int saturation_max_n(const SaturationConfig& c, int nranks) {
  if (c.max_n > 0) return static_cast<int>(c.max_n);
  if (c.mode == SaturationMode::ranks) return nranks;
  return std::max(1, std::min(saturation::domain_cores(), compat::concurrency()));
}

std::int64_t saturation_rows(const Config& cfg, int ranks) {
  const SaturationConfig& c = cfg.params.get<SaturationConfig>();
  return static_cast<std::int64_t>(saturation_max_n(c, ranks)) * static_cast<std::int64_t>(c.kernels.size()) * c.repetitions;
}

void saturation_ranks(const Config& cfg, int nranks) {
  const SaturationConfig& c = cfg.params.get<SaturationConfig>();
  if (c.mode == SaturationMode::threads && nranks != 1)
    throw DeckError(fmt::format("{}: error: [saturation] mode = \"threads\" sweeps the threads of one rank, but the run has {} "
                                "ranks; run it on 1 rank (mpiexec -n 1, threads from OMP_NUM_THREADS or [threads] per_rank), "
                                "or use mode = \"ranks\"", locate(cfg, "saturation.mode"), nranks));
  if (c.mode == SaturationMode::ranks && c.max_n > nranks)
    throw DeckError(fmt::format("{}: error: [saturation] max_n = {}: mode = \"ranks\" streams with up to the run's {} rank(s); "
                                "allowed: 1..{}, or 0 (all ranks)", where(cfg, c.max_n_pos), c.max_n, nranks, nranks));
}

void saturation_deck(const Config& cfg) {
  const SaturationConfig& c = cfg.params.get<SaturationConfig>();
  // Resolved decks carry every key with its default: only other values are refused.
  const RunConfig defaults;
  for (auto [key, value, def] : {std::tuple{"iterations", cfg.run.iterations, defaults.iterations},
                                 std::tuple{"warmup", cfg.run.warmup, defaults.warmup}})
    if (value != def)
      throw DeckError(fmt::format("{}: error: [run] {} = {}: not used by workload \"saturation\": every kernel and N gets one "
                                  "untimed sweep and [saturation] repetitions timed ones; set repetitions instead",
                                  locate(cfg, std::string("run.") + key), key, value));
  if (std::find(c.kernels.begin(), c.kernels.end(), SaturationKernel::triad_nt) != c.kernels.end() &&
      !saturation::nt_stores_available)
    throw DeckError(fmt::format("{}: error: [saturation] kernels: \"triad_nt\" needs non-temporal stores (x86 SSE2 "
                                "_mm_stream_pd on a host execution space), which this build does not have (execution "
                                "space {}); allowed here: \"copy\", \"scale\", \"add\", \"triad\", \"schoenauer\"",
                                where(cfg, c.kernels_pos), compat::execution_space_name()));
}

void saturation_layout(const Config& cfg, MPI_Comm comm) {
  const SaturationConfig& c = cfg.params.get<SaturationConfig>();
  std::string problem;
  if (c.mode == SaturationMode::ranks) {
    const NodeLayout l = node_layout(comm, 0);
    if (l.nodes > 1)
      problem = fmt::format("{}: error: [saturation] mode = \"ranks\" sweeps the ranks of one node, but the run's {} ranks "
                            "are on {} nodes; run it on one node", locate(cfg, "saturation.mode"), comm_size(comm), l.nodes);
  } else if (c.max_n > 0) {
    // Preflight runs before Kokkos starts (its concurrency() is still 1): the threads the rank
    // will have ([threads] per_rank, its "domain" share, else OMP_NUM_THREADS), as main.cpp requests.
    const int threads = planned_threads(cfg.threads, comm);
    if (comm_rank(comm) == 0 && c.max_n > threads)
      problem = fmt::format("{}: error: [saturation] max_n = {}: the rank has {} thread(s) ([threads] per_rank, else "
                            "OMP_NUM_THREADS); allowed: 1..{}, or 0 (the cores of its contention domain, at most "
                            "its threads)", where(cfg, c.max_n_pos), c.max_n, threads, threads);
  }
  std::int64_t elements = saturation_elements(c);
  if (problem.empty() && elements < saturation_max_n(c, comm_size(comm)))
    problem = fmt::format("{}: error: [saturation] size = {}: fewer elements than the {} workers of the largest N; allowed: "
                          ">= max_n", locate(cfg, "saturation.size"), elements, saturation_max_n(c, comm_size(comm)));
  bcast_string(problem, 0, comm);
  if (!problem.empty()) throw DeckError(problem);
}

MemoryEstimate saturation_memory(const Config& cfg, int rank, int size) {
  const SaturationConfig& c = cfg.params.get<SaturationConfig>();
  const double n = static_cast<double>(saturation_elements(c));
  MemoryEstimate m;
  m.knobs = c.size > 0 ? fmt::format("[saturation] size = {}", c.size)
                       : fmt::format("[saturation] size (0: {} elements from this node's caches)", n);
  // Threads: rank 0 holds all arrays at every N. Ranks: rank r's largest share is 1/(r + 1),
  // at N = r + 1 (arrays are freed between values of N).
  const double share = c.mode == SaturationMode::threads ? n : std::ceil(n / (rank + 1));
  m.add("arrays", 8.0 * share * arrays_needed(c));
  const double rows = static_cast<double>(saturation_max_n(c, size)) * static_cast<double>(c.kernels.size()) *
                      static_cast<double>(c.repetitions);
  m.add("timeline", Timeline::bytes_estimate(static_cast<std::int64_t>(rows)) + 8.0 * rows);
  return m;
}

}  // namespace desync
