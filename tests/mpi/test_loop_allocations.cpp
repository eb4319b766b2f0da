// "Hot loops allocate nothing" (DEVELOPERS.md), measured: every workload's run with M and with
// 3M iterations (M = 40) counts the same heap allocations of the C++ allocator (operator new, replaced in
// this executable only). What a run allocates once (arrays, the timeline sized for its
// iterations, logs, the halo plan) is the same count for both; anything the measured loop
// allocates per iteration (a std::string built for a Kokkos launch's label, a vector per
// message, a growing container) is 2M times more (80 per rank; fewer than 8 are tolerated,
// below). MPI's and the OpenMP runtime's own malloc
// calls are not C++ allocations and are not counted: they are the libraries', not desync's.
// Valid for the Kokkos 3.4 host builds it runs in (OpenMP, ctest); skipped on Kokkos 4, which
// allocates in its own launches (kokkos_compat/launch_allocations.hpp); a CUDA runtime linked in
// would call this operator new too.
#include <gtest/gtest.h>
#include <mpi.h>

#include <atomic>
#include <cstdlib>
#include <fstream>
#include <new>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "core/mpi_util.hpp"
#include "kokkos_compat/launch_allocations.hpp"
#include "workloads/registry.hpp"

namespace {
std::atomic<long long> allocations{0};
std::atomic<bool> counting{false};

void* counted(std::size_t n) {
  if (counting.load(std::memory_order_relaxed)) allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(n == 0 ? 1 : n)) return p;
  throw std::bad_alloc();
}
void* counted_aligned(std::size_t n, std::align_val_t a) {
  if (counting.load(std::memory_order_relaxed)) allocations.fetch_add(1, std::memory_order_relaxed);
  const std::size_t al = static_cast<std::size_t>(a);
  if (void* p = std::aligned_alloc(al, (n + al - 1) / al * al)) return p;
  throw std::bad_alloc();
}
}  // namespace

void* operator new(std::size_t n) { return counted(n); }
void* operator new[](std::size_t n) { return counted(n); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
  try {
    return counted(n);
  } catch (...) {
    return nullptr;
  }
}
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept {
  try {
    return counted(n);
  } catch (...) {
    return nullptr;
  }
}
void* operator new(std::size_t n, std::align_val_t a) { return counted_aligned(n, a); }
void* operator new[](std::size_t n, std::align_val_t a) { return counted_aligned(n, a); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }

