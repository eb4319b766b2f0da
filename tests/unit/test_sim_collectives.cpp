// Collectives as point-to-point stages in the simulator (sim_model/sim_collectives.hpp): each
// algorithm executed symbolically delivers what the collective promises (every rank holds the
// root's whole buffer after a broadcast; the root holds every rank's contribution exactly once per
// element after a reduction), at the study's volume (2 (p - 1) n / p on the critical path), and
// N_DUP parts are pipelined part by part, stage by stage. The collbench, matvec2d and
// symmsquarecube programs build their groups, parked ranks and steps from the deck as the real
// runs do.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <string>
#include <cstdint>
#include <vector>

#include "config/config.hpp"
#include "core/errors.hpp"
#include "sim_model/sim_collectives.hpp"
#include "sim_test_platform.hpp"
#include "workloads/registry.hpp"
#include "workloads/simulated_programs.hpp"

namespace desync::sim {
namespace {

std::vector<int> shuffled_group(int p) {  // global ranks that are not 0..p-1, in no order
  std::vector<int> g;
  for (int i = 0; i < p; ++i) g.push_back(3 * (p - i) + 1);  // distinct, descending
  return g;
}

int index_of(const std::vector<int>& g, int rank) {
  return static_cast<int>(std::find(g.begin(), g.end(), rank) - g.begin());
}

TEST(SimCollectives, BroadcastDeliversTheRootsBufferToEveryRank) {
  for (int p = 1; p <= 9; ++p)
    for (int root : {0, p - 1, p / 2})
      for (std::int64_t n : {std::int64_t{3}, std::int64_t{37}, std::int64_t{1000}}) {
        const std::vector<int> g = shuffled_group(p);
        const std::vector<CollStage> st = collective_stages(CollKind::bcast, g, root, n);
        EXPECT_EQ(static_cast<int>(st.size()), collective_stage_count(CollKind::bcast, p));
        std::vector<std::vector<char>> has(static_cast<std::size_t>(p), std::vector<char>(static_cast<std::size_t>(n), 0));
        std::fill(has[static_cast<std::size_t>(root)].begin(), has[static_cast<std::size_t>(root)].end(), 1);
        for (const CollStage& s : st) {
          EXPECT_FALSE(s.sums);
          const auto before = has;  // a stage's messages carry what their senders held before it
          for (const StageMessage& m : s.messages) {
            const auto from = static_cast<std::size_t>(index_of(g, m.from)), to = static_cast<std::size_t>(index_of(g, m.to));
            ASSERT_LT(from, g.size());
            ASSERT_LT(to, g.size());
            for (std::int64_t i = m.begin; i < m.end; ++i) {
              EXPECT_TRUE(before[from][static_cast<std::size_t>(i)]) << "p " << p << " sends what it does not hold";
              has[to][static_cast<std::size_t>(i)] = 1;
            }
          }
        }
        for (const auto& h : has) EXPECT_TRUE(std::all_of(h.begin(), h.end(), [](char c) { return c != 0; })) << "p " << p;
      }
}

// (and after an allreduce every rank)
TEST(SimCollectives, ReductionSumsEveryContributionOnceAtTheRoot) {
  for (CollKind kind : {CollKind::reduce, CollKind::allreduce})
  for (int p = 1; p <= 9; ++p)
    for (int root : {0, p - 1, p / 2})
      for (std::int64_t n : {std::int64_t{5}, std::int64_t{64}, std::int64_t{999}}) {
        const std::vector<int> g = shuffled_group(p);
        const std::vector<CollStage> st = collective_stages(kind, g, root, n);
        EXPECT_EQ(static_cast<int>(st.size()), collective_stage_count(kind, p));
        // Per rank and element: the contributions its partial result holds (bit q: rank q's).
        std::vector<std::vector<std::uint32_t>> sum(static_cast<std::size_t>(p));
        for (int q = 0; q < p; ++q) sum[static_cast<std::size_t>(q)].assign(static_cast<std::size_t>(n), 1u << q);
        for (const CollStage& s : st) {
          const auto before = sum;
          for (const StageMessage& m : s.messages) {
            const auto from = static_cast<std::size_t>(index_of(g, m.from)), to = static_cast<std::size_t>(index_of(g, m.to));
            for (std::int64_t i = m.begin; i < m.end; ++i) {
              const auto e = static_cast<std::size_t>(i);
              if (s.sums) {
                EXPECT_EQ(before[to][e] & before[from][e], 0u) << "p " << p << ": a contribution counted twice";
                sum[to][e] = before[to][e] | before[from][e];
              } else {
                sum[to][e] = before[from][e];  // the gather places the finished chunk
              }
            }
          }
        }
        const std::uint32_t all = (p == 32 ? 0u : (1u << p)) - 1u;
        // A reduction's root, or every rank after an allreduce, holds the full sum.
        for (int r = 0; r < p; ++r) {
          if (kind == CollKind::reduce && r != root) continue;
          for (std::int64_t i = 0; i < n; ++i)
            EXPECT_EQ(sum[static_cast<std::size_t>(r)][static_cast<std::size_t>(i)], all) << "p " << p << " rank " << r;
        }
      }
}

// The study's cost model counts 2 (p - 1) n / p bytes through the busiest path for both
// algorithms (papers.md E.4): the sum over stages of each stage's largest message.
TEST(SimCollectives, CriticalPathVolumeIsTheStudysModel) {
  for (int p : {2, 4, 8, 16})
    for (CollKind kind : {CollKind::bcast, CollKind::reduce, CollKind::allreduce}) {
      const std::int64_t n = 4096;
      std::int64_t path = 0;
      for (const CollStage& s : collective_stages(kind, shuffled_group(p), 0, n)) {
        std::int64_t most = 0;
        for (const StageMessage& m : s.messages) most = std::max(most, m.end - m.begin);
        path += most;
      }
      EXPECT_EQ(path, 2 * (p - 1) * n / p) << "p " << p;
    }
  EXPECT_EQ(collective_stage_count(CollKind::bcast, 8), 3 + 7);   // log p scatter + p - 1 ring
  EXPECT_EQ(collective_stage_count(CollKind::reduce, 8), 2 * 3);  // 2 log p
  EXPECT_EQ(collective_stage_count(CollKind::reduce, 6), 1 + 2 * 2);  // fold-in of the 2 beyond 4
  EXPECT_EQ(collective_stage_count(CollKind::allreduce, 6), 2 + 2 * 2);  // and the hand-back
}

TEST(SimCollectives, PartsArePipelinedStageByStage) {
  Program p;
  p.ranks.resize(4);
  std::vector<std::vector<CollStage>> parts;
  for (std::int64_t n : {std::int64_t{100}, std::int64_t{60}})
    parts.push_back(collective_stages(CollKind::reduce, {0, 1}, 0, n));  // 2 stages: halving, gather
  const CollectiveSteps s = append_collective(p, parts, 4);
  // Exchanges per (part, stage): 0 = (0, 0), 1 = (0, 1), 2 = (1, 0), 3 = (1, 1); the halving sums.
  ASSERT_EQ(p.ranks[0].exchange.size(), 4u);
  const std::vector<Step> posts{{Op::post, 0}, {Op::post, 2}};
  const std::vector<Step> rest{{Op::wait, 0}, {Op::sum, 0}, {Op::post, 1}, {Op::wait, 2}, {Op::sum, 1}, {Op::post, 3},
                               {Op::wait, 1}, {Op::wait, 3}};
  const auto same = [](const std::vector<Step>& a, const std::vector<Step>& b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](const Step& x, const Step& y) {
             return x.op == y.op && x.arg == y.arg;
           });
  };
  EXPECT_TRUE(same(s.posts, posts));
  EXPECT_TRUE(same(s.rest, rest));
  // Part 0's halving: each of ranks 0 and 1 receives 50 floats and sums them: 3 x 200 B streamed.
  EXPECT_DOUBLE_EQ(p.ranks[0].amount.at(0), 600.0);
  EXPECT_DOUBLE_EQ(p.ranks[1].amount.at(1), 3.0 * 30 * 4);
  EXPECT_DOUBLE_EQ(p.ranks[2].amount.at(0), 0.0);  // not in the group
  EXPECT_EQ(p.ranks[1].exchange[1].send.at(0).bytes, 50 * 4);  // the gather of part 0 to the root
  EXPECT_TRUE(p.ranks[3].exchange[1].send.empty());
}

