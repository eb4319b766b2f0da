// The saturation workload (saturation/): N_s on given curves (pure), the kernels' values against
// an independent host formula and a verifier that counts every wrong element, the sweep in both
// modes (finite positive b(N) for every N and kernel, exact arrays, one timeline row per timed
// sweep), the STREAM table of the provenance, and the decks that cannot run.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "workloads/registry.hpp"
#include "core/errors.hpp"
#include "core/mpi_util.hpp"
#include "kokkos_compat/concurrency.hpp"
#include "workloads/saturation/domain_sizes.hpp"
#include "workloads/saturation/saturation.hpp"
#include "workloads/saturation/saturation_point.hpp"
#include "workloads/saturation/stream_arrays.hpp"
#include "workloads/saturation/stream_table.hpp"
#include "workloads/saturation/saturation_config.hpp"

namespace desync {
namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

Config deck(const std::string& saturation, const std::string& run = "") {
  return load_deck("[run]\nworkload = \"saturation\"\nprogress_interval = 0\n" + run + "\n[saturation]\n" + saturation, "sat.toml", {});
}

std::string deck_error(const std::string& saturation, const std::string& run = "") {
  try {
    deck(saturation, run);
  } catch (const DeckError& e) {
    return e.what();
  }
  return "(no error)";
}

const WorkloadDataset& dataset(const WorkloadResult& r, const char* group, const char* name) {
  const WorkloadDataset* d = find_dataset(r, group, name);
  if (!d) throw std::runtime_error(std::string("no dataset ") + group + "/" + name);
  return *d;
}

std::string all_kernels() {
  return saturation::nt_stores_available ? "kernels = [\"copy\", \"scale\", \"add\", \"triad\", \"triad_nt\", \"schoenauer\"]\n"
                                         : "kernels = [\"copy\", \"scale\", \"add\", \"triad\", \"schoenauer\"]\n";
}

TEST(SaturationPoint, SmallestNWithinToleranceOfTheMaximum) {
  const std::vector<double> b{10, 19, 27, 30, 31, 31.5};
  EXPECT_EQ(saturation::summarize(b, 0.1).n_s, 4) << "28.35 is the threshold: 27 < 28.35 <= 30";
  EXPECT_EQ(saturation::summarize(b, 0.0).n_s, 6);
  EXPECT_EQ(saturation::summarize(b, 0.5).n_s, 2) << "19 >= 15.75";
  EXPECT_EQ(saturation::summarize(b, 0.7).n_s, 1) << "10 >= 9.45";
  EXPECT_DOUBLE_EQ(saturation::summarize(b, 0.1).b1, 10);
  EXPECT_DOUBLE_EQ(saturation::summarize(b, 0.1).b_max, 31.5);
  // A curve that peaks and falls back (contention beyond the knee): the first N near the peak.
  EXPECT_EQ(saturation::summarize({10, 20, 18, 17}, 0.05).n_s, 2);
  EXPECT_EQ(saturation::summarize({10, 20, 18, 17}, 0.15).n_s, 2);
  EXPECT_EQ(saturation::summarize({10, 20, 18, 17}, 0.2).n_s, 2);
  EXPECT_EQ(saturation::summarize({10, 16, 18, 20}, 0.2).n_s, 2) << "16 >= 16";
  // Cells a stopped run never reached are NaN; they neither count nor win.
  const saturation::SaturationSummary s = saturation::summarize({nan, 20, 10, nan}, 0.1);
  EXPECT_EQ(s.n_s, 2);
  EXPECT_TRUE(std::isnan(s.b1));
  EXPECT_DOUBLE_EQ(s.b_max, 20);
  EXPECT_EQ(saturation::summarize({}, 0.1).n_s, 0);
  EXPECT_EQ(saturation::summarize({nan, 0.0, -1.0}, 0.1).n_s, 0);
}

TEST(StreamArrays, KernelsMatchAnIndependentFormulaAndTheVerifierCountsEveryWrongElement) {
  std::vector<SaturationKernel> kernels{SaturationKernel::copy, SaturationKernel::scale, SaturationKernel::add,
                                        SaturationKernel::triad, SaturationKernel::schoenauer};
  if (saturation::nt_stores_available) kernels.push_back(SaturationKernel::triad_nt);
  const Index n = 1001, offset = 777;  // odd: blocks of unequal length, an unaligned NT start
  const saturation::StreamArrays x(n, offset, std::min(3, compat::concurrency()), kernels);
  for (SaturationKernel k : kernels) {
    SCOPED_TRACE(std::string(enum_name(saturation_kernel_names, k)));
    x.poison();
    EXPECT_EQ(x.count_wrong(k), n) << "NaN everywhere before the sweep";
    x.sweeper(k)();
    auto a = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), x.result());
    for (Index i = 0; i < n; ++i) {
      const Index g = offset + i;
      const double b = 1.0 + 0.5 * (g % 7), c = 2.0 + 0.25 * (g % 5), d = 1.0 + (g % 3);
      const double want = k == SaturationKernel::copy    ? b
                          : k == SaturationKernel::scale ? 3.0 * b
                          : k == SaturationKernel::add   ? b + c
                          : k == SaturationKernel::schoenauer ? b + c * d
                                                              : b + 3.0 * c;
      ASSERT_EQ(a(i), want) << "element " << i;
    }
    EXPECT_EQ(x.count_wrong(k), 0);
    a(0) += 1e-9;
    a(n - 1) = nan;
    a(n / 2) *= 2;
    Kokkos::deep_copy(x.result(), a);
    EXPECT_EQ(x.count_wrong(k), 3) << "first, middle and last element";
  }
  EXPECT_DOUBLE_EQ(saturation::bytes_per_element(SaturationKernel::copy), 16);
  EXPECT_DOUBLE_EQ(saturation::bytes_per_element(SaturationKernel::scale), 16);
  EXPECT_DOUBLE_EQ(saturation::bytes_per_element(SaturationKernel::add), 24);
  EXPECT_DOUBLE_EQ(saturation::bytes_per_element(SaturationKernel::triad), 24);
  EXPECT_DOUBLE_EQ(saturation::bytes_per_element(SaturationKernel::triad_nt), 24);
  EXPECT_DOUBLE_EQ(saturation::bytes_per_element(SaturationKernel::schoenauer), 32);
}

