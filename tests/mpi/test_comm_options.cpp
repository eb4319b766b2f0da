// Every comm option gives the same numbers as the simplest one (issue: "Every workload gives the
// same numbers (bitwise where the arithmetic is the same) for every combination of progress,
// send mode, fragment size and N_DUP, at 1-4 ranks"). Each workload runs once with the defaults
// and once per variant; the final vectors' fingerprints must be identical, and the triad's
// stamped messages must all arrive whole and in order (fragments reassembled).
#include <gtest/gtest.h>
#include <mpi.h>

#include <cmath>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "workloads/registry.hpp"
#include "core/errors.hpp"
#include "core/mpi_util.hpp"
#include "workloads/chebfd/chebfd.hpp"
#include "workloads/spmv/spmv.hpp"
#include "workloads/stencil/stencil.hpp"
#include "workloads/triad/triad.hpp"
#include "thread_level.hpp"

namespace desync {
namespace {

struct Variant {
  const char* send;
  int fragment_bytes;
  int communicators;
  const char* progress;
  const char* gpu_aware = "auto";  // "off": halos of device buffers staged through host buffers
};

const std::vector<Variant> variants{
    {"blocking", 0, 1, "wait"},        {"parallel", 0, 1, "wait"},     {"nonblocking", 64, 3, "wait"},
    {"blocking", 40, 2, "wait"},       {"nonblocking", 0, 2, "thread"}, {"blocking", 100, 3, "thread"},
    {"parallel", 24, 4, "thread"},     {"nonblocking", 0, 1, "test"},  {"blocking", 48, 2, "test"},
    {"nonblocking", 0, 1, "wait", "off"}, {"blocking", 40, 2, "test", "off"}, {"parallel", 24, 3, "thread", "off"},
};

bool staged(const Variant& v) { return std::string(v.gpu_aware) == "off"; }

bool testing(const Variant& v) { return std::string(v.progress) == "test"; }

// progress = "test" with a test every 7 work items, so the overlapped kernels run in many chunks.
std::string comm_table(const Variant& v) {
  return "[comm]\nsend = \"" + std::string(v.send) + "\"\nfragment_bytes = " + std::to_string(v.fragment_bytes) +
         "\ncommunicators = " + std::to_string(v.communicators) + "\nprogress = \"" + v.progress + "\"\n" +
         (testing(v) ? "test_interval = 7\n" : "") + (staged(v) ? "gpu_aware_mpi = \"off\"\n" : "");
}

// overlaps: the deck's scheme computes while messages travel, so progress = "test" is allowed;
// elsewhere it must be refused when the deck is read. device_halos: the workload's numbers travel
// in halos in the default memory space, so gpu_aware_mpi = "off" stages them, and its result's
// digest is compared (the triad's messages are host buffers of stamps, not its numbers: checked
// whole through message_errors; the deck refuses the key there).
template <class Run>
void same_for_every_variant(const std::string& deck, Run run, bool overlaps = true, bool device_halos = true) {
  const WorkloadResult base = run(load_deck(deck, "base.toml", {}));
  if (device_halos) {
    ASSERT_TRUE(base.has_result_digest) << "a workload with halos digests its result";
  }
  EXPECT_EQ(base.element_errors, 0);
  EXPECT_EQ(base.message_errors, 0);
  for (const Variant& v : variants) {
    if (staged(v) && !device_halos) {
      EXPECT_THROW(load_deck(deck + comm_table(v), "variant.toml", {}), DeckError) << "gpu_aware_mpi on host messages";
      continue;
    }
    if (testing(v) && !overlaps) {
      EXPECT_THROW(load_deck(deck + comm_table(v), "variant.toml", {}), DeckError) << "progress = test without overlap";
      continue;
    }
    const Config cfg = load_deck(deck + comm_table(v), "variant.toml", {});
    if (cfg.comm.needs_thread_multiple() && !thread_multiple()) continue;
    const WorkloadResult r = run(cfg);
    SCOPED_TRACE(comm_table(v));
    if (device_halos) {
      EXPECT_EQ(r.result_fingerprint, base.result_fingerprint) << "the numbers differ from the default exchange";
    }
    EXPECT_EQ(r.element_errors, 0);
    EXPECT_EQ(r.message_errors, 0);
    EXPECT_EQ(r.messages_checked, base.messages_checked);
  }
}

TEST(CommOptions, TriadStampsArriveWhole) {
  same_for_every_variant("[run]\niterations = 6\nwarmup = 1\nprogress_interval = 0\n[triad]\nsize_per_rank = 500\n"
                         "offsets = [1, -1, 2]\nboundary = \"periodic\"\nmessage_bytes = 1000\n",
                         [](const Config& c) { return run_triad(c, MPI_COMM_WORLD); }, false, false);
}

TEST(CommOptions, SpmvSameNumbers) {
  for (const char* scheme : {"splitwait", "nonsplit"})
    same_for_every_variant(std::string("[run]\nworkload = \"spmv\"\niterations = 6\nwarmup = 1\nprogress_interval = 0\n"
                                       "[spmv]\nscheme = \"") + scheme +
                               "\"\nbarrier_samples = 10\n[matrix]\ngenerator = \"spin\"\n[matrix.spin]\nsites = 10\n",
                           [](const Config& c) { return run_spmv(c, MPI_COMM_WORLD); }, std::string(scheme) == "splitwait");
}

// SPLIT-WAIT's arithmetic differs from NON-SPLIT's (local and remote sums), so each scheme is
// compared with itself; PIPELINE's chunked moment sums round differently, its vectors do not.
TEST(CommOptions, ChebfdSameNumbers) {
  for (const char* scheme : {"nonsplit", "splitwait", "pipeline"})
    same_for_every_variant(std::string("[run]\nworkload = \"chebfd\"\nwarmup = 1\nprogress_interval = 0\n[chebfd]\nns = 4\nnb = 2\nnp = 8\n"
                                       "bounds = \"lanczos\"\nscheme = \"") + scheme +
                               "\"\n[matrix]\ngenerator = \"topi\"\n[matrix.topi]\nblock = [4, 4, 2]\n",
                           [](const Config& c) { return run_chebfd(c, MPI_COMM_WORLD); }, std::string(scheme) != "nonsplit");
}

TEST(CommOptions, StencilSameNumbers) {
  for (const char* variant : {"base", "ca"})
    same_for_every_variant(std::string("[run]\nworkload = \"stencil\"\niterations = 8\nwarmup = 1\nprogress_interval = 0\n"
                                       "[stencil]\nn = 40\nca_steps = 3\nvariant = \"") + variant + "\"\n",
                           [](const Config& c) { return run_stencil(c, MPI_COMM_WORLD); }, false);
}

// Message events: every MPI message of every iteration is in the log, sends and receives, each
// completed after it was posted; fragments are counted as the messages they are.
TEST(CommOptions, MessageEventsCoverEveryMessage) {
  for (const Variant& v : variants) {
    if (testing(v) || staged(v)) continue;  // the triad has no overlapped work (SpmvTestedMessagesAreStamped
                                            // covers it) and host messages
    const Config cfg = load_deck("[run]\niterations = 5\nwarmup = 1\nprogress_interval = 0\n[triad]\nsize_per_rank = 100\n"
                                 "offsets = [1, -1]\nboundary = \"periodic\"\nmessage_bytes = 1000\n" + comm_table(v) +
                                     "record_messages = true\n",
                                 "log.toml", {});
    if (cfg.comm.needs_thread_multiple() && !thread_multiple()) continue;
    const WorkloadResult r = run_triad(cfg, MPI_COMM_WORLD);
    SCOPED_TRACE(comm_table(v));
    ASSERT_TRUE(r.messages);
    const int pieces = v.fragment_bytes > 0 ? (1000 + v.fragment_bytes - 1) / v.fragment_bytes : 1;
    EXPECT_EQ(r.messages->count(), 6 * 2 * 2 * pieces) << "iterations x offsets x directions x fragments";
    EXPECT_EQ(r.messages->dropped(), 0);
    const auto post = r.messages->post(), done = r.messages->done();
    const auto send = r.messages->send();
    int sends = 0;
    for (std::size_t i = 0; i < post.size(); ++i) {
      EXPECT_LE(post[i], done[i]) << "event " << i;
      sends += send[i];
    }
    EXPECT_EQ(2 * sends, static_cast<int>(post.size()));
  }
}

// progress = "test" with recording: completions stamped by MPI_Testsome during the local part
// and by MPI_Waitsome after it; every message has both times, in order.
TEST(CommOptions, SpmvTestedMessagesAreStamped) {
  const Config cfg = load_deck("[run]\nworkload = \"spmv\"\niterations = 4\nwarmup = 1\nprogress_interval = 0\n"
                               "[spmv]\nscheme = \"splitwait\"\nbarrier_samples = 10\n[matrix]\ngenerator = \"spin\"\n"
                               "[matrix.spin]\nsites = 10\n[comm]\nprogress = \"test\"\ntest_interval = 5\nrecord_messages = true\n",
                               "tested.toml", {});
  const WorkloadResult r = run_spmv(cfg, MPI_COMM_WORLD);
  ASSERT_TRUE(r.messages);
  EXPECT_EQ(r.messages->dropped(), 0);
  const auto post = r.messages->post(), done = r.messages->done();
  for (std::size_t i = 0; i < post.size(); ++i) {
    EXPECT_TRUE(std::isfinite(done[i])) << "event " << i << " never completed";
    EXPECT_LE(post[i], done[i]) << "event " << i;
  }
  if (comm_size(MPI_COMM_WORLD) > 1) {
    EXPECT_GT(post.size(), 0u);
  }
}

TEST(CommOptions, FullMessageLogCountsWhatItDrops) {
  const Config cfg = load_deck("[run]\niterations = 5\nwarmup = 0\nprogress_interval = 0\n[triad]\nsize_per_rank = 100\n"
                               "offsets = [1, -1]\nboundary = \"periodic\"\n[comm]\nrecord_messages = true\nrecord_messages_max = 10\n",
                               "small.toml", {});
  const WorkloadResult r = run_triad(cfg, MPI_COMM_WORLD);
  EXPECT_EQ(r.messages->count(), 8) << "two whole posts of 4 messages fit in 10";
  EXPECT_EQ(r.messages->dropped(), 12);
}

}  // namespace
}  // namespace desync
