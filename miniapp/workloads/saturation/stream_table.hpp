#pragma once
// The STREAM table of a run's provenance ([run] stream_table = true; the stencil study's Table I,
// papers.md C.6): before the workload, copy, scale, add and triad (stream_kernels.hpp, STREAM's
// byte counts) measured
//   - by every rank at once with all its threads (the node's full load; per rank, and summed
//     over the ranks of rank 0's node), and
//   - by one thread of rank 0 while the other ranks sleep (the "1 core" row),
// each as the best of `repetitions` sweeps after an untimed one. Stored under /provenance/stream
// (docs/output.md); the arrays are checked exactly and count in the run's verification.
#include <mpi.h>

#include <cstdint>
#include <vector>

#include "config/config.hpp"
#include "workloads/saturation/saturation_config.hpp"
#include "core/memory.hpp"
#include "record/workload_result.hpp"

namespace desync {

struct StreamTable {
  bool measured = false;
  std::int64_t elements = 0;          // per array on this rank (all threads)
  std::int64_t single_elements = 0;   // per array of the one-thread measurement (rank 0)
  std::vector<double> bandwidth;      // [4] this rank, all ranks streaming together (B/s)
  std::vector<double> node_bandwidth; // [4] summed over the ranks of rank 0's node (B/s)
  std::vector<double> single_thread;  // [4] one thread of rank 0, the others asleep (B/s)
  std::int64_t checked = 0, wrong = 0;
};

inline constexpr int stream_table_repetitions = 10;

// Collective over comm; returns an empty table (measured = false) unless [run] stream_table.
StreamTable measure_stream_table(const Config& cfg, MPI_Comm comm);

// The table's datasets (/provenance/stream), its report lines and its checked elements, into r.
void add_stream_table(WorkloadResult& r, const StreamTable& t);

// Peak memory of the measurement on `rank` (0 unless [run] stream_table); freed before the
// workload allocates.
double stream_table_memory(const Config& cfg, int rank, int size);

}  // namespace desync
