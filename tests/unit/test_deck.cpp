// Deck loading: defaults, values, overrides, and one test per kind of error with its message.
#include <gtest/gtest.h>

#include <string>

#include "config/config.hpp"
#include "config/locate_key.hpp"
#include "workloads/registry.hpp"
#include "core/errors.hpp"
#include "deck_error.hpp"
#include "workloads/triad/triad_config.hpp"

namespace desync {
namespace {

TEST(Deck, EmptyDeckGivesDocumentedDefaults) {
  const Config c = load_deck("", "empty.toml", {});
  EXPECT_EQ(c.run.workload, "triad");
  EXPECT_EQ(c.run.iterations, 1000);
  EXPECT_EQ(c.run.warmup, 10);
  EXPECT_FALSE(c.run.barrier);
  EXPECT_EQ(c.params.get<TriadConfig>().kernel, TriadKernel::stream);
  EXPECT_EQ(c.params.get<TriadConfig>().size_per_rank, 2'000'000);
  EXPECT_EQ(c.params.get<TriadConfig>().global_size, 0);
  EXPECT_EQ(c.params.get<TriadConfig>().offsets, (std::vector<std::int64_t>{1, -1}));
  EXPECT_EQ(c.params.get<TriadConfig>().boundary, Boundary::open);
  EXPECT_EQ(c.params.get<TriadConfig>().message_bytes, 16384);
  EXPECT_TRUE(c.inject.empty());
  EXPECT_EQ(c.noise.kind, NoiseKind::none);
  EXPECT_EQ(output_path(c), "empty.h5");
}

TEST(Deck, ReadsEveryTable) {
  const Config c = load_deck(R"(
[run]
iterations = 50
warmup = 0
barrier = true
output = "x.h5"
[triad]
kernel = "schoenauer"
global_size = 1000
offsets = [1, -1, -2]
boundary = "periodic"
message_bytes = 8
[comm]
send = "blocking"
fragment_bytes = 4096
communicators = 3
[[inject]]
rank = 1
iteration = 7
duration = 0.5
[[inject]]
rank = 2
iteration = 9
duration = 1
[noise]
kind = "exponential"
mean = 1e-4
[threads]
per_rank = 2
)", "d.toml", {});
  EXPECT_EQ(c.run.iterations, 50);
  EXPECT_TRUE(c.run.barrier);
  EXPECT_EQ(output_path(c), "x.h5");
  EXPECT_EQ(c.params.get<TriadConfig>().kernel, TriadKernel::schoenauer);
  EXPECT_EQ(c.params.get<TriadConfig>().global_size, 1000);
  EXPECT_EQ(c.params.get<TriadConfig>().size_per_rank, 0);
  EXPECT_EQ(c.params.get<TriadConfig>().offsets, (std::vector<std::int64_t>{1, -1, -2}));
  EXPECT_EQ(c.params.get<TriadConfig>().boundary, Boundary::periodic);
  ASSERT_EQ(c.inject.size(), 2u);
  EXPECT_EQ(c.inject[1].rank, 2);
  EXPECT_DOUBLE_EQ(c.inject[1].duration, 1.0);
  EXPECT_EQ(c.noise.kind, NoiseKind::exponential);
  EXPECT_EQ(c.threads.per_rank, 2);
}

TEST(Deck, ResolvedConfigurationReloadsToTheSameValues) {
  const Config a = load_deck("[run]\niterations = 33\n[triad]\noffsets = [2, -1]\n[[inject]]\nrank = 0\niteration = 3\nduration = 0.1\n",
                             "a.toml", {"triad.kernel=divide"});
  const Config b = load_deck(a.resolved_toml, "b.toml", {});
  EXPECT_EQ(b.resolved_toml, a.resolved_toml);
  EXPECT_EQ(b.run.iterations, 33);
  EXPECT_EQ(b.params.get<TriadConfig>().kernel, TriadKernel::divide);
  EXPECT_EQ(b.params.get<TriadConfig>().offsets, (std::vector<std::int64_t>{2, -1}));
}

// A key that has no effect with the deck's other choices is said (one warning naming its line, the
// key, the value and what would use it), never refused: a sweep switches the choice with --set on
// one deck. Where the key acts, or is left at its default (as resolved decks carry it), nothing.
TEST(Deck, KeysWithoutEffectAreWarnedAbout) {
  const std::string spmv = "[run]\nworkload = \"spmv\"\n[matrix]\n";
  const struct {
    std::string deck, said;
  } cases[] = {
      {"[triad]\nkernel = \"divide\"\nscalar = 5\n", "deck.toml:3:10: [triad] scalar = 5 has no effect: only kernel = \"stream\""},
      {"[triad]\nkernel = \"stream\"\ndivides = 7\n", "[triad] divides = 7 has no effect: only kernel = \"divide\""},
      {"[run]\nworkload = \"stencil\"\n[stencil]\nvariant = \"base\"\nca_steps = 8\n", "[stencil] ca_steps = 8 has no effect"},
      {"[noise]\nseed = 5\n", "[noise] seed = 5 has no effect: kind = \"none\""},
      {"[noise]\nmean = 1e-3\n", "[noise] mean = 0.001 has no effect"},
      {"[noise]\nranks = [1, 2]\n", "[noise] ranks = [ 1, 2 ] has no effect: kind = \"none\""},
      {"[noise]\niterations = [0, 5]\n", "[noise] iterations = [ 0, 5 ] has no effect: kind = \"none\""},
      {"[comm]\nrecord_messages_max = 5\n", "[comm] record_messages_max = 5 has no effect"},
      {"[comm]\nsync_every = 4\n", "[comm] sync_every = 4 has no effect: [comm] sync = \"none\""},
      {"[run]\nworkload = \"chebfd\"\n[chebfd]\nbounds = \"gershgorin\"\nlanczos_steps = 30\n[matrix]\n",
       "[chebfd] lanczos_steps = 30 has no effect"},
      {spmv + "generator = \"spin\"\n[matrix.spin]\nseed = 7\n", "[matrix.spin] seed = 7 has no effect: only disorder > 0"},
      {spmv + "generator = \"topi\"\n[matrix.topi]\nseed = 7\n", "[matrix.topi] seed = 7 has no effect"},
      {spmv + "[matrix.sell]\nchunk = 8\n", "deck.toml:4:1: [matrix.sell] has no effect: only format = \"sell\""},
      {spmv + "generator = \"spin\"\n[matrix.topi]\nseed = 7\n", "[matrix.topi] has no effect: generator = \"spin\""},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.deck);
    const Config cfg = load_deck(c.deck, "deck.toml", {});
    ASSERT_EQ(cfg.deck_warnings.size(), 1u);
    EXPECT_NE(cfg.deck_warnings[0].find(c.said), std::string::npos) << cfg.deck_warnings[0];
    // Its resolved deck (the key kept, the choice kept) says the same once more.
    EXPECT_EQ(load_deck(cfg.resolved_toml, "deck.toml", {}).deck_warnings.size(), 1u);
  }
  // Set by --set: located at the argument.
  const Config set = load_deck("[triad]\nkernel = \"stream\"\n", "deck.toml", {"triad.divides=3"});
  ASSERT_EQ(set.deck_warnings.size(), 1u);
  EXPECT_NE(set.deck_warnings[0].find("command line (--set triad.divides=3)"), std::string::npos) << set.deck_warnings[0];
  // The same keys where they act, and a sweep's switch to the kernel that uses them: nothing said.
  for (const Config& quiet :
       {load_deck("[noise]\nkind = \"exponential\"\nmean = 1e-4\nseed = 5\n", "n.toml", {}),
        load_deck(spmv + "generator = \"spin\"\n[matrix.spin]\ndisorder = 1.0\nseed = 7\n", "s.toml", {}),
        load_deck(spmv + "format = \"sell\"\n[matrix.sell]\nchunk = 8\n", "s.toml", {}),
        load_deck("[triad]\nkernel = \"stream\"\ndivides = 7\n", "t.toml", {"triad.kernel=divide", "triad.scalar=3"}),
        load_deck("", "d.toml", {}), load_deck(load_deck("", "d.toml", {}).resolved_toml, "r.toml", {})})
    EXPECT_TRUE(quiet.deck_warnings.empty()) << quiet.deck_warnings.front();
}

// Errors found after loading (rank count, several keys at once) point at the key to change: its
// --set argument, else its deck line, else the deck (a default).
TEST(Deck, LateErrorsPointAtTheKey) {
  const Config c = load_deck("[run]\nworkload = \"cg\"\n[matrix]\ngenerator = \"stencil5\"\n[matrix.stencil5]\n"
                             "weights = [4, -1, -1, -1, -1]\n",
                             "cg.toml", {"run.iterations=7", "run.iterations=8"});
  EXPECT_EQ(locate(c, "matrix.stencil5.weights"), "cg.toml:6:11");
  EXPECT_EQ(locate(c, "run.iterations"), "command line (--set run.iterations=8)");
  EXPECT_EQ(locate(c, "run.warmup"), "cg.toml");
  // Through the checks that use it: a --set, and a deck line.
  const std::string three = rank_error(  // 3 elements on 4 ranks
      load_deck("[triad]\nsize_per_rank = 0\nglobal_size = 64\n", "t.toml", {"triad.global_size=3"}), 4);
  EXPECT_EQ(three.rfind("command line (--set triad.global_size=3): error: [triad] global_size = 3", 0), 0u) << three;
  const std::string cg = deck_error("[run]\nworkload = \"cg\"\n[matrix]\ngenerator = \"stencil5\"\n[matrix.stencil5]\n"
                                    "weights = [4, -1, -2, -1, -1]\n");
  EXPECT_EQ(cg.rfind("deck.toml:6:11: error: [matrix.stencil5] weights", 0), 0u) << cg;
}

TEST(Deck, UnknownKeyNamesLineColumnAndSuggestion) {
  const std::string m = deck_error("[run]\nworkload = \"triad\"\n  iteratons = 5\n");
  EXPECT_NE(m.find("deck.toml:3:3"), std::string::npos) << m;
  EXPECT_NE(m.find("unknown key 'iteratons' in [run]"), std::string::npos) << m;
  EXPECT_NE(m.find("did you mean 'iterations'"), std::string::npos) << m;
}

// A key above every table header is placed: the tables that hold such a key are named. A name
// near nothing gets no far-fetched "did you mean".
TEST(Deck, KeyOutsideAnyTableNamesItsTables) {
  std::string m = deck_error("iterations = 5\n");
  EXPECT_EQ(m.rfind("deck.toml:1:1: error: 'iterations' stands outside any table; it is a key of [run]", 0), 0u) << m;
  m = deck_error("n = 5\n[run]\nworkload = \"stencil\"\n");
  EXPECT_NE(m.find("it is a key of [stencil]"), std::string::npos) << m;
  m = deck_error("xyzzy = 5\n");
  EXPECT_NE(m.find("unknown table or key 'xyzzy' at the top level (valid tables: run,"), std::string::npos) << m;
  m = deck_error("[run]\nqqqqqqq = 3\n");
  EXPECT_NE(m.find("unknown key 'qqqqqqq' in [run] (valid keys:"), std::string::npos) << m;
}

TEST(Deck, UnknownTableIsAnError) {
  const std::string m = deck_error("[run]\n[trad]\nkernel = \"stream\"\n");
  EXPECT_NE(m.find("deck.toml:2:"), std::string::npos) << m;
  EXPECT_NE(m.find("'trad'"), std::string::npos) << m;
  EXPECT_NE(m.find("did you mean 'triad'"), std::string::npos) << m;
}

// desync's other TOML files given as a deck are named as what they are; of several unknown
// tables the first in the file is named (toml++ keeps them sorted by name).
TEST(Deck, OtherFilesAndTheFirstUnknownTable) {
  std::string m = deck_error("[platform]\nname = \"x\"\n[node]\ncount = 2\n");
  EXPECT_NE(m.find("a platform file of desync simulate, not a deck: give it with --platform"), std::string::npos) << m;
  m = deck_error("[campaign]\nname = \"x\"\n[axes]\n");
  EXPECT_NE(m.find("a campaign file ([campaign], [axes]), not a deck"), std::string::npos) << m;
  m = deck_error("[run]\n[zzz]\na = 1\n[aaa]\nb = 2\n");
  EXPECT_NE(m.find("'zzz'"), std::string::npos) << m;
}

// A table the workload does not read is an error with one message, from the deck or from --set.
TEST(Deck, TablesOfOtherWorkloadsAreErrors) {
  std::string m = deck_error("[run]\nworkload = \"triad\"\n[stencil]\nn = 64\n");
  EXPECT_NE(m.find("deck.toml:3:2: error: table [stencil] is not used by workload \"triad\" (it reads [run], [triad], "
                   "[comm], [inject], [noise], [threads], [record])"),
            std::string::npos) << m;
  m = deck_error("", {"stencil.n=64"});
  EXPECT_NE(m.find("command line (--set stencil.n=64): error: table [stencil] is not used by workload \"triad\""),
            std::string::npos) << m;
  EXPECT_NE(deck_error("[matrix]\n[matrix.spin]\nsites = 8\n").find("table [matrix] is not used"), std::string::npos);
  EXPECT_NO_THROW(load_deck("[run]\nworkload = \"stencil\"\n[[inject]]\nrank = 0\niteration = 1\nduration = 1e-3\n", "i.toml", {}))
      << "every workload has the delay slot";
  EXPECT_NE(deck_error("[run]\nworkload = \"spmv\"\n[matrix]\n[triad]\noffsets = [1]\n").find("table [triad] is not used"),
            std::string::npos);
  EXPECT_NO_THROW(load_deck("[run]\nworkload = \"stencil\"\n[stencil]\nn = 64\n[threads]\nper_rank = 1\n", "s.toml", {}));
}

// [comm] holds the communication options of every workload; the triad's partner keys moved.
TEST(Deck, CommOptionsAndMovedKeys) {
  const Config c = load_deck("[comm]\nsend = \"parallel\"\nprogress = \"thread\"\nfragment_bytes = 100\ncommunicators = 4\n",
                             "c.toml", {});
  EXPECT_EQ(c.comm.send, SendMode::parallel);
  EXPECT_EQ(c.comm.progress, ProgressMode::thread);
  EXPECT_EQ(c.comm.fragment_bytes, 100);
  EXPECT_EQ(c.comm.communicators, 4);
  EXPECT_TRUE(c.comm.needs_thread_multiple());
  EXPECT_FALSE(load_deck("", "e.toml", {}).comm.needs_thread_multiple());
  const std::string m = deck_error("[comm]\noffsets = [1, -1]\n");
  EXPECT_NE(m.find("[comm] offsets = [ 1, -1 ]: moved to [triad] offsets"), std::string::npos) << m;
  EXPECT_NE(deck_error("", {"comm.message_bytes=8"}).find("moved to [triad] message_bytes"), std::string::npos);
  EXPECT_NE(deck_error("[comm]\ncommunicators = 0\n").find("an integer in [1, 64]"), std::string::npos);
  EXPECT_NO_THROW(load_deck("[run]\nworkload = \"stencil\"\n[comm]\nsend = \"blocking\"\n", "s.toml", {}));
}

// [comm] gpu_aware_mpi: auto by default; on/off where MPI gets device buffers (halos, matvec2d's and
// symmsquarecube's collectives), refused elsewhere (the triad's and collbench's messages are host
// buffers) with the reason; a wrong word lists the three.
TEST(Deck, GpuAwareMpi) {
  EXPECT_EQ(load_deck("", "d.toml", {}).comm.gpu_aware_mpi, GpuAwareMpi::automatic);
  EXPECT_EQ(load_deck("[run]\nworkload = \"stencil\"\n[comm]\ngpu_aware_mpi = \"off\"\n", "s.toml", {}).comm.gpu_aware_mpi,
            GpuAwareMpi::off);
  EXPECT_EQ(load_deck("[run]\nworkload = \"stencil\"\n", "s.toml", {"comm.gpu_aware_mpi=on"}).comm.gpu_aware_mpi,
            GpuAwareMpi::on);
  EXPECT_EQ(load_deck("[run]\nworkload = \"matvec2d\"\n[comm]\ngpu_aware_mpi = \"off\"\n", "m.toml", {}).comm.gpu_aware_mpi,
            GpuAwareMpi::off);
  EXPECT_EQ(load_deck("[run]\nworkload = \"symmsquarecube\"\n[comm]\ngpu_aware_mpi = \"off\"\n", "q.toml", {}).comm.gpu_aware_mpi,
            GpuAwareMpi::off);
  const std::string coll = deck_error("[run]\nworkload = \"collbench\"\n[comm]\ngpu_aware_mpi = \"off\"\n");
  EXPECT_NE(coll.find("not used by workload \"collbench\""), std::string::npos) << coll;
  const std::string triad = deck_error("[comm]\ngpu_aware_mpi = \"off\"\n");
  EXPECT_NE(triad.find("deck.toml:2:"), std::string::npos) << triad;
  EXPECT_NE(triad.find("[comm] gpu_aware_mpi = \"off\": not used by workload \"triad\""), std::string::npos) << triad;
  const std::string word = deck_error("[run]\nworkload = \"stencil\"\n[comm]\ngpu_aware_mpi = \"yes\"\n");
  EXPECT_NE(word.find("\"auto\", \"on\", \"off\""), std::string::npos) << word;
}

TEST(Deck, WrongTypeNamesKeyValueAndAllowed) {
  const std::string m = deck_error("[run]\niterations = \"many\"\n");
  EXPECT_NE(m.find("deck.toml:2:14"), std::string::npos) << m;
  EXPECT_NE(m.find("[run] iterations = \"many\""), std::string::npos) << m;
  EXPECT_NE(m.find("an integer in [1,"), std::string::npos) << m;
}

// Values are quoted as written: a float stays a float, a dotted key is said to make a table.
TEST(Deck, WrongTypeQuotesTheValueAsWritten) {
  std::string m = deck_error("[run]\niterations = 64.0\n");
  EXPECT_NE(m.find("[run] iterations = 64.0:"), std::string::npos) << m;
  m = deck_error("[noise]\nkind = \"exponential\"\nmean = 20.3\n");
  EXPECT_NE(m.find("[noise] mean = 20.3:"), std::string::npos) << m;  // not 20.300000000000001
  m = deck_error("[triad]\nkernel.name = \"divide\"\n");
  EXPECT_NE(m.find("[triad] kernel = a table {"), std::string::npos) << m;
}

TEST(Deck, OutOfRangeValue) {
  const std::string m = deck_error("[run]\nwarmup = -3\n");
  EXPECT_NE(m.find("[run] warmup = -3"), std::string::npos) << m;
  EXPECT_NE(m.find("an integer in [0,"), std::string::npos) << m;
}

TEST(Deck, BadEnumListsChoices) {
  const std::string m = deck_error("[triad]\nkernel = \"copy\"\n");
  EXPECT_NE(m.find("[triad] kernel = \"copy\""), std::string::npos) << m;
  EXPECT_NE(m.find("\"stream\", \"schoenauer\", \"divide\""), std::string::npos) << m;
}

TEST(Deck, CrossFieldChecks) {
  EXPECT_NE(deck_error("[triad]\nsize_per_rank = 10\nglobal_size = 100\n").find("not both"), std::string::npos);
  EXPECT_NE(deck_error("[triad]\noffsets = [1, 0]\n").find("offset 0"), std::string::npos);
  EXPECT_NE(deck_error("[triad]\noffsets = [1, 1]\n").find("listed twice"), std::string::npos);
  EXPECT_NE(deck_error("[triad]\noffsets = []\n").find("non-empty array"), std::string::npos);
  EXPECT_NE(deck_error("[noise]\nkind = \"uniform\"\n").find("mean > 0"), std::string::npos);
}

TEST(Deck, InjectEntriesAreChecked) {
  EXPECT_NE(deck_error("[[inject]]\nrank = 0\nduration = 1\n").find("iteration: missing"), std::string::npos);
  const std::string m = deck_error("[run]\niterations = 10\n[[inject]]\nrank = 0\niteration = 10\nduration = 1\n");
  EXPECT_NE(m.find("[inject[0]] iteration = 10"), std::string::npos) << m;
  EXPECT_NE(deck_error("[inject]\nrank = 0\n").find("array of tables"), std::string::npos);
  EXPECT_NE(deck_error("[[inject]]\nrank = 0\niteration = 1\nduration = 1\nranks = 3\n").find("did you mean 'rank'"),
            std::string::npos);
}

TEST(Deck, RankDependentChecks) {
  const Config c = load_deck("[[inject]]\nrank = 5\niteration = 1\nduration = 0.1\n", "r.toml", {});
  EXPECT_NO_THROW(validate_for_ranks(c, 6));
  const std::string five = rank_error(c, 4);  // rank 5 of 4
  EXPECT_NE(five.find("r.toml:2:8"), std::string::npos) << five;
  EXPECT_NE(five.find("allowed: 0..3"), std::string::npos) << five;
  const Config n = load_deck("[noise]\nkind = \"uniform\"\nmean = 1e-4\nranks = [0, 5]\n", "n.toml", {});
  EXPECT_NO_THROW(validate_for_ranks(n, 6));
  const std::string noisy = rank_error(n, 4);
  EXPECT_NE(noisy.find("n.toml:4:9"), std::string::npos) << noisy;
  EXPECT_NE(noisy.find("[noise] ranks has rank 5: no such rank"), std::string::npos) << noisy;
  EXPECT_NE(noisy.find("allowed: 0..3"), std::string::npos) << noisy;
}

// [comm] sync_every: refused where the timeline is cells of repetitions; no warning where a paired
// barrier run (compare_barrier) uses it; a warning where it exceeds the measured iterations.
TEST(Deck, SyncEveryRules) {
  std::string m = deck_error("[run]\nworkload = \"pingpong\"\n[comm]\nsync = \"barrier\"\nsync_every = 4\n");
  EXPECT_NE(m.find("deck.toml:5:"), std::string::npos) << m;
  EXPECT_NE(m.find("[comm] sync_every = 4: workload \"pingpong\" times cells of repetitions"), std::string::npos) << m;
  EXPECT_NE(deck_error("[run]\nworkload = \"collbench\"\n[comm]\nsync_every = 2\n").find("allowed here: 1"), std::string::npos);
  const std::string matrix = "[matrix]\ngenerator = \"stencil5\"\n[matrix.stencil5]\nnx = 8\nny = 8\n";
  const Config paired = load_deck("[run]\nworkload = \"spmv\"\n[spmv]\ncompare_barrier = true\n[comm]\nsync_every = 5\n" + matrix,
                                  "p.toml", {});
  EXPECT_TRUE(paired.deck_warnings.empty()) << paired.deck_warnings.front();
  EXPECT_EQ(paired.comm.sync_every, 5);
  const Config rare = load_deck("[run]\niterations = 10\n[comm]\nsync = \"barrier\"\nsync_every = 11\n", "r.toml", {});
  ASSERT_EQ(rare.deck_warnings.size(), 1u);
  EXPECT_NE(rare.deck_warnings[0].find("more than the 10 measured iterations"), std::string::npos) << rare.deck_warnings[0];
}

// [noise] ranks and iterations: each rank once, a window [first, end) inside the run's
// iterations (warm-up negative), named in the message with the deck's line.
TEST(Deck, NoiseRanksAndWindowAreChecked) {
  const std::string noise = "[run]\niterations = 20\nwarmup = 3\n[noise]\nkind = \"uniform\"\nmean = 1e-4\n";
  std::string m = deck_error(noise + "ranks = [1, 3, 1]\n");
  EXPECT_NE(m.find("deck.toml:7:"), std::string::npos) << m;
  EXPECT_NE(m.find("rank 1 is listed twice"), std::string::npos) << m;
  EXPECT_NE(deck_error(noise + "ranks = []\n").find("non-empty array"), std::string::npos);
  EXPECT_NE(deck_error(noise + "ranks = [-1]\n").find("[noise] ranks = [ -1 ]"), std::string::npos);
  m = deck_error(noise + "iterations = [5, 5]\n");
  EXPECT_NE(m.find("[noise] iterations = [ 5, 5 ]"), std::string::npos) << m;
  EXPECT_NE(m.find("first < end <= 20"), std::string::npos) << m;
  m = deck_error(noise + "iterations = [0, 21]\n");
  EXPECT_NE(m.find("each element an integer in [-3, 20]"), std::string::npos) << m;
  EXPECT_NE(deck_error(noise + "iterations = [-4, 2]\n").find("each element an integer in [-3, 20]"), std::string::npos);
  const Config c = load_deck(noise + "ranks = [2, 0]\niterations = [-1, 7]\n", "n.toml", {});
  EXPECT_EQ(c.noise.ranks, (std::vector<std::int64_t>{2, 0}));
  EXPECT_EQ(c.noise.window_begin, -1);
  EXPECT_EQ(c.noise.window_end, 7);
  // Left out: every rank, every iteration, and no such keys in the resolved deck (a rerun with
  // more iterations keeps its noise to the end).
  const Config all = load_deck(noise, "n.toml", {});
  EXPECT_TRUE(all.noise.ranks.empty());
  EXPECT_EQ(all.resolved_toml.find("ranks"), std::string::npos) << all.resolved_toml;
  const Config longer = load_deck(all.resolved_toml, "r.toml", {"run.iterations=50"});
  EXPECT_LE(longer.noise.window_begin, -3);
  EXPECT_GE(longer.noise.window_end, 50);
  // Given, they survive the resolved deck.
  const Config again = load_deck(c.resolved_toml, "r.toml", {});
  EXPECT_EQ(again.noise.ranks, c.noise.ranks);
  EXPECT_EQ(again.noise.window_end, 7);
}

TEST(Deck, InvalidTomlReportsPosition) {
  const std::string m = deck_error("[run]\niterations = = 3\n");
  EXPECT_NE(m.find("deck.toml:2:"), std::string::npos) << m;
  EXPECT_NE(m.find("invalid TOML"), std::string::npos) << m;
}

TEST(Deck, OverridesWinAndAreValidatedTheSameWay) {
  const Config c = load_deck("[run]\niterations = 5\n", "o.toml",
                             {"run.iterations=7", "triad.kernel=divide", "triad.offsets=[1,-1,2]", "run.barrier=true"});
  EXPECT_EQ(c.run.iterations, 7);
  EXPECT_EQ(c.params.get<TriadConfig>().kernel, TriadKernel::divide);
  EXPECT_EQ(c.params.get<TriadConfig>().offsets.size(), 3u);
  EXPECT_TRUE(c.run.barrier);

  const std::string m = deck_error("", {"run.iterations=abc"});
  EXPECT_NE(m.find("command line (--set run.iterations=abc)"), std::string::npos) << m;
  EXPECT_NE(m.find("[run] iterations = \"abc\""), std::string::npos) << m;
  EXPECT_NE(deck_error("", {"run.iteratons=3"}).find("did you mean 'iterations'"), std::string::npos);
  EXPECT_NE(deck_error("", {"iterations=3"}).find("names no table"), std::string::npos);
  EXPECT_NE(deck_error("[run]\n", {"trad.kernel=stream"}).find("command line (--set trad.kernel=stream): error: unknown table"),
            std::string::npos);
  EXPECT_NE(deck_error("", {"run.iterations"}).find("table.key=value"), std::string::npos);
}

}  // namespace
}  // namespace desync
