// Parallel HDF5 round trip: what the collective writers put in the file is what a serial reader
// gets back, and a whole run writes the documented layout under its final name only.
#include <gtest/gtest.h>
#include <hdf5.h>
#include <unistd.h>
#include <mpi.h>

#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "workloads/registry.hpp"
#include "commands/run_deck.hpp"
#include "core/mpi_util.hpp"
#include "io/h5.hpp"

namespace desync {
namespace {

std::string shared_temp_path(const std::string& stem) {
  std::string p;
  if (comm_rank(MPI_COMM_WORLD) == 0)
    p = (std::filesystem::temp_directory_path() / (stem + "_" + std::to_string(::getpid()) + ".h5")).string();
  bcast_string(p, 0, MPI_COMM_WORLD);
  return p;
}

std::vector<hsize_t> dims_of(hid_t d) {
  hid_t s = H5Dget_space(d);
  std::vector<hsize_t> dims(static_cast<std::size_t>(H5Sget_simple_extent_ndims(s)));
  H5Sget_simple_extent_dims(s, dims.data(), nullptr);
  H5Sclose(s);
  return dims;
}

std::string read_fixed_string(hid_t obj, bool attribute, std::size_t index = 0) {
  hid_t type = attribute ? H5Aget_type(obj) : H5Dget_type(obj);
  const std::size_t w = H5Tget_size(type);
  hid_t space = attribute ? H5Aget_space(obj) : H5Dget_space(obj);
  const auto n = static_cast<std::size_t>(H5Sget_simple_extent_npoints(space));
  std::vector<char> buf(w * n);
  attribute ? H5Aread(obj, type, buf.data()) : H5Dread(obj, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf.data());
  H5Sclose(space);
  H5Tclose(type);
  std::string s(buf.data() + index * w, w);
  return s.substr(0, s.find('\0'));
}

std::string root_attr(hid_t f, const char* name) {
  hid_t a = H5Aopen(f, name, H5P_DEFAULT);
  std::string s = read_fixed_string(a, true);
  H5Aclose(a);
  return s;
}

constexpr std::size_t kBigRow = (std::size_t{1} << 20) / sizeof(std::int64_t) + 3;

TEST(H5, CollectiveWritersRoundTrip) {
  const int rank = comm_rank(MPI_COMM_WORLD), size = comm_size(MPI_COMM_WORLD);
  const std::string path = shared_temp_path("desync_h5_roundtrip");
  {
    const h5::Context c = h5::mpi_context(MPI_COMM_WORLD);
    h5::Handle f = h5::create_file(c, path);
    h5::attr(c, f, "label", std::string("round trip"));
    h5::attr(c, f, "count", std::int64_t{42});
    h5::attr(c, f, "names", std::vector<std::string>{"a", "bbb"});
    std::vector<double> row;
    for (int i = 0; i < 6; ++i) row.push_back(100.0 * rank + i);
    h5::rows(c, f, "rows", {3, 2}, row, "s");
    // Above the size up to which per-rank tables are gathered on rank 0 (1 MiB in all): written by
    // every rank in one collective write instead, at every rank count.
    std::vector<std::int64_t> big(kBigRow);
    for (std::size_t i = 0; i < big.size(); ++i) big[i] = 1000000 * rank + static_cast<std::int64_t>(i);
    h5::rows(c, f, "big", {kBigRow}, big, "1");
    h5::rank_text(c, f, "host", std::string(static_cast<std::size_t>(rank + 1), 'x'));
    h5::rows_text(c, f, "pairs", {"r" + std::to_string(rank), ""});
    h5::global<std::int32_t>(c, f, "global", {3}, {7, 8, 9}, "1");
    h5::global_scalar(c, f, "scalar", 2.5, "B/s");
    h5::global_text(c, f, "text", "line one\nline two\n");
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    hid_t f = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    ASSERT_GE(f, 0);
    EXPECT_EQ(root_attr(f, "label"), "round trip");
    hid_t a = H5Aopen(f, "names", H5P_DEFAULT);
    EXPECT_EQ(read_fixed_string(a, true, 1), "bbb");
    H5Aclose(a);

    hid_t d = H5Dopen2(f, "rows", H5P_DEFAULT);
    EXPECT_EQ(dims_of(d), (std::vector<hsize_t>{static_cast<hsize_t>(size), 3, 2}));
    std::vector<double> all(static_cast<std::size_t>(size) * 6);
    H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, all.data());
    for (int r = 0; r < size; ++r)
      for (int i = 0; i < 6; ++i) EXPECT_EQ(all[r * 6 + i], 100.0 * r + i);
    hid_t u = H5Aopen(d, "units", H5P_DEFAULT);
    EXPECT_EQ(read_fixed_string(u, true), "s");
    H5Aclose(u);
    H5Dclose(d);

    d = H5Dopen2(f, "big", H5P_DEFAULT);
    EXPECT_EQ(dims_of(d), (std::vector<hsize_t>{static_cast<hsize_t>(size), kBigRow}));
    std::vector<std::int64_t> bigs(static_cast<std::size_t>(size) * kBigRow);
    H5Dread(d, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, bigs.data());
    for (int r = 0; r < size; ++r)
      for (std::size_t i : {std::size_t{0}, kBigRow / 2, kBigRow - 1})
        EXPECT_EQ(bigs[r * kBigRow + i], 1000000 * r + static_cast<std::int64_t>(i)) << "rank " << r << ", " << i;
    H5Dclose(d);

    d = H5Dopen2(f, "host", H5P_DEFAULT);
    EXPECT_EQ(dims_of(d), (std::vector<hsize_t>{static_cast<hsize_t>(size)}));
    EXPECT_EQ(read_fixed_string(d, false, static_cast<std::size_t>(size - 1)), std::string(size, 'x'));
    H5Dclose(d);
    d = H5Dopen2(f, "pairs", H5P_DEFAULT);
    EXPECT_EQ(dims_of(d), (std::vector<hsize_t>{static_cast<hsize_t>(size), 2}));
    EXPECT_EQ(read_fixed_string(d, false, 2 * static_cast<std::size_t>(size - 1)), "r" + std::to_string(size - 1));
    H5Dclose(d);

    d = H5Dopen2(f, "global", H5P_DEFAULT);
    std::vector<std::int32_t> g(3);
    H5Dread(d, H5T_NATIVE_INT32, H5S_ALL, H5S_ALL, H5P_DEFAULT, g.data());
    EXPECT_EQ(g, (std::vector<std::int32_t>{7, 8, 9}));
    H5Dclose(d);
    d = H5Dopen2(f, "scalar", H5P_DEFAULT);
    double x = 0;
    H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, &x);
    EXPECT_EQ(x, 2.5);
    H5Dclose(d);
    d = H5Dopen2(f, "text", H5P_DEFAULT);
    EXPECT_EQ(read_fixed_string(d, false), "line one\nline two\n");
    H5Dclose(d);
    H5Fclose(f);
    std::filesystem::remove(path);
  }
}

