#pragma once
// The resolved configuration of a run: plain structs, filled and validated once by load_deck().
// docs/decks.md documents every field (its deck key, default and allowed values).
#include <cstdint>
#include <string>
#include <vector>

#include "config/enum_table.hpp"
#include "config/matrix_config.hpp"

namespace desync {

enum class Workload { triad, spmv, stencil, chebfd, pingpong, toy, cg, collbench, matvec2d, symmsquarecube, saturation };
inline constexpr EnumTable<Workload, 11> workload_names{{{Workload::triad, "triad"},
                                                         {Workload::spmv, "spmv"},
                                                         {Workload::stencil, "stencil"},
                                                         {Workload::chebfd, "chebfd"},
                                                         {Workload::pingpong, "pingpong"},
                                                         {Workload::toy, "toy"},
                                                         {Workload::cg, "cg"},
                                                         {Workload::collbench, "collbench"},
                                                         {Workload::matvec2d, "matvec2d"},
                                                         {Workload::symmsquarecube, "symmsquarecube"},
                                                         {Workload::saturation, "saturation"}}};

// The workloads built on collectives over sub-communicators (papers.md E): [comm] send, progress
// and fragment_bytes do not apply to them; communicators is their N_DUP.
inline bool collective_workload(Workload w) {
  return w == Workload::collbench || w == Workload::matvec2d || w == Workload::symmsquarecube;
}

enum class CollOp { bcast, reduce };
inline constexpr EnumTable<CollOp, 2> coll_op_names{{{CollOp::bcast, "bcast"}, {CollOp::reduce, "reduce"}}};

enum class CollMode { blocking, nonblocking };
inline constexpr EnumTable<CollMode, 2> coll_mode_names{
    {{CollMode::blocking, "blocking"}, {CollMode::nonblocking, "nonblocking"}}};

enum class SscAlgorithm { original, baseline, optimized, twofive };
inline constexpr EnumTable<SscAlgorithm, 4> ssc_algorithm_names{{{SscAlgorithm::original, "original"},
                                                                 {SscAlgorithm::baseline, "baseline"},
                                                                 {SscAlgorithm::optimized, "optimized"},
                                                                 {SscAlgorithm::twofive, "2.5d"}}};

enum class SscInput { random, purification };
inline constexpr EnumTable<SscInput, 2> ssc_input_names{
    {{SscInput::random, "random"}, {SscInput::purification, "purification"}}};

enum class PingpongMode { pingpong, bandwidth };
inline constexpr EnumTable<PingpongMode, 2> pingpong_mode_names{
    {{PingpongMode::pingpong, "pingpong"}, {PingpongMode::bandwidth, "bandwidth"}}};

enum class ChebfdScheme { nonsplit, splitwait, pipeline };
inline constexpr EnumTable<ChebfdScheme, 3> chebfd_scheme_names{{{ChebfdScheme::nonsplit, "nonsplit"},
                                                                {ChebfdScheme::splitwait, "splitwait"},
                                                                {ChebfdScheme::pipeline, "pipeline"}}};

enum class ChebfdBounds { gershgorin, lanczos };
inline constexpr EnumTable<ChebfdBounds, 2> chebfd_bounds_names{
    {{ChebfdBounds::gershgorin, "gershgorin"}, {ChebfdBounds::lanczos, "lanczos"}}};

enum class StencilVariant { spmv, base, ca };
inline constexpr EnumTable<StencilVariant, 3> stencil_variant_names{
    {{StencilVariant::spmv, "spmv"}, {StencilVariant::base, "base"}, {StencilVariant::ca, "ca"}}};

enum class SpmvScheme { nonsplit, splitwait };
inline constexpr EnumTable<SpmvScheme, 2> spmv_scheme_names{
    {{SpmvScheme::nonsplit, "nonsplit"}, {SpmvScheme::splitwait, "splitwait"}}};

enum class SpmvKernel { desync, kokkoskernels };
inline constexpr EnumTable<SpmvKernel, 2> spmv_kernel_names{
    {{SpmvKernel::desync, "desync"}, {SpmvKernel::kokkoskernels, "kokkoskernels"}}};

enum class SpmvValues { stochastic, generator };
inline constexpr EnumTable<SpmvValues, 2> spmv_values_names{
    {{SpmvValues::stochastic, "stochastic"}, {SpmvValues::generator, "generator"}}};

enum class TriadKernel { stream, schoenauer, divide };
inline constexpr EnumTable<TriadKernel, 3> triad_kernel_names{{{TriadKernel::stream, "stream"},
                                                               {TriadKernel::schoenauer, "schoenauer"},
                                                               {TriadKernel::divide, "divide"}}};

// The saturation sweep's kernels (saturation/stream_kernels.hpp); the order is /saturation/kernel's code.
enum class SaturationKernel { copy, scale, add, triad, triad_nt, schoenauer };
inline constexpr EnumTable<SaturationKernel, 6> saturation_kernel_names{{{SaturationKernel::copy, "copy"},
                                                                         {SaturationKernel::scale, "scale"},
                                                                         {SaturationKernel::add, "add"},
                                                                         {SaturationKernel::triad, "triad"},
                                                                         {SaturationKernel::triad_nt, "triad_nt"},
                                                                         {SaturationKernel::schoenauer, "schoenauer"}}};

enum class SaturationMode { threads, ranks };
inline constexpr EnumTable<SaturationMode, 2> saturation_mode_names{
    {{SaturationMode::threads, "threads"}, {SaturationMode::ranks, "ranks"}}};

enum class Boundary { open, periodic };
inline constexpr EnumTable<Boundary, 2> boundary_names{
    {{Boundary::open, "open"}, {Boundary::periodic, "periodic"}}};

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

enum class NoiseKind { none, uniform, exponential };
inline constexpr EnumTable<NoiseKind, 3> noise_kind_names{{{NoiseKind::none, "none"},
                                                          {NoiseKind::uniform, "uniform"},
                                                          {NoiseKind::exponential, "exponential"}}};

// Where a value came from, for errors found after loading (e.g. a rank that does not exist).
struct SourcePos {
  std::string where;  // "deck.toml:12:3" or "--set inject.rank=7"
};

struct RunConfig {
  Workload workload = Workload::triad;
  std::int64_t iterations = 1000;
  std::int64_t warmup = 10;
  bool barrier = false;
  std::uint64_t seed = 1;
  std::string output;  // empty: deck name with .h5
  bool overwrite = false;  // replace an existing output file (else: refused before any work)
  double progress_interval = 5.0;
  double memory_limit_gib = 0.0;  // per node; 0: what the node has available
  SourcePos output_pos;
  bool stream_table = false;      // measure a STREAM table before the run (saturation/stream_table.hpp)
  std::int64_t stream_size = 0;   // its elements per array and rank; 0: from the node's caches
};

struct TriadConfig {
  TriadKernel kernel = TriadKernel::stream;
  // The partner pattern (papers.md A.3.2): rank r sends to r + d and receives from r - d.
  std::vector<std::int64_t> offsets{1, -1};
  Boundary boundary = Boundary::open;
  std::int64_t message_bytes = 16384;
  std::int64_t size_per_rank = 0;  // elements per array and rank; 0: use global_size
  std::int64_t global_size = 0;    // elements per array over all ranks; 0: use size_per_rank
  double scalar = 3.0;
  std::int64_t divides = 64;  // back-to-back divisions per element (kernel "divide")
  bool write_allocate = true; // count write-allocate traffic for A in the byte model
};

// Back-to-back SpMV (papers.md A.3.3); iterations, warm-up and the barrier are in [run].
struct SpmvConfig {
  SpmvScheme scheme = SpmvScheme::splitwait;
  SpmvKernel kernel = SpmvKernel::desync;
  SpmvValues values = SpmvValues::stochastic;
  bool compare_barrier = false;        // also run the other barrier variant and report P_D
  std::int64_t barrier_samples = 1000;  // barriers timed by the micro-benchmark
};

// 2D 5-point Jacobi (papers.md C); steps are [run] iterations (+ warmup).
struct StencilConfig {
  std::int64_t n = 512;            // global interior grid n x n
  std::int64_t px = 0, py = 0;     // process grid; 0: automatic near-square factorization of P
  StencilVariant variant = StencilVariant::base;
  std::int64_t ca_steps = 4;       // s: steps per halo exchange of the CA variant
  std::int64_t tile_x = 0, tile_y = 0;  // [mb, nb] loop blocking of the local sweep; 0: whole block
  double ratio = 1.0;              // updated part of each tile edge (papers.md C.2.4)
  std::vector<double> weights{0.0, 0.25, 0.25, 0.25, 0.25};  // centre, x-1, x+1, y-1, y+1
  double boundary = 1.0;           // Dirichlet value on the global boundary
  double latency = 0.0;            // s of busy work added to every halo exchange
  bool skip_redundant = false;     // CA: skip the redundant ghost-zone sweeps (paper's simulation)
  std::int64_t verify_full_max = 4096;  // n up to this: gathered full-grid check; above: windows
  SourcePos px_pos, py_pos, ca_steps_pos;
};

// ChebFD polynomial filter (matrices.md §7, papers.md A.3.4); the degree steps are the timeline's
// iterations, [run] iterations is not used (docs/decks.md).
struct ChebfdConfig {
  std::int64_t ns = 8;   // search-space vectors
  std::int64_t nb = 4;   // vectors per block (ns multiple of nb)
  std::int64_t np = 50;  // polynomial degree (>= 2)
  ChebfdScheme scheme = ChebfdScheme::nonsplit;
  bool barrier_per_degree = false;
  double lambda_min = -0.5, lambda_max = 0.5;  // target window
  ChebfdBounds bounds = ChebfdBounds::gershgorin;
  std::int64_t lanczos_steps = 20;  // bounds = "lanczos": Lanczos iterations at setup
  std::int64_t verify_rows = 20000;  // global rows up to this: serial reference on rank 0
};

// Point-to-point micro-benchmarks (pingpong/pingpong.hpp): pair i is rank i and rank i + P/2.
struct PingpongConfig {
  PingpongMode mode = PingpongMode::pingpong;
  // Message sizes in bytes, each measured [run] iterations times after [run] warmup untimed ones.
  std::vector<std::int64_t> sizes{32768, 65536, 131072, 262144, 524288, 1048576, 2097152, 4194304};
  std::int64_t pairs = 0;   // 0: one pair for "pingpong", P/2 pairs for "bandwidth"
  std::int64_t window = 64; // "bandwidth": messages in flight per pair before the receiver's reply
  SourcePos pairs_pos;
};

// The communication-imbalance toys (toy/toy.hpp, papers.md D.3).
struct ToyConfig {
  bool overlap = false;            // false: noOverlapToy; true: overlapToy (compute part 1 while messages travel)
  std::int64_t degree = 0;         // targets per rank (r+1 .. r+degree mod P); 0: all other ranks
  std::int64_t messages = 1;       // messages per target
  std::int64_t min_bytes = 1;      // each (sender, target, k) message: uniform in [min_bytes, max_bytes],
  std::int64_t max_bytes = 1 << 20;  // drawn once from [run] seed
  double compute = 0.01;           // seconds of compute per iteration, every host thread busy
  double part1 = 0.5;              // overlap: fraction of compute before the wait
  SourcePos degree_pos;
};

// The miniFE-like conjugate gradient (cg/cg.hpp).
struct CgConfig {
  bool overlap = false;  // SpMV: post, rows without halo values, wait, the others (else exchange, then all rows)
};

// Nodes as the collective workloads see them (comm/node_layout.hpp, papers.md E.3): which ranks
// share a node, and how many of them per node take part in the kernel.
struct PlacementConfig {
  std::int64_t ranks_per_node = 0;  // 0: the ranks that share memory (MPI_COMM_TYPE_SHARED); > 0:
                                    // consecutive blocks of this many ranks count as one node
  std::int64_t active_ppn = 0;      // ranks per node that run the kernel (0: all); the others sleep
  SourcePos ranks_per_node_pos, active_ppn_pos;
};

// The collective micro-benchmark (collbench/collbench.hpp, papers.md E.3, Figs. 4-6).
struct CollbenchConfig {
  std::vector<CollOp> ops{CollOp::bcast, CollOp::reduce};
  CollMode mode = CollMode::blocking;  // nonblocking: [comm] communicators parts, one per duplicate
  // Message sizes in bytes (of floats, summed with MPI_SUM), each [run] warmup + iterations times.
  std::vector<std::int64_t> sizes{65536, 262144, 1048576, 2097152, 4194304, 8388608, 16777216};
};

// The mesh mat-vec demo (matvec2d/matvec2d.hpp, papers.md E.2 Algorithms 1 and 2).
struct Matvec2dConfig {
  std::int64_t n = 4096;          // global dimension of A and x
  bool pipelined = false;         // Alg. 2: Ireduce/Ibcast over [comm] communicators parts
};

// SymmSquareCube, D^2 and D^3 of a symmetric matrix (symmsquarecube/, papers.md E.2 Alg. 3-6).
struct SymmSquareCubeConfig {
  std::int64_t n = 1000;  // matrix dimension N
  SscAlgorithm algorithm = SscAlgorithm::optimized;
  std::int64_t replication = 2;  // "2.5d": c, mesh sqrt(P/c) x sqrt(P/c) x c
  SscInput input = SscInput::random;
  std::int64_t verify_n = 1024;  // N up to this: D^2, D^3 checked against a serial product
  SourcePos replication_pos;
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
};

struct NoiseConfig {
  NoiseKind kind = NoiseKind::none;
  double mean = 0.0;  // seconds per iteration and rank
  std::uint64_t seed = 0;  // 0: derive from [run] seed
};

// The saturation sweep (saturation/saturation.hpp, papers.md B.5): b(N) for N = 1 .. max_n.
struct SaturationConfig {
  std::vector<SaturationKernel> kernels{SaturationKernel::triad};
  SaturationMode mode = SaturationMode::threads;  // N threads of one rank, or N ranks of one node
  std::int64_t max_n = 0;         // 0: threads: the cores of the rank's memory domain (at most its threads); ranks: all ranks
  std::int64_t size = 0;          // elements per array over the N workers; 0: max(2^24, 4 x the node's last-level caches / 8 B)
  std::int64_t repetitions = 10;  // timed sweeps per (N, kernel); the shortest gives b(N)
  double tolerance = 0.1;         // N_s = smallest N with b(N) >= (1 - tolerance) max b
  SourcePos kernels_pos, max_n_pos;
};

// [record]: which iterations /timeline keeps in full (record/record_window.hpp). Statistics and
// metrics always cover every iteration; only the stored rows (and /messages, /collectives) shrink.
struct RecordConfig {
  bool window_given = false;
  std::int64_t window_begin = 0;  // deck numbering, half-open [begin, end); default: every row
  std::int64_t window_end = 0;
  std::int64_t stride = 1;        // keep begin, begin + stride, ... inside the window
};

struct ThreadsConfig {
  std::int64_t per_rank = 0;  // 0: OMP_NUM_THREADS or the Kokkos default
  // per_rank = "domain": each rank takes its share of the cores of its memory domain, resolved at
  // start (app/domain_threads) into per_rank; the resolved count is recorded in /topology.
  bool per_domain = false;
};

struct Config {
  std::string deck_path;
  std::string deck_text;
  std::vector<std::string> overrides;
  std::string resolved_toml;  // every key with its final value

