// The miniFE-like CG (workloads/cg/cg.hpp): it converges to the manufactured solution, its verification
// passes, and the overlapped and non-overlapped SpMV give bitwise the same iterates for every comm
// option, at 1-4 ranks; decks it cannot run are refused.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <string>
#include <vector>

#include "workloads/cg/cg.hpp"
#include "workloads/cg/cg_verify.hpp"
#include "matrix/local_matrix.hpp"
#include "matrix/make_generator.hpp"
#include "matrix/row_partition.hpp"
#include "workload/owned_values.hpp"
#include "config/config.hpp"
#include "workloads/registry.hpp"
#include "core/errors.hpp"
#include "core/mpi_util.hpp"
#include "thread_level.hpp"

namespace desync {
namespace {

double metric(const WorkloadResult& r, const std::string& name) {
  for (const auto& v : r.metrics)
    if (v.name == name) return v.value;
  return -1.0;
}

// The error of the last completed solve, or of the final x when no solve completed.
double solved_error(const WorkloadResult& r) {
  return metric(r, "solves") > 0 ? metric(r, "solve_error_max") : metric(r, "relative_error");
}

bool same_on_all_ranks_and(std::uint64_t a, std::uint64_t b) {
  int same = a == b;
  MPI_Allreduce(MPI_IN_PLACE, &same, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  return same == 1;
}

Config deck(const std::string& cg, const std::string& comm = "", const std::string& partition = "rows") {
  return load_deck("[run]\nworkload = \"cg\"\niterations = 60\nwarmup = 2\nprogress_interval = 0\n[cg]\n" + cg +
                       "\n[matrix]\ngenerator = \"minife\"\npartition = \"" + partition +
                       "\"\n[matrix.minife]\nelements = [6, 5, 7]\n[comm]\n" + comm,
                   "cg.toml", {});
}

TEST(Cg, ConvergesToTheManufacturedSolution) {
  const WorkloadResult r = run_cg(deck("overlap = false\n"), MPI_COMM_WORLD);
  EXPECT_TRUE(r.extra_verdict.empty()) << r.extra_verdict;
  EXPECT_EQ(r.nonfinite, 0);
  EXPECT_GE(metric(r, "solves"), 1.0) << "336 unknowns: converged within 62 iterations";
  EXPECT_LT(solved_error(r), 1e-8);
  EXPECT_LT(metric(r, "true_relative_residual"), 1.0);
  const WorkloadDataset* res = find_dataset(r, "cg", "residual");
  ASSERT_NE(res, nullptr);
  EXPECT_EQ(res->values.front(), 1.0);
  EXPECT_LE(*std::min_element(res->values.begin(), res->values.end()), 1e-12) << "a solve completed";
}

// A long run restarts after each completed solve (||r|| <= 1e-12 ||b||) instead of iterating on
// subnormal residuals; every completed solve met the known solution.
TEST(Cg, RestartsAfterEachCompletedSolve) {
  const Config cfg = load_deck("[run]\nworkload = \"cg\"\niterations = 400\nwarmup = 0\nprogress_interval = 0\n[matrix]\n"
                               "generator = \"minife\"\n[matrix.minife]\nelements = [6, 5, 7]\n",
                               "long.toml", {});
  const WorkloadResult r = run_cg(cfg, MPI_COMM_WORLD);
  EXPECT_TRUE(r.extra_verdict.empty()) << r.extra_verdict;
  EXPECT_GE(metric(r, "solves"), 2.0) << "336 unknowns converge in well under 200 iterations";
  EXPECT_LT(metric(r, "solve_error_max"), 1e-8);
  const WorkloadDataset* res = find_dataset(r, "cg", "residual");
  ASSERT_NE(res, nullptr);
  int completed = 0;  // iterations that ended a solve: the history shows them, the next starts at ||b||
  for (std::size_t k = 1; k < res->values.size(); ++k) {
    EXPECT_GT(res->values[k], 0.0) << "iteration " << k << ": never down to exactly 0 (or subnormal)";
    completed += res->values[k] <= 1e-12;
  }
  EXPECT_EQ(completed, static_cast<int>(metric(r, "solves")));
}

// A run whose last iteration completes a solve (and so restarts from x = 0) verifies the
// restarted state: the recurrence's residual it compares with ||b - A x|| is the restart's ||b||,
// not the completed solve's last residual.
TEST(Cg, VerifiesARunThatEndsOnACompletedSolve) {
  const auto long_run = [](int iterations) {
    return load_deck("[run]\nworkload = \"cg\"\niterations = " + std::to_string(iterations) +
                         "\nwarmup = 0\nprogress_interval = 0\n[matrix]\ngenerator = \"minife\"\n[matrix.minife]\n"
                         "elements = [6, 5, 7]\n",
                     "ends.toml", {});
  };
  const WorkloadResult probe = run_cg(long_run(200), MPI_COMM_WORLD);
  const WorkloadDataset* res = find_dataset(probe, "cg", "residual");
  ASSERT_NE(res, nullptr);
  const auto first_solve = std::find_if(res->values.begin() + 1, res->values.end(), [](double v) { return v <= 1e-12; });
  ASSERT_NE(first_solve, res->values.end()) << "336 unknowns converge in well under 200 iterations";
  const int solve_length = static_cast<int>(first_solve - res->values.begin());  // entry k: after iteration k
  const WorkloadResult r = run_cg(long_run(solve_length), MPI_COMM_WORLD);
  EXPECT_EQ(metric(r, "solves"), 1.0) << "the last of " << solve_length << " iterations completes the solve";
  EXPECT_TRUE(r.extra_verdict.empty()) << r.extra_verdict;
  EXPECT_LT(metric(r, "solve_error_max"), 1e-8);
}

TEST(Cg, OverlapAndEveryCommOptionGiveTheSameIterates) {
  const WorkloadResult base = run_cg(deck("overlap = false\n"), MPI_COMM_WORLD);
  for (const char* comm : {"", "send = \"blocking\"\n", "fragment_bytes = 100\ncommunicators = 3\n", "send = \"parallel\"\n",
                           "progress = \"thread\"\n", "progress = \"test\"\ntest_interval = 9\n",
                           "gpu_aware_mpi = \"off\"\n"}) {
    for (const char* overlap : {"false", "true"}) {
      const std::string c = comm;
      if (c.find("test") != std::string::npos && std::string(overlap) == "false") {
        EXPECT_THROW(deck("overlap = false\n", c), DeckError);
        continue;
      }
      const Config cfg = deck(std::string("overlap = ") + overlap + "\n", c);
      if (cfg.comm.needs_thread_multiple() && !thread_multiple()) continue;
      SCOPED_TRACE(c + " overlap = " + overlap);
      const WorkloadResult r = run_cg(cfg, MPI_COMM_WORLD);
      EXPECT_TRUE(r.extra_verdict.empty()) << r.extra_verdict;
      EXPECT_TRUE(same_on_all_ranks_and(r.result_fingerprint, base.result_fingerprint)) << "iterates differ";
    }
  }
}

TEST(Cg, BoxPartitionAndStencilMatrix) {
  const int size = comm_size(MPI_COMM_WORLD);
  const std::string grid = "[" + std::to_string(size) + ", 1, 1]";
  const Config box = load_deck("[run]\nworkload = \"cg\"\niterations = 60\nwarmup = 0\nprogress_interval = 0\n[cg]\noverlap = true\n"
                               "[matrix]\ngenerator = \"minife\"\npartition = \"box\"\n[matrix.minife]\nelements = [6, 5, 7]\ngrid = " +
                                   grid + "\n",
                               "box.toml", {});
  const WorkloadResult r = run_cg(box, MPI_COMM_WORLD);
  EXPECT_TRUE(r.extra_verdict.empty()) << r.extra_verdict;
  EXPECT_LT(solved_error(r), 1e-8);
  const Config st = load_deck("[run]\nworkload = \"cg\"\niterations = 80\nwarmup = 0\nprogress_interval = 0\n[matrix]\n"
                              "generator = \"stencil5\"\n[matrix.stencil5]\nnx = 12\nny = 9\n",
                              "st.toml", {});
  const WorkloadResult s = run_cg(st, MPI_COMM_WORLD);
  EXPECT_TRUE(s.extra_verdict.empty()) << s.extra_verdict;
  EXPECT_LT(solved_error(s), 1e-8);
}

// The verification's product against the matrix rows (workloads/cg/cg_verify.hpp) catches a
// halo delivered wrong: a product whose halo values are the owners' agrees, one whose halo never
// arrived (zeros) does not, in every row with a nonzero halo entry; and
// gather_owned_values gives every global row the value its owner holds.
TEST(CgVerify, AProductThroughAWrongHaloIsCaught) {
  const Config cfg = deck("overlap = false\n");
  const auto gen = make_generator(cfg.matrix);
  const int rank = comm_rank(MPI_COMM_WORLD), size = comm_size(MPI_COMM_WORLD);
  const RowPartition part = make_partition(*gen, cfg.matrix, size);
  const LocalMatrix<double> m = build_local_matrix<double>(*gen, part, rank);
  const cg::HostRows a = cg::host_rows(m);
  const auto v = [](GlobalIndex g) { return 1.0 + 0.001 * static_cast<double>(g % 997); };
  const auto n = static_cast<std::size_t>(m.rows);
  std::vector<double> y(n, 0.0), y_wrong(n, 0.0);
  std::int64_t reading_halo = 0;
  for (std::size_t i = 0; i < n; ++i) {
    bool halo = false;
    for (std::size_t k = a.row_ptr(i); k < a.row_ptr(i + 1); ++k) {
      const GlobalIndex g = a.global(a.col(k));
      y[i] += a.val(k) * v(g);
      halo = halo || (a.col(k) >= m.rows && a.val(k) != 0.0);  // the matrix stores some zeros
      y_wrong[i] += a.col(k) >= m.rows ? 0.0 : a.val(k) * v(g);  // the halo never delivered: zeros
    }
    reading_halo += halo;
  }
  EXPECT_EQ(cg::rows_off_product(a, v, y.data()), 0);
  double d2 = 0.0;
  EXPECT_EQ(cg::rows_off_product(a, v, y_wrong.data(), &d2), reading_halo);
  EXPECT_EQ(d2 > 0.0, reading_halo > 0);
  if (size > 1) {
    EXPECT_GT(reading_halo, 0) << "rank " << rank << ": a row partition of minife reads a halo";
  }
  y[0] += 1e-9 * std::fabs(y[0]);  // an owned row off by 1e-9: beyond the rounding allowance
  EXPECT_EQ(cg::rows_off_product(a, v, y.data()), 1);

  Vector owned("owned", n);
  auto h = Kokkos::create_mirror_view(owned);
  for (std::size_t i = 0; i < n; ++i) h(i) = v(m.first_row + static_cast<GlobalIndex>(i));
  Kokkos::deep_copy(owned, h);
  const std::vector<double> all = gather_owned_values(owned, part, MPI_COMM_WORLD);
  ASSERT_EQ(static_cast<GlobalIndex>(all.size()), gen->rows());
  for (GlobalIndex g = 0; g < gen->rows(); ++g) ASSERT_EQ(all[static_cast<std::size_t>(g)], v(g)) << "row " << g;
}

TEST(CgDeck, RefusesMatricesThatAreNotSpd) {
  EXPECT_THROW(load_deck("[run]\nworkload = \"cg\"\n[matrix]\ngenerator = \"spin\"\n", "spin.toml", {}), DeckError);
  EXPECT_THROW(load_deck("[run]\nworkload = \"cg\"\n", "none.toml", {}), DeckError) << "needs a [matrix]";
  EXPECT_THROW(load_deck("[run]\nworkload = \"cg\"\n[matrix]\ngenerator = \"stencil5\"\n[matrix.stencil5]\nweights = [1, -1, -3, -1, -1]\n",
                         "w.toml", {}),
               DeckError)
      << "not symmetric";
  EXPECT_NO_THROW(load_deck("[run]\nworkload = \"cg\"\n[matrix]\ngenerator = \"stencil5\"\n[matrix.stencil5]\nweights = [6, -1, -1, -2, -2]\n",
                            "w.toml", {}));
  EXPECT_THROW(validate_for_ranks(deck("", "", "box"), 2), DeckError) << "grid [1, 1, 1] is one box";
}

}  // namespace
}  // namespace desync