// A call that does not communicate is not agreed on by itself: its failure (here the same on
// every rank, an attribute created twice) is reported by every rank at the next agreement, before
// the next collective write (small tables, gathered, have none), naming the call, and the file
// is still closed cleanly.
TEST(H5, ALocalFailureIsReportedAtTheNextAgreement) {
  const std::string path = shared_temp_path("desync_h5_noted_failure");
  {
    const h5::Context c = h5::mpi_context(MPI_COMM_WORLD);
    h5::Handle f = h5::create_file(c, path);
    h5::attr(c, f, "twice", std::int64_t{1});
    EXPECT_NO_THROW(h5::attr(c, f, "twice", std::int64_t{2}));
    EXPECT_NO_THROW(h5::global_scalar(c, f, "scalar", 1.0, "s"));
    try {
      h5::rows(c, f, "big", {kBigRow}, std::vector<std::int64_t>(kBigRow, 1), "1");  // a collective write
      ADD_FAILURE() << "the failed attribute was not reported";
    } catch (const h5::Error& e) {
      EXPECT_NE(std::string(e.what()).find("creating attribute twice"), std::string::npos) << e.what();
    }
    EXPECT_NO_THROW(h5::close_file(c, f));
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (comm_rank(MPI_COMM_WORLD) == 0) std::filesystem::remove(path);
}

// `desync simulate`: one process writes the rows of P virtual ranks into the same layout.
TEST(H5, OneProcessWritesTheRowsOfVirtualRanks) {
  if (comm_rank(MPI_COMM_WORLD) != 0) return;
  const std::string path = std::filesystem::temp_directory_path() / "desync_h5_virtual_rows.h5";
  constexpr int P = 5;
  {
    const h5::Context c = h5::virtual_ranks_context(MPI_COMM_SELF, P);
    h5::Handle f = h5::create_file(c, path);
    std::vector<double> rows;
    std::vector<std::string> hosts, pairs;
    for (int r = 0; r < P; ++r) {
      rows.insert(rows.end(), {10.0 * r, 10.0 * r + 1});
      hosts.push_back(std::string(static_cast<std::size_t>(r + 1), 'h'));
      pairs.insert(pairs.end(), {"a" + std::to_string(r), "b"});
    }
    h5::rows(c, f, "rows", {2}, rows, "s");
    h5::rank_text(c, f, "host", hosts);
    h5::rows_text(c, f, "pairs", pairs);
    EXPECT_THROW(h5::rows(c, f, "short", {2}, std::vector<double>{1.0, 2.0}, "s"), std::logic_error);
  }
  hid_t f = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  ASSERT_GE(f, 0);
  hid_t d = H5Dopen2(f, "rows", H5P_DEFAULT);
  EXPECT_EQ(dims_of(d), (std::vector<hsize_t>{P, 2}));
  std::vector<double> all(2 * P);
  H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, all.data());
  for (int r = 0; r < P; ++r) EXPECT_EQ(all[2 * r + 1], 10.0 * r + 1);
  H5Dclose(d);
  d = H5Dopen2(f, "host", H5P_DEFAULT);
  EXPECT_EQ(read_fixed_string(d, false, P - 1), std::string(P, 'h'));
  H5Dclose(d);
  d = H5Dopen2(f, "pairs", H5P_DEFAULT);
  EXPECT_EQ(dims_of(d), (std::vector<hsize_t>{P, 2}));
  EXPECT_EQ(read_fixed_string(d, false, 2 * 3), "a3");
  H5Dclose(d);
  H5Fclose(f);
  std::filesystem::remove(path);
}