Config collbench_deck(const std::string& extra) {
  return load_deck("[run]\nworkload = \"collbench\"\niterations = 3\nwarmup = 1\n[collbench]\nsizes = [4096, 65536]\n"
                   "ops = [\"bcast\", \"reduce\"]\n" + extra, "c.toml", {});
}

TEST(SimCollbench, ColumnsParkedRanksAndCellsAsTheRealRun) {
  // test_platform: 4 ranks per node; 8 ranks = 2 nodes; one active rank per node.
  const Program p = make_program(collbench_deck("[placement]\nactive_ppn = 1\n"), test_platform(), 8);
  EXPECT_EQ(p.iterations, 2 * 2 * 3);
  EXPECT_EQ(p.warmup, 0);
  ASSERT_EQ(p.cycle.size(), 12u);
  for (int r = 0; r < 8; ++r) EXPECT_EQ(p.ranks[static_cast<std::size_t>(r)].parked, r % 4 != 0) << r;
  // The only column: ranks 0 and 4. Nobody else sends or receives.
  for (int r : {1, 2, 3, 5, 6, 7})
    for (const Exchange& x : p.ranks[static_cast<std::size_t>(r)].exchange) EXPECT_TRUE(x.send.empty() && x.recv.empty());
  std::int64_t sent = 0;
  for (const Exchange& x : p.ranks[4].exchange)
    for (const Message& m : x.send) {
      EXPECT_EQ(m.peer, 0);
      sent += m.bytes;
    }
  EXPECT_GT(sent, 0);
  // A cell's first row: the barrier, then the warm-up; the others begin with the begin mark.
  EXPECT_EQ(p.cycle[0].front().op, Op::allreduce);
  EXPECT_EQ(p.cycle[1].front().op, Op::mark);
  EXPECT_EQ(p.cycle[3].front().op, Op::allreduce);
  // Every rank active: 4 columns, each rank l of both nodes.
  const Program all = make_program(collbench_deck(""), test_platform(), 8);
  for (int r = 0; r < 8; ++r) {
    EXPECT_FALSE(all.ranks[static_cast<std::size_t>(r)].parked);
    for (const Exchange& x : all.ranks[static_cast<std::size_t>(r)].exchange)
      for (const Message& m : x.send) EXPECT_EQ(m.peer, (r + 4) % 8);
  }
}