namespace desync {
namespace {

// The shipped decks, from the folder ctest names (tests/CMakeLists.txt).
std::string read_deck_file(const std::string& name) {
  const char* inputs = std::getenv("DESYNC_TEST_INPUTS");
  if (inputs == nullptr) throw std::runtime_error("DESYNC_TEST_INPUTS is not set (the inputs/ folder; ctest sets it)");
  std::ifstream in(std::string(inputs) + "/" + name);
  if (!in) throw std::runtime_error(std::string(inputs) + "/" + name + ": cannot read");
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// C++ allocations of one run of `deck` with `iterations` measured iterations, summed over ranks.
// iterations_key: the override that sets the measured iterations ("run.iterations", ChebFD's
// degree "chebfd.np", one step fewer per block, or the saturation sweep's repetitions).
long long allocations_of(const std::string& deck, std::vector<std::string> sets, int iterations, const char* iterations_key) {
  const bool degree = std::string(iterations_key) == "chebfd.np";
  sets.push_back(std::string(iterations_key) + "=" + std::to_string(degree ? iterations + 1 : iterations));
  sets.push_back("run.progress_interval=0");
  if (std::string(iterations_key) != "saturation.repetitions") sets.push_back("run.warmup=2");  // its own untimed sweep
  const Config cfg = load_deck(read_deck_file(deck), deck, sets);
  const WorkloadModule& w = workload_module(cfg.run.workload);
  MPI_Barrier(MPI_COMM_WORLD);
  allocations = 0;
  counting = true;
  { const WorkloadResult r = w.run(cfg, MPI_COMM_WORLD); }
  counting = false;
  long long n = allocations.load();
  MPI_Allreduce(MPI_IN_PLACE, &n, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  return n;
}

struct Case {
  const char* deck;
  std::vector<std::string> sets;
  bool (*ranks_ok)(int);
  const char* iterations_key = "run.iterations";
  // Allocations per iteration and rank inside a library the loop calls, not desync's own:
  // KokkosBlas::gemm (KokkosKernels 3.4) names its profiling region with a new std::string at
  // every call, also when no profiling tool is loaded.
  int library_per_iteration = 0;
};

bool any(int) { return true; }
bool square(int p) { return p == 1 || p == 4 || p == 9; }
bool cube(int p) { return p == 1 || p == 8; }
bool even(int p) { return p % 2 == 0; }
bool one(int p) { return p == 1; }

// Small sizes, a few iterations: the count, not the time, is measured. Comm options that take
// another path through the loop run as their own case.
const std::vector<Case> cases{
    {"triad/next_pair.toml", {"triad.size_per_rank=4096"}, any},
    {"triad/next_pair.toml", {"triad.size_per_rank=4096", "comm.send=\"parallel\"", "comm.fragment_bytes=64"}, any},
    {"spmv/spin_nonsplit_barrier.toml", {"matrix.spin.sites=10", "spmv.compare_barrier=false"}, any},
    {"spmv/hhq_small_ep.toml", {"spmv.scheme=\"splitwait\"", "comm.progress=\"test\""}, any},
    {"spmv/hhq_small_ep.toml", {"matrix.format=\"sell\"", "comm.progress=\"thread\""}, any},
    {"chebfd/spin_small.toml", {"matrix.spin.sites=10"}, any, "chebfd.np"},
    {"chebfd/topi_m4_small.toml", {}, any, "chebfd.np"},
    {"stencil/base_512.toml", {"stencil.n=64", "stencil.px=0", "stencil.py=0", "stencil.tile=[16, 16]"}, any},
    {"stencil/ca_512.toml", {"stencil.n=64", "stencil.px=0", "stencil.py=0", "stencil.tile=[16, 16]"}, any},
    {"cg/minife_small.toml", {"matrix.partition=\"nnz\""}, any},
    {"cg/minife_small.toml", {"matrix.partition=\"nnz\"", "cg.overlap=true"}, any},
    {"matvec2d/small.toml", {}, square},
    {"symmsquarecube/small.toml", {}, cube, "run.iterations", 2},  // D^2 and D^3: two gemms per call
    {"toy/overlap_rendezvous.toml", {"toy.compute=0.0005", "toy.min_bytes=4096", "toy.max_bytes=4096"}, any},
    {"pingpong/pingpong.toml", {"pingpong.sizes=[64, 4096]"}, even},
    {"collbench/small.toml", {"collbench.sizes=[4096]"}, any},
    {"saturation/small.toml",
     {"saturation.max_n=1", "saturation.size=100000", "run.stream_size=100000"}, one, "saturation.repetitions"},
};

TEST(LoopAllocations, NoWorkloadAllocatesPerIteration) {
  if constexpr (compat::kokkos_launches_allocate)
    GTEST_SKIP() << "Kokkos " << KOKKOS_VERSION << " allocates inside its own launches (kokkos_compat/launch_allocations.hpp): "
                 << "this count cannot tell desync's allocations from Kokkos'; it measures them on Kokkos 3.4";
  const int size = comm_size(MPI_COMM_WORLD);
  for (const Case& c : cases) {
    if (!c.ranks_ok(size)) continue;
    std::string what = c.deck;
    for (const auto& s : c.sets) what += " --set " + s;
    SCOPED_TRACE(what);
    allocations_of(c.deck, c.sets, 40, c.iterations_key);  // first touches: Kokkos' scratch, MPI's buffers, statics
    const long long few = allocations_of(c.deck, c.sets, 40, c.iterations_key),
                    many = allocations_of(c.deck, c.sets, 120, c.iterations_key);
    // 80 more iterations on each rank: one allocation per iteration anywhere is 80 x size more. A
    // few either way are no iteration's: what happens by the clock (the stop agreement about once
    // a second, a rare CG restart per completed solve) differs between two runs of other lengths.
    const long long library = 80LL * size * c.library_per_iteration, extra = many - few - library;
    EXPECT_LT(std::llabs(extra), 8LL * size) << "the measured loop allocated about " << extra / 80.0 / size
                             << " time(s) per iteration and rank";
  }
}

}  // namespace
}  // namespace desync
