// The simulator's programs (sim_model/sim_program.hpp): the triad's steps, amounts and messages come
// from the real run's models and partner rule; unsupported workloads and options are refused.
#include <gtest/gtest.h>

#include "config/config.hpp"
#include "workloads/registry.hpp"
#include "core/errors.hpp"
#include "record/iteration_events.hpp"
#include "sim_model/sim_program.hpp"
#include "sim_test_platform.hpp"
#include "workloads/pingpong/pingpong.hpp"
#include "workloads/simulated_programs.hpp"
#include "workloads/triad/neighbour_partners.hpp"
#include "workloads/triad/triad.hpp"
#include "workloads/triad/triad_config.hpp"

namespace desync::sim {
namespace {


Config deck(const std::string& extra) {
  return load_deck("[run]\niterations = 7\nwarmup = 2\n[triad]\nsize_per_rank = 1000\n" + extra, "d.toml", {});
}

TEST(SimProgram, TriadMessagesAreTheRealPartnerRule) {
  const Config cfg = deck("offsets = [1, -1, 3]\nboundary = \"periodic\"\nmessage_bytes = 100\n");
  const Program p = make_program(cfg, test_platform(), 5);
  ASSERT_EQ(p.ranks.size(), 5u);
  EXPECT_EQ(p.iterations, 9);
  EXPECT_EQ(p.warmup, 2);
  EXPECT_EQ(p.event_names, iteration_event_names());
  for (int r = 0; r < 5; ++r) {
    const Partners real = neighbour_partners(r, 5, cfg.params.get<TriadConfig>().offsets, cfg.params.get<TriadConfig>().boundary);
    const Exchange& x = p.ranks[static_cast<std::size_t>(r)].exchange.at(0);
    ASSERT_EQ(x.send.size(), 3u);
    for (std::size_t k = 0; k < 3; ++k) {
      EXPECT_EQ(x.send[k].peer, real.send_to[k]);
      EXPECT_EQ(x.recv[k].peer, real.recv_from[k]);
      EXPECT_EQ(x.send[k].bytes, 100);
    }
    EXPECT_EQ(p.ranks[static_cast<std::size_t>(r)].partners.send_rank, real.send_to);
  }
}

TEST(SimProgram, TriadAmountsFromTheByteAndDivideModels) {
  const Program mem = make_program(deck("kernel = \"stream\"\nwrite_allocate = true\n"), test_platform(), 2);
  EXPECT_DOUBLE_EQ(mem.ranks[0].amount.at(0), 1000 * triad_bytes_per_element(TriadKernel::stream, false));  // STREAM counting
  EXPECT_DOUBLE_EQ(mem.ranks[0].bytes_per_iteration, 1000 * triad_bytes_per_element(TriadKernel::stream, true));
  EXPECT_EQ(mem.steps.at(1).op, Op::memory);
  const Program core = make_program(deck("kernel = \"divide\"\ndivides = 50\n"), test_platform(), 2);
  EXPECT_DOUBLE_EQ(core.ranks[1].amount.at(0), 1000 * 50 * 2e-9);
  EXPECT_EQ(core.steps.at(1).op, Op::core);
  // Open chain: the ends have one partner each.
  EXPECT_EQ(core.ranks[0].exchange[0].send.size(), 1u);
  EXPECT_EQ(core.ranks[0].exchange[0].recv.size(), 1u);
  // [comm] sync adds the sync step at the end of the iteration.
  const Program synced = make_program(load_deck("[run]\niterations = 3\n[triad]\nsize_per_rank = 10\n[comm]\nsync = \"barrier\"\n",
                                                "d.toml", {}),
                                      test_platform(), 2);
  EXPECT_EQ(synced.steps.back().op, Op::sync);
  EXPECT_NE(core.steps.back().op, Op::sync);
}

// The ping-pong: one step list per timeline row, a size's first row after a collective (the real
// run's barrier); each role's messages in its two exchanges per size (the echo received with the
// message out, matched on the channel it is sent in); /pingpong from the real run's code.
TEST(SimPingpongProgram, RolesRowsAndResults) {
  const Config ping = load_deck("[run]\nworkload = \"pingpong\"\niterations = 3\n[pingpong]\nsizes = [8, 1024]\n", "d.toml", {});
  const Program p = make_program(ping, test_platform(), 5);  // pair 0: ranks 0 and 2; ranks 1, 3, 4 idle
  ASSERT_EQ(p.cycle.size(), 6u);
  EXPECT_EQ(p.iterations, 6);
  EXPECT_EQ(p.cycle[0].front().op, Op::allreduce);
  EXPECT_EQ(p.cycle[1].front().op, Op::mark);
  EXPECT_EQ(p.cycle[3].front().op, Op::allreduce);
  EXPECT_EQ(p.cycle[4][1].op, Op::post);
  EXPECT_EQ(p.cycle[4][1].arg, 2);  // size 1's exchange A
  const RankWork& first = p.ranks[0];
  const RankWork& second = p.ranks[2];
  ASSERT_EQ(first.exchange.size(), 4u);
  EXPECT_EQ(first.exchange[2].send.size(), 1u);
  EXPECT_EQ(first.exchange[2].send[0].bytes, 1024);
  ASSERT_EQ(first.exchange[2].recv.size(), 1u);
  EXPECT_EQ(first.exchange[2].recv[0].channel, 3);  // the echo, sent in second's exchange B
  EXPECT_EQ(second.exchange[2].recv.size(), 1u);
  EXPECT_EQ(second.exchange[3].send.size(), 1u);
  EXPECT_TRUE(p.ranks[1].exchange[0].send.empty() && p.ranks[4].exchange[3].recv.empty());
  const Program b = make_program(load_deck("[run]\nworkload = \"pingpong\"\niterations = 2\n[pingpong]\nmode = \"bandwidth\"\n"
                                           "sizes = [64]\nwindow = 4\n", "d.toml", {}), test_platform(), 4);
  EXPECT_EQ(b.ranks[1].exchange[0].send.size(), 4u);  // pairs (0, 2) and (1, 3): a window each
  EXPECT_EQ(b.ranks[3].exchange[1].send.size(), 1u);
  EXPECT_EQ(b.ranks[3].exchange[1].send[0].bytes, 0);  // the zero-byte reply
  // Results: rank 0's rows take 1, 2, 3 us at 8 B and 10, 20, 30 us at 1 KiB; medians 2 and 20 us.
  std::vector<Timeline> tls;
  for (int r = 0; r < 5; ++r) tls.emplace_back(p.event_names, 6, 0);
  const double t[6] = {1e-6, 2e-6, 3e-6, 10e-6, 20e-6, 30e-6};
  for (std::int64_t it = 0; it < 6; ++it) {
    tls[0].set(it, 0, static_cast<double>(it));
    tls[0].set(it, 3, static_cast<double>(it) + t[it]);
  }
  std::vector<const Timeline*> view;
  for (const Timeline& tl : tls) view.push_back(&tl);
  WorkloadResult own(Timeline({}, 0, 0));
  p.results(view, own);
  const WorkloadDataset* med = nullptr;
  for (const WorkloadDataset& d : own.datasets)
    if (d.name == "round_trip_median") med = &d;
  ASSERT_NE(med, nullptr);
  EXPECT_NEAR(med->values.at(0), 2e-6, 1e-12);
  EXPECT_NEAR(med->values.at(1), 20e-6, 1e-12);
  EXPECT_NE(own.report.find("ping-pong: 1 pair(s)"), std::string::npos);
}

TEST(SimProgram, RefusesWhatItDoesNotModel) {
  EXPECT_THROW(make_program(load_deck("[run]\nworkload = \"saturation\"\n", "d.toml", {}), test_platform(), 2), DeckError);
  // The overlap toy may test for progress in its compute part 1 (the deck loader allows it there).
  const std::string toy = "[run]\nworkload = \"toy\"\n[toy]\noverlap = true\n[comm]\n";
  for (const char* bad : {"progress = \"test\"", "send = \"parallel\""}) {
    try {
      make_program(load_deck(toy + bad + "\n", "d.toml", {}), test_platform(), 2);
      ADD_FAILURE() << bad << " was accepted";
    } catch (const DeckError& e) {
      EXPECT_NE(std::string(e.what()).find(std::string("[comm] ") + bad + ": not modelled"), std::string::npos) << e.what();
    }
  }
  EXPECT_NO_THROW(make_program(deck("[comm]\nprogress = \"thread\"\nsend = \"blocking\"\n"), test_platform(), 2));
  EXPECT_EQ(simulatable_list(), "\"triad\", \"spmv\", \"stencil\", \"chebfd\", \"pingpong\", \"toy\", \"cg\", \"collbench\", \"matvec2d\", \"symmsquarecube\"");
}

}  // namespace
}  // namespace desync::sim