// Every cell of the sweep: finite positive time and bandwidth, bandwidth = bytes / time, N_s in
// 1..W, and every element of every (N, kernel) checked and right.
void expect_complete_sweep(const WorkloadResult& r, const Config& cfg, int w) {
  const std::size_t nk = cfg.params.get<SaturationConfig>().kernels.size(), nw = static_cast<std::size_t>(w);
  EXPECT_EQ(r.element_errors, 0);
  EXPECT_EQ(r.stop_signal, 0);
  EXPECT_EQ(r.timeline.iterations(), static_cast<std::int64_t>(nw * nk) * cfg.params.get<SaturationConfig>().repetitions);
  EXPECT_EQ(r.timeline.warmup(), 0);
  const auto& n = dataset(r, "saturation", "n");
  ASSERT_EQ(n.values.size(), nw);
  for (std::size_t i = 0; i < nw; ++i) EXPECT_EQ(n.values[i], static_cast<double>(i + 1));
  const auto& bw = dataset(r, "saturation", "bandwidth");
  const auto& t = dataset(r, "saturation", "time");
  const auto& bytes = dataset(r, "saturation", "bytes");
  ASSERT_EQ(bw.values.size(), nk * nw);
  ASSERT_EQ(bw.dims, (std::vector<std::uint64_t>{nk, nw}));
  for (std::size_t k = 0; k < nk; ++k) {
    EXPECT_EQ(bytes.values[k], saturation::bytes_per_element(cfg.params.get<SaturationConfig>().kernels[k]) * static_cast<double>(cfg.params.get<SaturationConfig>().size));
    for (std::size_t i = 0; i < nw; ++i) {
      const double b = bw.values[k * nw + i], s = t.values[k * nw + i];
      EXPECT_TRUE(std::isfinite(b) && b > 0) << "kernel " << k << ", N = " << i + 1 << ": " << b;
      EXPECT_TRUE(std::isfinite(s) && s > 0);
      EXPECT_NEAR(b, bytes.values[k] / s, 1e-9 * b);
    }
    const double ns = dataset(r, "saturation", "saturation_point").values[k];
    EXPECT_GE(ns, 1);
    EXPECT_LE(ns, w);
    EXPECT_EQ(dataset(r, "saturation", "b1").values[k], bw.values[k * nw]);
  }
}

