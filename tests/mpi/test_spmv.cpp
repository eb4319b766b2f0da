// The SpMV workload at the current rank count: every generator, both schemes, both kernels, with
// and without barrier. The final product must match the generator's rows (checked in the run),
// and all schemes and barrier variants must give bitwise the same vector.
#include <gtest/gtest.h>
#include <mpi.h>

#include <fmt/format.h>

#include <tuple>
#include <vector>
#include <utility>

#include "workloads/registry.hpp"
#include "core/errors.hpp"
#include "core/mpi_util.hpp"
#include "workloads/spmv/spmv.hpp"
#include "workloads/spmv/spmv_verify.hpp"
#include "matrix/local_matrix.hpp"
#include "matrix/make_generator.hpp"
#include "matrix/row_partition.hpp"
#include "workload/owned_values.hpp"

namespace desync {
namespace {

const char* const matrices[] = {
    "[matrix]\ngenerator = \"spin\"\npartition = \"nnz\"\n[matrix.spin]\nsites = 10\nboundary = \"periodic\"\n",
    "[matrix]\ngenerator = \"hhq\"\npartition = \"nnz\"\n[matrix.hhq]\nsites = 4\nup = 2\ndown = 1\nphonons = 3\norder = \"pe\"\n",
    "[matrix]\ngenerator = \"hhq\"\n[matrix.hhq]\nsites = 4\nup = 1\ndown = 1\nphonons = 4\norder = \"ep\"\n",
    "[matrix]\ngenerator = \"topi\"\n[matrix.topi]\nblock = [3, 2, 4]\nnodes = [1, 2, 2]\ndisorder = 0.5\n",
    "[matrix]\ngenerator = \"stencil5\"\n[matrix.stencil5]\nnx = 9\nny = 7\n",
};

// format: keys of [matrix] (and its [matrix.sell]) put in front of the generator's.
Config deck(int m, const std::string& spmv, const std::string& format = "") {
  std::string mat = matrices[m];
  if (!format.empty()) {
    const std::size_t sub = mat.find("[matrix.");
    const std::string head = format.substr(0, format.find("[matrix.sell]")), sell = format.substr(head.size());
    mat = mat.substr(0, sub) + head + mat.substr(sub) + sell;
  }
  return load_deck(std::string("[run]\nworkload = \"spmv\"\niterations = 7\nwarmup = 2\nprogress_interval = 0\n[spmv]\n") + spmv +
                       "barrier_samples = 20\n" + mat,
                   "spmv.toml", {});
}

// Equal on every rank, else the test fails on all of them.
bool same_everywhere(std::uint64_t a, std::uint64_t b) {
  int differ = a != b, any = 0;
  MPI_Allreduce(&differ, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  return any == 0;
}

class Spmv : public ::testing::TestWithParam<int> {};

TEST_P(Spmv, SchemesKernelsAndBarriersAgreeAndVerify) {
  const int m = GetParam();
  const WorkloadResult base = run_spmv(deck(m, "scheme = \"nonsplit\"\n"), MPI_COMM_WORLD);
  EXPECT_EQ(base.element_errors, 0);
  const WorkloadDataset* rows = find_dataset(base, "matrix", "rows");
  ASSERT_NE(rows, nullptr);
  EXPECT_EQ(base.elements_checked, static_cast<std::int64_t>(rows->values.at(0)));
  for (const char* variant : {"scheme = \"splitwait\"\n", "scheme = \"splitwait\"\ncompare_barrier = true\n"}) {
    const WorkloadResult r = run_spmv(deck(m, variant), MPI_COMM_WORLD);
    EXPECT_EQ(r.element_errors, 0) << variant;
    EXPECT_TRUE(r.extra_verdict.empty()) << r.extra_verdict;
    EXPECT_TRUE(same_everywhere(r.result_fingerprint, base.result_fingerprint)) << "not bitwise equal: " << variant;
  }
  Config barrier = deck(m, "scheme = \"splitwait\"\n");
  barrier.run.barrier = true;
  const WorkloadResult b = run_spmv(barrier, MPI_COMM_WORLD);
  EXPECT_TRUE(same_everywhere(b.result_fingerprint, base.result_fingerprint)) << "barrier changes the numbers";
  for (const char* scheme : {"nonsplit", "splitwait"}) {
    const WorkloadResult kk = run_spmv(deck(m, std::string("kernel = \"kokkoskernels\"\nscheme = \"") + scheme + "\"\n"),
                                       MPI_COMM_WORLD);
    EXPECT_EQ(kk.element_errors, 0) << "KokkosKernels, " << scheme;
  }
}

// SELL-C-sigma keeps each row's entries in CRS order, so at several chunk heights and sorting
// scopes, and with progress = "test" (chunks of SELL chunks), the vector is bitwise CRS's.
TEST_P(Spmv, SellMatchesCrsBitwise) {
  const int m = GetParam();
  const WorkloadResult base = run_spmv(deck(m, "scheme = \"nonsplit\"\n"), MPI_COMM_WORLD);
  const std::pair<int, int> shapes[] = {{1, 1}, {4, 1}, {4, 32}, {8, 8}, {32, 64}};
  for (const auto& [c, sigma] : shapes)
    for (const char* scheme : {"scheme = \"nonsplit\"\n", "scheme = \"splitwait\"\n"}) {
      const std::string sell = fmt::format("format = \"sell\"\n[matrix.sell]\nchunk = {}\nsigma = {}\n", c, sigma);
      Config cfg = deck(m, scheme, sell);
      const WorkloadResult r = run_spmv(cfg, MPI_COMM_WORLD);
      const std::string what = fmt::format("C = {}, sigma = {}, {}", c, sigma, scheme);
      EXPECT_EQ(r.element_errors, 0) << what;
      EXPECT_TRUE(same_everywhere(r.result_fingerprint, base.result_fingerprint)) << "not bitwise CRS: " << what;
      const WorkloadDataset* beta = find_dataset(r, "matrix", "sell_beta");
      ASSERT_NE(beta, nullptr);
      EXPECT_GT(beta->values.at(0), 0.0);
      EXPECT_LE(beta->values.at(0), 1.0);
      if (c == 1) {
        EXPECT_EQ(beta->values.at(0), 1.0) << "C = 1 is CRS: no padding";
      }
    }
  Config test = deck(m, "scheme = \"splitwait\"\n", "format = \"sell\"\n[matrix.sell]\nchunk = 2\nsigma = 4\n");
  test.comm.progress = ProgressMode::test;
  test.comm.test_interval = 3;
  EXPECT_TRUE(same_everywhere(run_spmv(test, MPI_COMM_WORLD).result_fingerprint, base.result_fingerprint))
      << "progress = test";
  // Chunk-aligned row ranges change the partition (not comparable bitwise per rank): verified.
  const WorkloadResult aligned =
      run_spmv(deck(m, "scheme = \"splitwait\"\n", "format = \"sell\"\n[matrix.sell]\nchunk = 8\nalign_rows = true\n"), MPI_COMM_WORLD);
  EXPECT_EQ(aligned.element_errors, 0);
  EXPECT_EQ(aligned.nonfinite, 0);
}

INSTANTIATE_TEST_SUITE_P(Generators, Spmv, ::testing::Range(0, 5));

TEST(SpmvRecord, TimelineAndPartnersAreComplete) {
  const int size = comm_size(MPI_COMM_WORLD);
  const WorkloadResult r = run_spmv(deck(1, "scheme = \"splitwait\"\n"), MPI_COMM_WORLD);
  const Timeline& tl = r.timeline;
  ASSERT_EQ(tl.iterations(), 9);
  for (std::int64_t it = 0; it < tl.iterations(); ++it)
    for (int e = 1; e + 2 < tl.events(); ++e) EXPECT_LE(tl.at(it, e - 1), tl.at(it, e)) << tl.event_names()[e];  // all but delay_end, sync_end
  EXPECT_EQ(tl.event_names()[3], "local_end") << "split-wait computes the local part before waiting";
  if (size > 1) {
    EXPECT_FALSE(r.partners.recv_rank.empty());
  }
  for (std::size_t k = 0; k < r.partners.recv_rank.size(); ++k) EXPECT_GT(r.partners.recv_bytes[k], 0);
  bool has_pd = false;
  const WorkloadResult c = run_spmv(deck(1, "compare_barrier = true\n"), MPI_COMM_WORLD);
  for (const auto& v : c.metrics) has_pd = has_pd || v.name == "desync_speedup";
  EXPECT_TRUE(has_pd);
}

// The verification checks the product against the input as its owners hold it: a product taken
// through a halo that never arrived (zeros) fails in every row with a nonzero halo entry, though
// it is the right local product of what was received (which the check without the owners'
// values, for large matrices, accepts).
TEST(SpmvVerify, AProductThroughAWrongHaloIsCaught) {
  const Config cfg = deck(4, "");
  const auto gen = make_generator(cfg.matrix);
  const int rank = comm_rank(MPI_COMM_WORLD), size = comm_size(MPI_COMM_WORLD);
  const RowPartition part = make_partition(*gen, cfg.matrix, size);
  const LocalMatrix<double> m = build_local_matrix<double>(*gen, part, rank);
  const auto n = static_cast<std::size_t>(m.rows), nh = n + m.halo_columns.size();
  const auto v = [](GlobalIndex g) { return 1.0 + 0.001 * static_cast<double>(g % 997); };
  Vector prev("prev", nh), prev_lost("prev_lost", nh), y("y", n), y_lost("y_lost", n);
  auto hp = Kokkos::create_mirror_view(prev), hl = Kokkos::create_mirror_view(prev_lost);
  for (std::size_t i = 0; i < n; ++i) hp(i) = hl(i) = v(m.first_row + static_cast<GlobalIndex>(i));
  for (std::size_t h = 0; h < m.halo_columns.size(); ++h) {
    hp(n + h) = v(m.halo_columns[h]);
    hl(n + h) = 0.0;  // never delivered
  }
  auto rp = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), m.row_ptr);
  auto col = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), m.col);
  auto val = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), m.val);
  auto hy = Kokkos::create_mirror_view(y), hyl = Kokkos::create_mirror_view(y_lost);
  std::int64_t reading_halo = 0;
  for (std::size_t i = 0; i < n; ++i) {
    hy(i) = hyl(i) = 0.0;
    bool halo = false;
    for (std::size_t k = rp(i); k < rp(i + 1); ++k) {
      hy(i) += val(k) * hp(static_cast<std::size_t>(col(k)));
      hyl(i) += val(k) * hl(static_cast<std::size_t>(col(k)));
      halo = halo || (static_cast<std::size_t>(col(k)) >= n && val(k) != 0.0);
    }
    reading_halo += halo;
  }
  Kokkos::deep_copy(prev, hp);
  Kokkos::deep_copy(prev_lost, hl);
  Kokkos::deep_copy(y, hy);
  Kokkos::deep_copy(y_lost, hyl);
  const std::vector<double> owners = gather_owned_values(prev, part, MPI_COMM_WORLD);
  ASSERT_FALSE(owners.empty());
  EXPECT_EQ(spmv::count_wrong_rows(*gen, m.first_row, m.rows, m.halo_columns, false, y, prev, owners), 0);
  EXPECT_EQ(spmv::count_wrong_rows(*gen, m.first_row, m.rows, m.halo_columns, false, y_lost, prev_lost, owners), reading_halo);
  EXPECT_EQ(spmv::count_wrong_rows(*gen, m.first_row, m.rows, m.halo_columns, false, y_lost, prev_lost, {}), 0)
      << "without the owners' values only the local product is checked";
  if (size > 1) {
    EXPECT_GT(reading_halo, 0) << "rank " << rank << ": a row partition of the 9 x 7 grid reads a halo";
  }
}

