// The stencil workload at the current rank count: every process grid that fits (square,
// non-square, 1 x P, P x 1, automatic), all three variants, odd grid sizes, several CA depths,
// tiles and ratio < 1. Every run verifies itself against the serial reference (gathered grid,
// bitwise), and all variants must give bitwise the same grid (same fingerprint on every rank).
#include <gtest/gtest.h>
#include <mpi.h>

#include <fmt/format.h>

#include <string>
#include <utility>
#include <vector>

#include "config/config.hpp"
#include "workloads/registry.hpp"
#include "core/errors.hpp"
#include "core/mpi_util.hpp"
#include "workloads/stencil/stencil.hpp"
#include "workloads/stencil/stencil_grid.hpp"
#include "workloads/stencil/stencil_reference.hpp"
#include "workloads/stencil/stencil_config.hpp"
#include "workloads/stencil/stencil_sweep.hpp"

namespace desync {
namespace {

Config deck(const std::string& stencil, std::int64_t iterations = 7, std::int64_t warmup = 2) {
  return load_deck(fmt::format("[run]\nworkload = \"stencil\"\niterations = {}\nwarmup = {}\nprogress_interval = 0\n"
                               "[stencil]\n{}",
                               iterations, warmup, stencil),
                   "stencil.toml", {});
}

bool same_everywhere(std::uint64_t a, std::uint64_t b) {
  int differ = a != b, any = 0;
  MPI_Allreduce(&differ, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  return any == 0;
}

std::int64_t global_errors(const WorkloadResult& r) {
  std::int64_t e = r.element_errors + (r.extra_verdict.empty() ? 0 : 1);
  MPI_Allreduce(MPI_IN_PLACE, &e, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
  return e;
}

// Process grids for this rank count: (px, py) with px * py = P, plus (0, 0) = automatic.
std::vector<std::pair<int, int>> grids() {
  const int p = comm_size(MPI_COMM_WORLD);
  std::vector<std::pair<int, int>> out{{0, 0}};
  for (int px = 1; px <= p; ++px)
    if (p % px == 0) out.emplace_back(px, p / px);
  return out;
}

struct Case {
  const char* name;
  std::int64_t n;
  const char* extra;  // more [stencil] keys
};

class Stencil : public ::testing::TestWithParam<Case> {};

TEST_P(Stencil, AllVariantsVerifyAndAgreeOnEveryGrid) {
  const Case k = GetParam();
  for (const auto& [px, py] : grids()) {
    const std::string common = fmt::format("n = {}\npx = {}\npy = {}\n{}", k.n, px, py, k.extra);
    const WorkloadResult base = run_stencil(deck(common + "variant = \"base\"\n"), MPI_COMM_WORLD);
    EXPECT_EQ(global_errors(base), 0) << common << base.extra_verdict;
    std::int64_t checked = base.elements_checked;
    MPI_Allreduce(MPI_IN_PLACE, &checked, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
    EXPECT_EQ(checked, k.n * k.n) << "the gathered check covers the whole grid";
    std::vector<std::string> variants{"variant = \"spmv\"\n"};
    for (int s : {1, 2, 3, 5})
      variants.push_back(fmt::format("variant = \"ca\"\nca_steps = {}\n", s));
    for (const auto& v : variants) {
      Config cfg = deck(common + v);
      try {
        validate_stencil_grid(cfg.params.get<StencilConfig>(), comm_size(MPI_COMM_WORLD));
      } catch (const DeckError&) {
        continue;  // s deeper than a block edge here: covered by CaDeeperThanBlockIsADeckError
      }
      const WorkloadResult r = run_stencil(cfg, MPI_COMM_WORLD);
      EXPECT_EQ(global_errors(r), 0) << common << v << r.extra_verdict;
      EXPECT_TRUE(same_everywhere(r.result_fingerprint, base.result_fingerprint)) << "not bitwise equal to base: " << common << v;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    Sizes, Stencil,
    ::testing::Values(Case{"odd", 13, ""}, Case{"square", 24, ""}, Case{"tiles", 29, "tile = [4, 3]\n"},
                      Case{"ratio", 31, "tile = [6, 5]\nratio = 0.5\n"},
                      Case{"weights", 17, "weights = [0.5, 0.1, 0.2, 0.05, 0.15]\nboundary = -2.0\n"},
                      Case{"ratio_whole_block", 21, "ratio = 0.7\n"}),
    [](const ::testing::TestParamInfo<Case>& i) { return std::string(i.param.name); });

// The GPU's sweep mapping (a team per row run) forced on this build's space: bitwise the sweep
// of a thread per run, on runs of a tiled 23 x 19 block (uneven tiles, a ghost zone of 1).
TEST(StencilSweep, TeamPerRunIsBitwiseThreadPerRun) {
  const std::int64_t wx = 25, wy = 21;
  std::vector<RowRun> runs;
  for (std::int32_t t0 : {1, 9, 17})  // tiles of 8 columns, the last one 7
    for (std::int32_t j = 1; j < wy - 1; ++j) runs.push_back({j, t0, std::min<std::int32_t>(t0 + 8, static_cast<std::int32_t>(wx - 1))});
  const RunView rv = runs_to_device(runs);
  Vector x("x", static_cast<std::size_t>(wx * wy));
  Kokkos::parallel_for("init", RangePolicy(0, wx * wy), StencilInit{x, wx, 0, 0, 1, 23, -1.0});
  const StencilWeights w{0.4, 0.1, 0.2, 0.17, 0.13};
  Vector by_thread("t", x.extent(0)), by_team("m", x.extent(0));
  Kokkos::deep_copy(by_thread, 1e300);  // a sentinel: what no sweep writes
  Kokkos::deep_copy(by_team, 1e300);
  sweep_stencil<ExecSpace, SweepMapping::run_per_thread>(rv, x, by_thread, wx, w);
  sweep_stencil<ExecSpace, SweepMapping::run_per_team>(rv, x, by_team, wx, w);
  Kokkos::fence();
  const auto a = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), by_thread);
  const auto b = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), by_team);
  std::int64_t differ = 0, updated = 0;
  for (std::size_t p = 0; p < a.extent(0); ++p) {
    differ += a(p) != b(p);
    updated += a(p) != 1e300;
  }
  EXPECT_EQ(differ, 0);
  EXPECT_EQ(updated, 23 * 19);  // every interior point, nothing else
}

TEST(StencilRecord, TimelineCompositesAndPartners) {
  const int size = comm_size(MPI_COMM_WORLD);
  const WorkloadResult r = run_stencil(deck("n = 20\nvariant = \"ca\"\nca_steps = 3\nlatency = 1e-5\n", 9, 0), MPI_COMM_WORLD);
  const Timeline& tl = r.timeline;
  ASSERT_EQ(tl.event_names(), stencil_event_names());
  for (std::int64_t it = 0; it < tl.iterations(); ++it) {
    const bool exchange = it % 3 == 0;
    EXPECT_EQ(std::isnan(tl.at(it, tl.event_index("wait_end"))), !exchange) << it;
    EXPECT_EQ(std::isnan(tl.at(it, tl.event_index("latency_end"))), !exchange) << it;
    EXPECT_FALSE(std::isnan(tl.at(it, tl.event_index("sweep_end"))));
    EXPECT_TRUE(std::isnan(tl.at(it, tl.event_index("sync_end"))));
  }
  EXPECT_EQ(r.work_phase, "sweep");
  const auto [px, py] = stencil_process_grid(deck("n = 20\n").params.get<StencilConfig>(), size);
  std::size_t expected = 0;  // edge + corner neighbours of this rank
  const int cx = comm_rank(MPI_COMM_WORLD) % px, cy = comm_rank(MPI_COMM_WORLD) / px;
  for (int dx = -1; dx <= 1; ++dx)
    for (int dy = -1; dy <= 1; ++dy)
      if ((dx || dy) && cx + dx >= 0 && cx + dx < px && cy + dy >= 0 && cy + dy < py) ++expected;
  EXPECT_EQ(r.partners.recv_rank.size(), expected);
  EXPECT_EQ(r.partners.send_rank.size(), expected);
  for (auto b : r.partners.send_bytes) EXPECT_GT(b, 0);
  double redundant = -1, gflops = -1;
  for (const auto& v : r.metrics) {
    if (v.name == "redundant_flops_per_step") redundant = v.value;
    if (v.name == "gflops") gflops = v.value;
  }
  EXPECT_GT(gflops, 0.0);
  if (size > 1) {
    EXPECT_GT(redundant, 0.0) << "CA recomputes ghost cells";
  }
  else EXPECT_EQ(redundant, 0.0);
}

TEST(StencilRecord, LargeGridUsesWindowCheck) {
  // Above verify_full_max the corner windows of every block are checked against reference windows.
  const WorkloadResult r = run_stencil(deck("n = 40\nverify_full_max = 16\nvariant = \"ca\"\nca_steps = 2\n", 6, 1), MPI_COMM_WORLD);
  EXPECT_EQ(global_errors(r), 0) << r.extra_verdict;
  EXPECT_GT(r.elements_checked, 0);
  EXPECT_LT(r.elements_checked, 40 * 40);
  EXPECT_NE(r.verification_scope.find("corner windows"), std::string::npos) << "a partial check is said: " << r.verification_scope;
  const WorkloadResult full = run_stencil(deck("n = 16\nverify_full_max = 16\n", 6, 1), MPI_COMM_WORLD);
  EXPECT_TRUE(full.verification_scope.empty()) << full.verification_scope;
}

TEST(StencilRecord, SkipRedundantIsNotTheJacobiResult) {
  if (comm_size(MPI_COMM_WORLD) < 2) GTEST_SKIP() << "no ghost zone to skip on one rank";
  const WorkloadResult base = run_stencil(deck("n = 24\n"), MPI_COMM_WORLD);
  const WorkloadResult skip = run_stencil(deck("n = 24\nvariant = \"ca\"\nca_steps = 3\nskip_redundant = true\n"), MPI_COMM_WORLD);
  EXPECT_EQ(global_errors(skip), 0) << "only finiteness is checked";
  EXPECT_NE(skip.verification_scope.find("finite values only"), std::string::npos) << skip.verification_scope;
  EXPECT_FALSE(same_everywhere(skip.result_fingerprint, base.result_fingerprint)) << "stale ghosts change the result";
  for (const auto& v : skip.metrics) {
    if (v.name == "redundant_flops_per_step") {
      EXPECT_EQ(v.value, 0.0);
    }
  }
}

TEST(StencilReference, WindowAgreesWithFullGrid) {
  const Config c = deck("n = 30\ntile = [7, 4]\nratio = 0.6\n");
  const auto full = stencil_reference(c.params.get<StencilConfig>(), 2, 3, 0, 0, 30, 30, 5);
  const auto win = stencil_reference(c.params.get<StencilConfig>(), 2, 3, 8, 9, 14, 12, 5);  // exact at distance >= 5 from its edge
  for (std::int64_t j = 5; j < 7; ++j)
    for (std::int64_t i = 5; i < 9; ++i)
      EXPECT_EQ(win[static_cast<std::size_t>(j * 14 + i)], full[static_cast<std::size_t>((9 + j) * 30 + 8 + i)]);
  const auto moved = stencil_reference(c.params.get<StencilConfig>(), 2, 3, 0, 0, 30, 30, 6);
  EXPECT_NE(moved, full) << "a step changes the grid, so the check can fail";
}

TEST(StencilDeck, ProcessGridMustMatchRanks) {
  const int size = comm_size(MPI_COMM_WORLD);
  EXPECT_THROW(run_stencil(deck(fmt::format("n = 16\npx = {}\npy = 1\n", size + 1)), MPI_COMM_WORLD), DeckError);
  try {
    validate_stencil_grid(deck(fmt::format("n = 16\npx = 2\npy = {}\n", size)).params.get<StencilConfig>(), size);
    FAIL() << "px * py = 2P accepted";
  } catch (const DeckError& e) {
    EXPECT_NE(std::string(e.what()).find("px * py"), std::string::npos) << e.what();
  }
}

TEST(StencilDeck, CaDeeperThanBlockIsADeckError) {
  const int size = comm_size(MPI_COMM_WORLD);
  if (size < 2) GTEST_SKIP() << "one rank has no neighbours, any depth works";
  const std::string d = fmt::format("n = {}\npx = {}\npy = 1\nvariant = \"ca\"\nca_steps = 3\n", 2 * size, size);
  try {
    run_stencil(deck(d), MPI_COMM_WORLD);
    FAIL() << "ca_steps 3 > block edge 2 accepted";
  } catch (const DeckError& e) {
    EXPECT_NE(std::string(e.what()).find("ca_steps = 3"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace desync
