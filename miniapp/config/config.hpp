#pragma once
// The resolved configuration of a run: plain structs, filled and validated once by parse_deck()
// (through load_deck(), workloads/registry.hpp). The shared tables are here; each workload's own
// table is a struct of its module (workloads/<name>/<name>_config.hpp), held in Config::params.
// docs/decks.md documents every field (its deck key, default and allowed values).
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/enum_table.hpp"
#include "matrix/matrix_config.hpp"
#include "config/workload_params.hpp"

namespace desync {

enum class SendMode { nonblocking, blocking, parallel };
inline constexpr EnumTable<SendMode, 3> send_mode_names{
    {{SendMode::nonblocking, "nonblocking"}, {SendMode::blocking, "blocking"}, {SendMode::parallel, "parallel"}}};

// [comm] gpu_aware_mpi (comm/gpu_aware.hpp): whether MPI is handed the workload's buffers where
// they live (device memory in a GPU build) or copies staged through pinned host buffers.
enum class GpuAwareMpi { automatic, on, off };
inline constexpr EnumTable<GpuAwareMpi, 3> gpu_aware_mpi_names{
    {{GpuAwareMpi::automatic, "auto"}, {GpuAwareMpi::on, "on"}, {GpuAwareMpi::off, "off"}}};

enum class ProgressMode { wait, test, thread };
inline constexpr EnumTable<ProgressMode, 3> progress_mode_names{
    {{ProgressMode::wait, "wait"}, {ProgressMode::test, "test"}, {ProgressMode::thread, "thread"}}};

enum class SyncMode { none, barrier, allreduce };
inline constexpr EnumTable<SyncMode, 3> sync_mode_names{
    {{SyncMode::none, "none"}, {SyncMode::barrier, "barrier"}, {SyncMode::allreduce, "allreduce"}}};

enum class NoiseKind { none, uniform, exponential, file };
inline constexpr EnumTable<NoiseKind, 4> noise_kind_names{{{NoiseKind::none, "none"},
                                                          {NoiseKind::uniform, "uniform"},
                                                          {NoiseKind::exponential, "exponential"},
                                                          {NoiseKind::file, "file"}}};

// Where a value came from, for errors found after loading (e.g. a rank that does not exist).
struct SourcePos {
  std::string where;  // "deck.toml:12:3" or "--set inject.rank=7"
};

struct RunConfig {
  std::string workload;  // a name of the workload registry (workloads/registry.hpp); default: its first
  std::int64_t iterations = 1000;
  std::int64_t warmup = 10;
  bool barrier = false;
  std::uint64_t seed = 1;
  std::string output;  // empty: deck name with .h5
  bool overwrite = false;  // replace an existing output file (else: refused before any work)
  double progress_interval = 5.0;
  double memory_limit_gib = 0.0;  // per node; 0: what the node has available
  SourcePos output_pos;
  bool stream_table = false;      // measure a STREAM table before the run (commands/run_deck.cpp)
  std::int64_t stream_size = 0;   // its elements per array and rank; 0: from the node's caches
};

// Nodes as the collective workloads see them (comm/node_layout.hpp, papers.md E.3): which ranks
// share a node, and how many of them per node take part in the kernel.
struct PlacementConfig {
  std::int64_t ranks_per_node = 0;  // 0: the ranks that share memory (MPI_COMM_TYPE_SHARED); > 0:
                                    // consecutive blocks of this many ranks count as one node
  std::int64_t active_ppn = 0;      // ranks per node that run the kernel (0: all); the others sleep
  SourcePos ranks_per_node_pos, active_ppn_pos;
};

// How every exchange of every workload sends its messages (comm/exchange.hpp, docs/decks.md
// [comm]). Chosen once when an exchange is built; nothing here is tested inside a loop.
struct CommConfig {
  SendMode send = SendMode::nonblocking;
  ProgressMode progress = ProgressMode::wait;
  std::int64_t test_interval = 0;   // progress = "test": work items between tests; 0: 1/16 of the phase
  std::int64_t fragment_bytes = 0;  // 0: messages go whole
  std::int64_t communicators = 1;   // N_DUP: messages (fragments) spread over this many duplicates
  SyncMode sync = SyncMode::none;   // after every iteration; [run] barrier = true is "barrier"
  bool sync_given = false;          // the deck set [comm] sync (else a workload default applies)
  std::int64_t sync_every = 1;      // the sync after every N-th iteration only (sync_due)
  std::int64_t eager_limit = 0;     // declared for the record (bytes); 0: none. Checked against MPI_T
  bool record_messages = false;     // message events (record/message_log.hpp)
  std::int64_t record_messages_max = 1'000'000;  // events kept per rank; more are counted as dropped
  SourcePos progress_pos;           // for errors about a mode the workload cannot use
  GpuAwareMpi gpu_aware_mpi = GpuAwareMpi::automatic;  // resolved once per run: comm/gpu_aware.hpp
  // MPI_THREAD_MULTIPLE is needed by progress = "thread" and send = "parallel".
  bool needs_thread_multiple() const { return progress == ProgressMode::thread || send == SendMode::parallel; }
};

// How [comm] fragment_bytes cuts a message (comm/exchange.cpp; the metrics count the same): into
// ceil(bytes / limit) MPI messages, one for an empty message, where the limit is fragment_bytes
// or, for messages that go whole, what MPI's int count holds.
inline std::int64_t piece_limit(std::int64_t fragment_bytes) { return fragment_bytes > 0 ? fragment_bytes : 2147483647; }
inline std::int64_t message_pieces(std::int64_t bytes, std::int64_t fragment_bytes) {
  const std::int64_t limit = piece_limit(fragment_bytes);
  return bytes == 0 ? 1 : (bytes + limit - 1) / limit;
}

struct InjectConfig {
  std::int64_t rank = 0;
  std::int64_t iteration = 0;  // measured iteration index (0 = first after warm-up)
  double duration = 0.0;       // seconds of core-bound busy work
  SourcePos rank_pos, iteration_pos;
  // Or the delay as a multiple of the rank's own iteration time over the warm-up (0: `duration`
  // gives it), resolved when the warm-up is done (inject/delay_schedule.hpp, delay_multiples).
  double duration_iterations = 0.0;
};

// A noise file (kind = "file", config/noise_file.hpp): one row per iteration, one column per rank.
struct NoiseTable {
  std::string path;  // as opened: resolved against the deck's directory
  std::string text;  // the file's bytes, stored in the output (/config/noise_file)
  std::int64_t rows = 0, columns = 0;
  std::vector<double> seconds;  // rows x columns, row after row
  double at(std::int64_t row, std::int64_t column) const {
    return seconds[static_cast<std::size_t>(row * columns + column)];
  }
};

struct NoiseConfig {
  NoiseKind kind = NoiseKind::none;
  double mean = 0.0;  // seconds per iteration and rank
  // kind = "file": the path as the deck gives it, and the file as read by rank 0 and broadcast
  // (commands/read_deck.cpp; shared, so that copies of a Config do not copy the table).
  std::string file;
  SourcePos file_pos;
  std::shared_ptr<const NoiseTable> table;
  std::uint64_t seed = 0;  // 0: derive from [run] seed
  std::vector<std::int64_t> ranks;  // the noisy ranks; empty: every rank
  SourcePos ranks_pos;
  // The iterations with noise, [begin, end) in the deck's numbering (warm-up negative); every
  // iteration unless the deck says.
  std::int64_t window_begin = std::numeric_limits<std::int64_t>::min(), window_end = std::numeric_limits<std::int64_t>::max();
};

// [record]: which iterations /timeline keeps in full (record/record_window.hpp). Statistics and
// metrics always cover every iteration; only the stored rows (and /messages, /collectives) shrink.
struct RecordConfig {
  bool window_given = false;
  std::int64_t window_begin = 0;  // deck numbering, half-open [begin, end); default: every row
  std::int64_t window_end = 0;
  std::int64_t stride = 1;        // keep begin, begin + stride, ... inside the window
  // Seconds between flushes of what ran to OUT.partial while the run runs (loop/flush_hook.hpp,
  // docs/method.md "Results on disk while a run runs"); 0: the file is written only at the end.
  double flush_seconds = 60.0;
  bool flush_given = false;  // the deck set it: kept as given (the default grows, see run_flush.hpp)