  RunConfig run;
  TriadConfig triad;
  SpmvConfig spmv;
  StencilConfig stencil;
  ChebfdConfig chebfd;
  PingpongConfig pingpong;
  ToyConfig toy;
  CgConfig cg;
  CollbenchConfig collbench;
  Matvec2dConfig matvec2d;
  SymmSquareCubeConfig ssc;
  SaturationConfig saturation;
  PlacementConfig placement;
  CommConfig comm;
  std::vector<InjectConfig> inject;
  NoiseConfig noise;
  ThreadsConfig threads;
  RecordConfig record;
  bool has_matrix = false;  // the deck has a [matrix] table
  MatrixConfig matrix;
};

// The deck tables each workload reads; any other table in its deck is an error, in `check` as in
// `run` (docs/decks.md, "Tables per workload"). Defined by the workload registry (app/workloads.cpp).
const std::vector<std::string>& workload_tables(Workload w);
// The workload's own rank-count rules (registry); validate_for_ranks calls it.
void validate_workload_for_ranks(const Config& cfg, int nranks);
// Deck rules that depend on the workload's schemes (registry), e.g. progress = "test" needs
// computation while messages are in flight; load_deck calls it.
void validate_workload_deck(const Config& cfg);

// ChebFD's timeline iterations: the degree steps 2..np, per block unless pipelined.
std::int64_t chebfd_steps(const ChebfdConfig& c);

// Parses and validates a deck (text as read from deck_path) plus "table.key=value" overrides.
// Throws DeckError with a complete message on any problem.
Config load_deck(const std::string& deck_text, const std::string& deck_path,
                 const std::vector<std::string>& overrides);

// Checks what depends on the number of ranks (e.g. an injection on a rank that does not exist).
void validate_for_ranks(const Config& cfg, int nranks);

// Output file name after defaults: [run] output, else the deck's file name with ".h5".
std::string output_path(const Config& cfg);

}  // namespace desync