TEST(SpmvDeck, SellNeedsDesyncKernel) {
  EXPECT_THROW(run_spmv(deck(0, "kernel = \"kokkoskernels\"\n", "format = \"sell\"\n"), MPI_COMM_WORLD), DeckError);
  EXPECT_THROW(deck(0, "", "format = \"sell\"\n[matrix.sell]\nchunk = 3\n"), DeckError);
  EXPECT_THROW(deck(0, "", "format = \"sell\"\n[matrix.sell]\nchunk = 8\nsigma = 12\n"), DeckError);
  // [matrix.sell] with format = "crs" is checked (a bad chunk is an error) and has no effect: a warning.
  EXPECT_THROW(deck(0, "", "[matrix.sell]\nchunk = 3\n"), DeckError);
  EXPECT_EQ(deck(0, "", "[matrix.sell]\nchunk = 8\n").deck_warnings.size(), 1u);
}

TEST(SpmvDeck, ComplexMatrixNeedsStochasticValues) {
  // At load (desync check says it too), at the key's line.
  try {
    deck(3, "values = \"generator\"\n");
    FAIL() << "accepted values = \"generator\" on a complex matrix";
  } catch (const DeckError& e) {
    EXPECT_NE(std::string(e.what()).find("spmv.toml:7"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace desync
