#include "workloads/saturation/stream_table.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <optional>

#include "core/mpi_util.hpp"
#include "kokkos_compat/concurrency.hpp"
#include "kokkos_compat/scoped_region.hpp"
#include "workloads/saturation/domain_sizes.hpp"
#include "workloads/saturation/quiet_barrier.hpp"
#include "workloads/saturation/stream_arrays.hpp"

namespace desync {
namespace {

const std::vector<SaturationKernel> stream_kernels{SaturationKernel::copy, SaturationKernel::scale, SaturationKernel::add,
                                                   SaturationKernel::triad};

// Best-of bandwidth of each kernel on `arrays`; `together`: every rank of comm sweeps at the same
// time (a barrier before each sweep), else only this rank does (the others are asleep).
std::vector<double> measure(const saturation::StreamArrays& arrays, MPI_Comm comm, bool together, StreamTable& t) {
  std::vector<double> bw;
  for (SaturationKernel k : stream_kernels) {
    const saturation::KernelSweep sweep = arrays.sweeper(k);
    arrays.poison();
    if (together) MPI_Barrier(comm);
    sweep();  // warm-up
    double best = std::numeric_limits<double>::infinity();
    for (int rep = 0; rep < stream_table_repetitions; ++rep) {
      if (together) MPI_Barrier(comm);
      best = std::min(best, sweep().seconds());
    }
    bw.push_back(saturation::bytes_per_element(k) * static_cast<double>(arrays.size()) / best);
    t.wrong += arrays.count_wrong(k);
    t.checked += arrays.size();
  }
  return bw;
}

int ranks_on_node(MPI_Comm comm, MPI_Comm* node) {
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, comm_rank(comm), MPI_INFO_NULL, node);
  return comm_size(*node);
}

std::int64_t per_rank_elements(const Config& cfg, int ranks) {
  return cfg.run.stream_size > 0 ? cfg.run.stream_size : saturation::default_stream_elements(saturation::node_llc_bytes(), ranks);
}

// One thread alone gets arrays at least 4x the caches, however many ranks share the node.
std::int64_t single_elements(std::int64_t per_rank) {
  return std::max(per_rank, saturation::default_stream_elements(saturation::node_llc_bytes(), 1));
}

}  // namespace

StreamTable measure_stream_table(const Config& cfg, MPI_Comm comm) {
  StreamTable t;
  if (!cfg.run.stream_table) return t;
  compat::ScopedRegion region("desync::stream_table");
  const int rank = comm_rank(comm);
  MPI_Comm node = MPI_COMM_NULL;
  const int on_node = ranks_on_node(comm, &node);
  t.measured = true;
  t.elements = per_rank_elements(cfg, on_node);
  {
    const saturation::StreamArrays all(t.elements, static_cast<Index>(rank) * t.elements, compat::concurrency(), stream_kernels);
    t.bandwidth = measure(all, comm, true, t);
  }
  // Rank 0's node: the sum over its ranks reaches rank 0, which broadcasts it with the rest.
  t.node_bandwidth = t.bandwidth;
  MPI_Allreduce(MPI_IN_PLACE, t.node_bandwidth.data(), 4, MPI_DOUBLE, MPI_SUM, node);
  MPI_Comm_free(&node);

  t.single_elements = single_elements(t.elements);
  std::int64_t sizes[1] = {t.single_elements};
  MPI_Bcast(sizes, 1, MPI_INT64_T, 0, comm);
  t.single_elements = sizes[0];
  t.single_thread.assign(4, 0.0);
  if (rank == 0) {
    const saturation::StreamArrays one(t.single_elements, 0, 1, stream_kernels);
    t.single_thread = measure(one, comm, false, t);
  }
  saturation::quiet_barrier(comm, rank == 0);
  MPI_Bcast(t.node_bandwidth.data(), 4, MPI_DOUBLE, 0, comm);
  MPI_Bcast(t.single_thread.data(), 4, MPI_DOUBLE, 0, comm);
  return t;
}

void add_stream_table(WorkloadResult& r, const StreamTable& t) {
  if (!t.measured) return;
  std::vector<double> codes, bytes;
  for (SaturationKernel k : stream_kernels) {
    codes.push_back(static_cast<double>(k));
    bytes.push_back(saturation::bytes_per_element(k));
  }
  const auto add = [&](const char* name, const char* units, std::vector<std::uint64_t> dims, std::vector<double> v, bool per_rank,
                       bool integer) { r.datasets.push_back({"provenance/stream", name, units, std::move(dims), std::move(v), per_rank, integer}); };
  add("kernel", "1", {4}, codes, false, true);
  add("bytes_per_element", "B", {4}, bytes, false, true);
  add("elements", "1", {}, {static_cast<double>(t.elements)}, true, true);
  add("bandwidth", "B/s", {4}, t.bandwidth, true, false);
  add("node_bandwidth", "B/s", {4}, t.node_bandwidth, false, false);
  add("single_thread_bandwidth", "B/s", {4}, t.single_thread, false, false);
  add("single_thread_elements", "1", {}, {static_cast<double>(t.single_elements)}, false, true);
  add("repetitions", "1", {}, {static_cast<double>(stream_table_repetitions)}, false, true);
  r.elements_checked += t.checked;
  r.element_errors += t.wrong;

  std::string rep = "STREAM table (before the run; best of 10, STREAM byte counts):\n";
  rep += fmt::format("  {:<28} {:>12} {:>12} {:>12} {:>12}\n", "MB/s", "COPY", "SCALE", "ADD", "TRIAD");
  const auto line = [&](const char* what, const std::vector<double>& v) {
    rep += fmt::format("  {:<28} {:>12.1f} {:>12.1f} {:>12.1f} {:>12.1f}\n", what, 1e-6 * v[0], 1e-6 * v[1], 1e-6 * v[2], 1e-6 * v[3]);
  };
  line("1 thread (rank 0)", t.single_thread);
  line("node of rank 0 (all threads)", t.node_bandwidth);
  r.report = rep + (r.report.empty() ? "" : "\n" + r.report);
}

double stream_table_memory(const Config& cfg, int rank, int size) {
  if (!cfg.run.stream_table) return 0.0;
  const std::int64_t per_rank = per_rank_elements(cfg, std::max(1, size));
  return 8.0 * 3.0 * static_cast<double>(rank == 0 ? single_elements(per_rank) : per_rank);
}

}  // namespace desync