TEST(SimCollbench, NonblockingWithOnePartIsTheBlockingSchedule) {
  const Program b = make_program(collbench_deck("[placement]\nactive_ppn = 1\n"), test_platform(), 8);
  const Program nb1 = make_program(
      load_deck("[run]\nworkload = \"collbench\"\niterations = 3\nwarmup = 1\n[collbench]\nsizes = [4096, 65536]\n"
                "mode = \"nonblocking\"\n[placement]\nactive_ppn = 1\n", "c.toml", {}),
      test_platform(), 8);
  ASSERT_EQ(b.cycle.size(), nb1.cycle.size());
  for (std::size_t i = 0; i < b.cycle.size(); ++i) {
    // The same steps but for where the post phase ends (blocking: after the call).
    std::vector<Op> ob, on;
    for (const Step& s : b.cycle[i]) if (s.op != Op::mark) ob.push_back(s.op);
    for (const Step& s : nb1.cycle[i]) if (s.op != Op::mark) on.push_back(s.op);
    EXPECT_EQ(ob, on);
  }
  // N_DUP 4: four parts, each with its own exchanges.
  const Program nb4 = make_program(
      load_deck("[run]\nworkload = \"collbench\"\niterations = 3\n[collbench]\nsizes = [65536]\nops = [\"reduce\"]\n"
                "mode = \"nonblocking\"\n[comm]\ncommunicators = 4\n[placement]\nactive_ppn = 1\n", "c.toml", {}),
      test_platform(), 8);
  EXPECT_TRUE(nb4.uses_communicators);
  EXPECT_EQ(nb4.ranks[0].exchange.size(), 4u * static_cast<std::size_t>(collective_stage_count(CollKind::reduce, 2)));
}

TEST(SimCollbench, OneModelledNodeIsRefused) {
  try {
    make_program(collbench_deck(""), test_platform(), 4);
    FAIL() << "no error";
  } catch (const DeckError& e) {
    EXPECT_NE(std::string(e.what()).find("all 4 rank(s) are on one modelled node"), std::string::npos) << e.what();
  }
}


Config matvec2d_deck(const std::string& extra) {
  return load_deck("[run]\nworkload = \"matvec2d\"\niterations = 3\nwarmup = 1\n[matvec2d]\nn = 100\n" + extra, "m.toml", {});
}

