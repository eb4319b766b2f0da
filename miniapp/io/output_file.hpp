#pragma once
// Writes the run's result file in the layout of docs/output.md. Collective over comm.
#include <mpi.h>

#include <string>
#include <vector>

#include "config/config.hpp"
#include "metrics/phase_stats.hpp"
#include "record/clock_offset.hpp"
#include "record/gpu_aware_choice.hpp"
#include "record/mpi_library.hpp"
#include "record/phase_styles.hpp"
#include "record/provenance.hpp"
#include "record/record_window.hpp"
#include "record/topology.hpp"
#include "record/workload_result.hpp"

namespace desync {

inline constexpr int output_format_version = 1;

// One rank's rows of the per-rank datasets.
struct RankRecord {
  const Topology* topo;
  RankClock clock;
  const WorkloadResult* result;  // timeline on the common time base
};

// What `desync simulate` adds to a file (the /simulation group, docs/output.md).
struct SimulationRecord {
  std::string platform_text;      // the platform file as read
  std::string platform_resolved;  // after defaults and overrides (TOML)
  std::string model;              // how the simulator models memory, cores and messages
  std::string simgrid_version;
  std::vector<double> b1, b_saturated;  // [domain] B/s
  std::vector<std::int64_t> saturation_point;  // [domain] ceil(b_S / b1)
  double wall_time = 0.0;         // s the simulation itself took
};

struct RunRecord {
  const Config& cfg;
  const Provenance& prov;
  // The rows this process writes: a real run, its own rank; a simulation, every virtual rank in
  // rank order. The timeline axis (warm-up, iterations) is the first row's.
  std::vector<RankRecord> rows;
  const RunMetrics& metrics;
  std::string verification;       // "passed", "failed: ..." or "not done: ..."
  std::int64_t verification_errors = 0;
  std::int64_t iterations_planned = 0;  // warm-up + measured iterations the deck asked for
  const MpiLibraryRecord& mpi;
  const SimulationRecord* simulation = nullptr;  // set by `desync simulate` only
  const GpuAwareChoice* gpu_aware = nullptr;     // [comm] gpu_aware_mpi as resolved; real runs only
  // What each phase of metrics.layout is (class, colour): /phases, in the layout's order.
  std::vector<PhaseStyle> phases;
  // The workload's communication is collectives over sub-communicators (WorkloadDeck::collective):
  // every iteration synchronizes its ranks (root attribute `collective`).
  bool collective = false;
  // Written during the run (a flush, io/output_generations.hpp): root attributes complete = 0 and
  // `flushed` = 1; the timeline holds the iterations done so far.
  bool flushed = false;
};

// Writes `path` directly (collective; h5::Error on every rank if any rank's write fails). A run
// writes one row per MPI rank of comm; with rows.size() > 1, comm must be a single process that
// writes every row (a simulation).
// pause_before_close: seconds to hold the file open before closing it (the tests' fault
// injection for a kill inside a flush, io/output_generations.cpp; 0 in every normal run).
void write_output(const std::string& path, const RunRecord& rec, MPI_Comm comm, double pause_before_close = 0.0);

// The timeline rows the file keeps ([record] window, stride), numbered as the deck numbers them.
KeptRows kept_rows_for(const Timeline& tl, const RecordConfig& rw);

// A name part of this run's own: rank 0's process id and a random number, in hex, broadcast. It
// tells apart the files two runs to the same output write (the temporary result, the flush
// generations), so that neither writes into, truncates or deletes the other's. Collective.
std::string run_file_tag(MPI_Comm comm);

// The name a result is written under before it is renamed to `path`: PATH.<run_file_tag>.tmp.
// Collective.
std::string temporary_output_path(const std::string& path, MPI_Comm comm);

// Writes the result under its final name only when it is complete: first as `tmp`
// (temporary_output_path), every rank's HDF5 calls agreed on, closed, flushed to disk (fsync)
// and read back by rank 0, then renamed. replace false (no --force): a file that appeared at
// `path` during the run (another run to the same name) is not replaced; the result then stays
// under `tmp`, which the error names. On any other failure `tmp` is removed. OutputError is
// thrown on every rank.
void commit_output(const std::string& path, const std::string& tmp, const RunRecord& rec, bool replace, MPI_Comm comm);

// Shared by the commit and the flushes during a run (io/output_commit.cpp):
// bytes the file will take (collective); "" or why the file system of `path` cannot take `need`
// bytes; rank 0's fsync and serial read-back of a closed file ("" or the problem); an fsync of the
// directory holding `path` (makes a rename or a new link durable; best effort).
double expected_file_bytes(const RunRecord& rec, MPI_Comm comm);
std::string check_room(const std::string& path, double need);
std::string settle_and_read_back(const std::string& path);
void sync_directory_of(const std::string& path);

}  // namespace desync
