#pragma once
// The resolved configuration of a run: plain structs, filled and validated once by load_deck().
// docs/decks.md documents every field (its deck key, default and allowed values).
#include <cstdint>
#include <string>
#include <vector>

#include "config/enum_table.hpp"
#include "config/matrix_config.hpp"

namespace desync {

enum class Workload { triad, spmv };
inline constexpr EnumTable<Workload, 2> workload_names{{{Workload::triad, "triad"}, {Workload::spmv, "spmv"}}};

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

enum class Boundary { open, periodic };
inline constexpr EnumTable<Boundary, 2> boundary_names{
    {{Boundary::open, "open"}, {Boundary::periodic, "periodic"}}};

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
  double progress_interval = 5.0;
};

struct TriadConfig {
  TriadKernel kernel = TriadKernel::stream;
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

struct CommConfig {
  std::vector<std::int64_t> offsets{1, -1};
  Boundary boundary = Boundary::open;
  std::int64_t message_bytes = 16384;
};

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

struct ThreadsConfig {
  std::int64_t per_rank = 0;  // 0: OMP_NUM_THREADS or the Kokkos default
};

struct Config {
  std::string deck_path;
  std::string deck_text;
  std::vector<std::string> overrides;
  std::string resolved_toml;  // every key with its final value

  RunConfig run;
  TriadConfig triad;
  SpmvConfig spmv;
  CommConfig comm;
  std::vector<InjectConfig> inject;
  NoiseConfig noise;
  ThreadsConfig threads;
  bool has_matrix = false;  // the deck has a [matrix] table
  MatrixConfig matrix;
};

// Parses and validates a deck (text as read from deck_path) plus "table.key=value" overrides.
// Throws DeckError with a complete message on any problem.
Config load_deck(const std::string& deck_text, const std::string& deck_path,
                 const std::vector<std::string>& overrides);

// Checks what depends on the number of ranks (e.g. an injection on a rank that does not exist).
void validate_for_ranks(const Config& cfg, int nranks);

// Output file name after defaults: [run] output, else the deck's file name with ".h5".
std::string output_path(const Config& cfg);

}  // namespace desync