TEST(SimMatvec2d, MeshRowsReduceOntoTheDiagonalColumnsBroadcastFromIt) {
  // 8 nodes of 4 ranks, one active per node would be 8 (not square); two per node on 8 nodes: 16.
  const Program p = make_program(matvec2d_deck("[placement]\nactive_ppn = 2\n"), test_platform(), 32);
  // Active ranks in (node, local) order: 0, 1, 4, 5, 8, 9, ...; P_{m,j} = active[4 m + j].
  std::vector<int> active;
  for (int r = 0; r < 32; ++r) {
    EXPECT_EQ(p.ranks[static_cast<std::size_t>(r)].parked, r % 4 >= 2) << r;
    if (r % 4 < 2) active.push_back(r);
  }
  const auto at = [&](int m, int j) { return active[static_cast<std::size_t>(4 * m + j)]; };
  // Blocks of 25 rows: the product streams 8 x 25 x 25 bytes of A.
  EXPECT_DOUBLE_EQ(p.ranks[static_cast<std::size_t>(at(1, 2))].amount.at(0), 8.0 * 25 * 25);
  EXPECT_DOUBLE_EQ(p.ranks[static_cast<std::size_t>(at(1, 2))].flops_per_iteration, 2.0 * 25 * 25);
  // Who talks to whom: reductions within a mesh row, broadcasts within a mesh column.
  for (int m = 0; m < 4; ++m)
    for (int j = 0; j < 4; ++j)
      for (const Exchange& x : p.ranks[static_cast<std::size_t>(at(m, j))].exchange)
        for (const Message& msg : x.send) {
          const auto it = std::find(active.begin(), active.end(), msg.peer);
          ASSERT_NE(it, active.end());
          const int q = static_cast<int>(it - active.begin());
          EXPECT_TRUE(q / 4 == m || q % 4 == j) << "P_" << m << j << " sends to active rank " << q;
        }
  // Blocking: reduce_end after the reduction's stages, bcast_end after the broadcast's.
  EXPECT_EQ(p.event_names.size(), 6u);  // begin, product_end, reduce_end, bcast_end, delay_end, sync_end
}

TEST(SimMatvec2d, PipelinedWithOnePartIsTheBlockingSchedule) {
  const Program b = make_program(matvec2d_deck(""), test_platform(), 4);
  const Program p1 = make_program(matvec2d_deck("pipelined = true\n"), test_platform(), 4);
  std::vector<std::pair<Op, int>> sb, sp;
  for (const Step& s : b.steps) if (s.op != Op::mark) sb.emplace_back(s.op, s.arg);
  for (const Step& s : p1.steps) if (s.op != Op::mark) sp.emplace_back(s.op, s.arg);
  EXPECT_EQ(sb, sp);
  const Program p4 = make_program(matvec2d_deck("pipelined = true\n[comm]\ncommunicators = 4\n"), test_platform(), 4);
  // Four parts, each a reduction (2 log2 2 stages) then a broadcast (1 + 1 stages).
  EXPECT_EQ(p4.ranks[0].exchange.size(), 4u * 4u);
  EXPECT_TRUE(p4.uses_communicators);
}

TEST(SimMatvec2d, ANonSquareMeshIsRefused) {
  try {
    make_program(matvec2d_deck(""), test_platform(), 6);
    FAIL() << "no error";
  } catch (const DeckError& e) {
    EXPECT_NE(std::string(e.what()).find("runs on a p x p mesh, but the modelled run has 6 rank(s)"), std::string::npos)
        << e.what();
  }
}


Config ssc_deck(const std::string& extra) {
  return load_deck("[run]\nworkload = \"symmsquarecube\"\niterations = 3\nwarmup = 1\n[symmsquarecube]\nn = 90\n" + extra,
                   "s.toml", {});
}
Platform gemm_platform(double flops) {
  return parse_platform("[platform]\nname = \"g\"\n[node]\ncount = 8\ncores_per_domain = 4\n[memory]\nb1 = 1e9\n"
                        "b_saturated = 2e9\n[core]\ngemm_flops = " + std::to_string(flops) + "\n[network]\n"
                        "intra_node_latency = 1e-6\nintra_node_bandwidth = 1e9\ninter_node_latency = 1e-6\n"
                        "inter_node_bandwidth = 1e9\n", "g.toml", {});
}