TEST(SaturationSweep, ThreadsModeMeasuresEveryNAndKernel) {
  const Config cfg = deck(all_kernels() + "size = 300001\nrepetitions = 3\n");
  if (comm_size(MPI_COMM_WORLD) != 1) {
    EXPECT_THROW(validate_for_ranks(cfg, comm_size(MPI_COMM_WORLD)), DeckError) << "threads mode runs on one rank";
    return;
  }
  validate_for_ranks(cfg, 1);
  const int w = std::min(saturation::domain_cores(), compat::concurrency());
  EXPECT_EQ(saturation_max_n(cfg.params.get<SaturationConfig>(), 1), w) << "default: the domain's cores, at most the rank's threads";
  const WorkloadResult r = run_saturation(cfg, MPI_COMM_WORLD);
  expect_complete_sweep(r, cfg, w);
  // Every N sweeps the whole arrays once per kernel.
  EXPECT_EQ(r.elements_checked, static_cast<std::int64_t>(w * cfg.params.get<SaturationConfig>().kernels.size()) * cfg.params.get<SaturationConfig>().size);
  EXPECT_EQ(dataset(r, "saturation", "mode").values[0], 0);
  if (w >= 2) std::printf("threads: triad b(1) = %.2f GB/s, b(2) = %.2f GB/s\n", 1e-9 * dataset(r, "saturation", "bandwidth").values[3 * static_cast<std::size_t>(w)],
                          1e-9 * dataset(r, "saturation", "bandwidth").values[3 * static_cast<std::size_t>(w) + 1]);
}

TEST(SaturationSweep, RanksModeMeasuresEveryNAndKernel) {
  const int rank = comm_rank(MPI_COMM_WORLD), size = comm_size(MPI_COMM_WORLD);
  const Config cfg = deck("kernels = [\"triad\", \"copy\"]\nmode = \"ranks\"\nsize = 200003\nrepetitions = 2\n");
  validate_for_ranks(cfg, size);
  const WorkloadResult r = run_saturation(cfg, MPI_COMM_WORLD);
  expect_complete_sweep(r, cfg, size);
  // Rank q streams at N = q + 1 .. P its block of a 1/N split, once per kernel.
  std::int64_t mine = 0;
  for (int n = rank + 1; n <= size; ++n)
    mine += saturation::block_begin(cfg.params.get<SaturationConfig>().size, n, rank + 1) - saturation::block_begin(cfg.params.get<SaturationConfig>().size, n, rank);
  EXPECT_EQ(r.elements_checked, 2 * mine);
  EXPECT_EQ(dataset(r, "saturation", "mode").values[0], 1);
  // A rank that does not stream at some N waits through it: its rows still begin, and the
  // compute phase is missing there (NaN), never negative.
  for (std::int64_t it = 0; it < r.timeline.iterations(); ++it) {
    EXPECT_FALSE(std::isnan(r.timeline.at(it, 0)));
    const bool streams = rank < it / (2 * cfg.params.get<SaturationConfig>().repetitions) + 1;
    EXPECT_EQ(std::isnan(r.timeline.at(it, 1)), !streams) << "row " << it;
    EXPECT_LE(r.timeline.at(it, 0), r.timeline.at(it, 2));
  }
}

TEST(StreamTable, MeasuresFourKernelsOnEveryRankAndOneThread) {
  const Config off = deck("", "");
  EXPECT_FALSE(measure_stream_table(off, MPI_COMM_WORLD).measured);
  Config cfg = load_deck("[run]\nworkload = \"triad\"\nstream_table = true\nstream_size = 100003\n", "st.toml", {});
  const StreamTable t = measure_stream_table(cfg, MPI_COMM_WORLD);
  ASSERT_TRUE(t.measured);
  EXPECT_EQ(t.elements, 100003);
  EXPECT_GE(t.single_elements, t.elements);
  EXPECT_EQ(t.wrong, 0);
  EXPECT_EQ(t.checked, 4 * t.elements + (comm_rank(MPI_COMM_WORLD) == 0 ? 4 * t.single_elements : 0));
  ASSERT_EQ(t.bandwidth.size(), 4u);
  for (int k = 0; k < 4; ++k) {
    EXPECT_TRUE(std::isfinite(t.bandwidth[k]) && t.bandwidth[k] > 0);
    EXPECT_TRUE(std::isfinite(t.single_thread[k]) && t.single_thread[k] > 0) << "broadcast from rank 0";
    EXPECT_GE(t.node_bandwidth[k], t.bandwidth[k] * (1 - 1e-12)) << "a sum over the node's ranks";
  }
  WorkloadResult r(Timeline({"begin", "compute_end"}, 1, 0));
  add_stream_table(r, t);
  EXPECT_EQ(dataset(r, "provenance/stream", "bandwidth").values, t.bandwidth);
  EXPECT_TRUE(dataset(r, "provenance/stream", "bandwidth").per_rank);
  EXPECT_EQ(dataset(r, "provenance/stream", "kernel").values, (std::vector<double>{0, 1, 2, 3}));
  EXPECT_EQ(r.elements_checked, t.checked);
  EXPECT_NE(r.report.find("COPY"), std::string::npos);
}