  // Some rows are left out of /timeline (a window or a stride was given): the one condition the
  // writer, its room check and the output estimate share.
  bool filters_rows() const { return window_given || stride > 1; }
};

struct ThreadsConfig {
  std::int64_t per_rank = 0;  // 0: OMP_NUM_THREADS or the Kokkos default
  // per_rank = "domain": each rank takes its share of the cores of its memory domain, resolved at
  // start (workload/domain_threads) into per_rank; the resolved count is recorded in /topology.
  bool per_domain = false;
};

struct Config {
  std::string deck_path;
  std::string deck_text;
  std::vector<std::string> overrides;
  std::string resolved_toml;  // every key with its final value
  // Keys the deck sets that act nowhere with its other choices (a kernel's scalar with another
  // kernel chosen): allowed, so that a sweep can switch the choice with --set on one deck, and
  // said by rank 0 at start (one line each: location, key, value, where it would act).
  std::vector<std::string> deck_warnings;

  RunConfig run;
  WorkloadParams params;  // the workload's own table: params.get<TheModulesConfig>()
  PlacementConfig placement;
  CommConfig comm;
  std::vector<InjectConfig> inject;
  NoiseConfig noise;
  ThreadsConfig threads;
  RecordConfig record;
  bool has_matrix = false;  // the deck has a [matrix] table
  MatrixConfig matrix;
};

struct WorkloadDeck;

// Parses and validates a deck (text as read from deck_path) plus "table.key=value" overrides,
// for the workloads of `catalog` (config/workload_deck.hpp; load_deck() passes the registry's).
// Throws DeckError with a complete message on any problem.
Config parse_deck(const std::string& deck_text, const std::string& deck_path, const std::vector<std::string>& overrides,
                  const std::vector<const WorkloadDeck*>& catalog);

// Checks what depends on the number of ranks and the shared tables (e.g. an injection on a rank
// that does not exist); the workload's own rules follow in validate_for_ranks (registry).
void validate_shared_for_ranks(const Config& cfg, int nranks);

// The [comm] keys whose resolved value differs from what the workload `w` gets with no [comm]
// table at all, as (key, value as the resolved deck writes it), in key order. Every key read_comm
// knows is compared, so a new [comm] key is covered without a list (desync simulate refuses the
// ones it does not model: workloads/simulated_programs.cpp).
std::vector<std::pair<std::string, std::string>> changed_comm_keys(const Config& cfg, const WorkloadDeck& w);

// Output file name after defaults: [run] output, else the deck's file name with ".h5".
std::string output_path(const Config& cfg);

// Whether the [comm] sync runs after timeline row `row` of a run with `warmup` warm-up rows: after
// deck iterations N-1, 2N-1, ... (N = sync_every; warm-up iterations count back from -1, so the
// last warm-up iteration syncs too). The real loop and the simulator's ranks ask it alike.
inline bool sync_due(std::int64_t sync_every, std::int64_t warmup, std::int64_t row) {
  return sync_every <= 1 || (row - warmup + 1) % sync_every == 0;
}
// The syncs in `measured` measured iterations (what a barrier's cost is counted for).
inline std::int64_t syncs_in(std::int64_t sync_every, std::int64_t measured) {
  return sync_every <= 1 ? measured : measured / sync_every;
}

}  // namespace desync