TEST(SimSymmSquareCube, MeshBlocksProductsAndTheBaselinesMessages) {
  const Platform pf = gemm_platform(1e9);
  const Program p = make_program(ssc_deck("algorithm = \"baseline\"\n"), pf, 8);  // 2 x 2 x 2, blocks of 45
  EXPECT_EQ(p.event_names.front(), "begin");
  EXPECT_EQ(p.event_names.back(), "sync_end");
  // Each product: 2 x 45^3 flops at 1 GFlop/s per core.
  for (const RankWork& w : p.ranks) {
    EXPECT_DOUBLE_EQ(w.amount.at(0), 2.0 * 45 * 45 * 45 / 1e9);
    EXPECT_DOUBLE_EQ(w.flops_per_iteration, 4.0 * 45 * 45 * 45);
  }
  int gemms = 0;
  for (const Step& s : p.steps) gemms += s.op == Op::core;
  EXPECT_EQ(gemms, 2);
  // P_{i,j,k} = 4 k + 2 i + j. Who sends to whom over the call: only along the mesh's fibres,
  // except the transfers of D^2 and D^3 to layer 0 (P_{i,k,0}).
  const auto ijk = [](int r) { return std::array<int, 3>{r / 2 % 2, r % 2, r / 4}; };
  for (int r = 0; r < 8; ++r)
    for (const Exchange& x : p.ranks[static_cast<std::size_t>(r)].exchange)
      for (const Message& m : x.send) {
        const auto a = ijk(r), b = ijk(m.peer);
        const int differ = (a[0] != b[0]) + (a[1] != b[1]) + (a[2] != b[2]);
        const bool to_layer0 = b[2] == 0 && b[0] == a[0] && b[1] == a[2];  // P_{i,*,k} -> P_{i,k,0}
        EXPECT_TRUE(differ == 1 || to_layer0) << r << " -> " << m.peer;
        EXPECT_LE(m.bytes, 45 * 45 * 8);
      }
}

TEST(SimSymmSquareCube, RefusesWhatItCannotModel) {
  try {
    make_program(ssc_deck("algorithm = \"baseline\"\n"), gemm_platform(0), 8);  // no gemm_flops
    FAIL() << "no error";
  } catch (const DeckError& e) {
    EXPECT_NE(std::string(e.what()).find("[core] gemm_flops is not set"), std::string::npos) << e.what();
  }
  EXPECT_THROW(make_program(ssc_deck("algorithm = \"baseline\"\n"), gemm_platform(1e9), 12), DeckError);  // not a cube
}

TEST(SimSymmSquareCube, TwoAndAHalfDCannonStepsOnEachLayer) {
  // q = 4, c = 2: 32 ranks, 2 Cannon steps per layer; blocks of 23 rows (the last 21).
  const Program p = make_program(ssc_deck("algorithm = \"2.5d\"\nreplication = 2\n"), gemm_platform(1e9), 32);
  int products = 0;
  for (const Step& st : p.steps) products += st.op == Op::core;
  EXPECT_EQ(products, 2 * 2);  // two Cannon phases of two steps
  // P_{i,j,l} = (l q + i) q + j: every message stays in a row (i, l), a column (j, l) or a fibre (i, j).
  for (int r = 0; r < 32; ++r) {
    const int i = r / 4 % 4, j = r % 4, l = r / 16;
    for (const Exchange& x : p.ranks[static_cast<std::size_t>(r)].exchange)
      for (const Message& m : x.send) {
        const int i2 = m.peer / 4 % 4, j2 = m.peer % 4, l2 = m.peer / 16;
        EXPECT_TRUE((i == i2 && l == l2) || (j == j2 && l == l2) || (i == i2 && j == j2)) << r << " -> " << m.peer;
      }
  }
  // The run's flops: 4 N^3 over all ranks (each product summed over both layers' steps).
  double flops = 0;
  for (const RankWork& w : p.ranks) flops += w.flops_per_iteration;
  EXPECT_NEAR(flops, 4.0 * 90 * 90 * 90, 1e-6);
}

TEST(SimSymmSquareCube, OptimizedCutsEveryBlockIntoParts) {
  const Platform pf = gemm_platform(1e9);
  const Program one = make_program(ssc_deck("algorithm = \"optimized\"\n"), pf, 8);
  const Program four = make_program(ssc_deck("algorithm = \"optimized\"\n[comm]\ncommunicators = 4\n"), pf, 8);
  EXPECT_TRUE(four.uses_communicators);
  std::int64_t bytes1 = 0, bytes4 = 0, msgs1 = 0, msgs4 = 0;
  for (const Program* p : {&one, &four})
    for (const RankWork& w : p->ranks)
      for (const Exchange& x : w.exchange)
        for (const Message& m : x.send) {
          (p == &one ? bytes1 : bytes4) += m.bytes;
          ++(p == &one ? msgs1 : msgs4);
        }
  EXPECT_EQ(bytes1, bytes4);  // the same data, in four times as many messages
  EXPECT_EQ(msgs4, 4 * msgs1);
}

}  // namespace
}  // namespace desync::sim