TEST(SaturationDeck, BadDecksAreRefusedWithKeyValueAndAllowed) {
  EXPECT_NE(deck_error("kernel = [\"triad\"]\n").find("unknown key 'kernel' in [saturation]; did you mean 'kernels'"), std::string::npos)
      << deck_error("kernel = [\"triad\"]\n");
  const std::string bad_kernel = deck_error("kernels = [\"triad\", \"stream\"]\n");
  EXPECT_NE(bad_kernel.find("sat.toml:6:11: error: [saturation] kernels"), std::string::npos) << bad_kernel;
  EXPECT_NE(bad_kernel.find("\"copy\", \"scale\", \"add\", \"triad\", \"triad_nt\", \"schoenauer\""), std::string::npos) << bad_kernel;
  EXPECT_NE(deck_error("mode = \"cores\"\n").find("allowed: \"threads\", \"ranks\""), std::string::npos);
  EXPECT_NE(deck_error("tolerance = 1.5\n").find("tolerance"), std::string::npos);
  EXPECT_NE(deck_error("size = 10\n").find(">= 1024"), std::string::npos);
  const std::string iters = deck_error("", "iterations = 50\n");
  EXPECT_NE(iters.find("[run] iterations = 50: not used by workload \"saturation\""), std::string::npos) << iters;
  EXPECT_NE(deck_error("", "stream_size = 5000\n").find("only used with stream_table = true"), std::string::npos);
  const std::string foreign = [] {
    try {
      load_deck("[run]\nworkload = \"saturation\"\n[comm]\nsend = \"blocking\"\n", "f.toml", {});
    } catch (const DeckError& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  }();
  EXPECT_NE(foreign.find("table [comm] is not used by workload \"saturation\""), std::string::npos) << foreign;
  const Config ranks = deck("mode = \"ranks\"\nmax_n = 3\n");
  try {
    validate_for_ranks(ranks, 2);
    ADD_FAILURE() << "max_n = 3 on 2 ranks";
  } catch (const DeckError& e) {
    EXPECT_NE(std::string(e.what()).find("sat.toml:7:9: error: [saturation] max_n = 3"), std::string::npos) << e.what();
  }
  EXPECT_NO_THROW(validate_for_ranks(deck("mode = \"ranks\"\nmax_n = 2\n"), 2));
  if (!saturation::nt_stores_available) {
    EXPECT_NE(deck_error("kernels = [\"triad_nt\"]\n").find("needs non-temporal stores"), std::string::npos);
  }
}

// The run's preflight checks an explicit max_n before Kokkos starts, when Kokkos' concurrency()
// is still 1: against the threads the deck gives the rank ([threads] per_rank), not Kokkos' count.
TEST(SaturationDeck, ExplicitMaxNIsCheckedAgainstTheThreadsTheRankWillHave) {
  if (comm_size(MPI_COMM_WORLD) != 1) GTEST_SKIP() << "threads mode runs on one rank";
  const int more = compat::concurrency() + 1;  // more threads than Kokkos runs with now
  const std::string threads = "[threads]\nper_rank = " + std::to_string(more) + "\n";
  const auto max_n = [](int n) { return "kernels = [\"triad\"]\nmax_n = " + std::to_string(n) + "\nsize = 100000\n"; };
  EXPECT_NO_THROW(saturation_layout(deck(max_n(more), threads), MPI_COMM_WORLD));
  try {
    saturation_layout(deck(max_n(more + 1), threads), MPI_COMM_WORLD);
    ADD_FAILURE() << "max_n above [threads] per_rank";
  } catch (const DeckError& e) {
    const std::string want = "max_n = " + std::to_string(more + 1) + ": the rank has " + std::to_string(more) + " thread(s)";
    EXPECT_NE(std::string(e.what()).find(want), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace desync