TEST(H5, RunWritesTheDocumentedLayoutUnderItsFinalName) {
  const int rank = comm_rank(MPI_COMM_WORLD), size = comm_size(MPI_COMM_WORLD);
  const std::string path = shared_temp_path("desync_run_layout");
  const Config cfg = load_deck("[run]\niterations = 9\nwarmup = 2\nprogress_interval = 0\n[triad]\nsize_per_rank = 500\n",
                               "layout.toml", {});
  const RunOptions opt{path, "test"};
  EXPECT_EQ(run_deck(cfg, opt, preflight_run(cfg, opt, MPI_COMM_WORLD), MPI_COMM_WORLD), 0);
  if (rank != 0) return;
  EXPECT_FALSE(std::filesystem::exists(path + ".tmp"));
  hid_t f = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  ASSERT_GE(f, 0);
  EXPECT_EQ(root_attr(f, "verification"), "passed");
  EXPECT_EQ(root_attr(f, "format"), "desync-output");
  EXPECT_EQ(root_attr(f, "workload"), "triad");
  hid_t d = H5Dopen2(f, "/timeline/events", H5P_DEFAULT);
  EXPECT_EQ(dims_of(d), (std::vector<hsize_t>{static_cast<hsize_t>(size), 11, 7}));
  std::vector<double> ev(static_cast<std::size_t>(size) * 11 * 7);
  H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, ev.data());
  EXPECT_EQ(ev[2 * 7 + 0], 0.0) << "common time base: rank 0's first measured compute_begin is zero";
  hid_t a = H5Aopen(d, "event_names", H5P_DEFAULT);
  EXPECT_EQ(read_fixed_string(a, true, 5), "wait_end");
  H5Aclose(a);
  H5Dclose(d);
  for (const char* name : {"/config/deck_text", "/config/resolved", "/provenance/environment", "/topology/hostname",
                           "/topology/thread_cpuset", "/topology/clock_offset", "/timeline/warmup", "/comm/send_partner",
                           "/summary/phase_stats", "/summary/bandwidth", "/metrics/total_time",
                           "/metrics/phase_over_ranks", "/metrics/verification_errors"}) {
    EXPECT_GT(H5Lexists(f, name, H5P_DEFAULT), 0) << name;
  }
  d = H5Dopen2(f, "/summary/phase_stats", H5P_DEFAULT);
  EXPECT_EQ(dims_of(d), (std::vector<hsize_t>{static_cast<hsize_t>(size), 6, 3}));
  H5Dclose(d);
  H5Fclose(f);
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace desync
