// The simulator's programs (sim_model/sim_program.hpp): the triad's steps, amounts and messages come
// from the real run's models and partner rule; unsupported workloads and options are refused.
#include <gtest/gtest.h>

#include "config/config.hpp"
#include "workloads/registry.hpp"
#include "core/errors.hpp"
#include "record/iteration_events.hpp"
#include "sim_model/sim_program.hpp"
#include "sim_test_platform.hpp"
#include "workloads/simulated_programs.hpp"
#include "workloads/triad/neighbour_partners.hpp"
#include "workloads/triad/triad.hpp"
#include "workloads/triad/triad_config.hpp"

namespace desync::sim {
namespace {

const Platform& platform() { return test_platform(); }

Config deck(const std::string& extra) {
  return load_deck("[run]\niterations = 7\nwarmup = 2\n[triad]\nsize_per_rank = 1000\n" + extra, "d.toml", {});
}

TEST(SimProgram, TriadMessagesAreTheRealPartnerRule) {
  const Config cfg = deck("offsets = [1, -1, 3]\nboundary = \"periodic\"\nmessage_bytes = 100\n");
  const Program p = make_program(cfg, platform(), 5);
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
  const Program mem = make_program(deck("kernel = \"stream\"\nwrite_allocate = true\n"), platform(), 2);
  EXPECT_DOUBLE_EQ(mem.ranks[0].amount.at(0), 1000 * triad_bytes_per_element(TriadKernel::stream, false));  // STREAM counting
  EXPECT_DOUBLE_EQ(mem.ranks[0].bytes_per_iteration, 1000 * triad_bytes_per_element(TriadKernel::stream, true));
  EXPECT_EQ(mem.steps.at(1).op, Op::memory);
  const Program core = make_program(deck("kernel = \"divide\"\ndivides = 50\n"), platform(), 2);
  EXPECT_DOUBLE_EQ(core.ranks[1].amount.at(0), 1000 * 50 * 2e-9);
  EXPECT_EQ(core.steps.at(1).op, Op::core);
  // Open chain: the ends have one partner each.
  EXPECT_EQ(core.ranks[0].exchange[0].send.size(), 1u);
  EXPECT_EQ(core.ranks[0].exchange[0].recv.size(), 1u);
  // [comm] sync adds the sync step at the end of the iteration.
  const Program synced = make_program(load_deck("[run]\niterations = 3\n[triad]\nsize_per_rank = 10\n[comm]\nsync = \"barrier\"\n",
                                                "d.toml", {}),
                                      platform(), 2);
  EXPECT_EQ(synced.steps.back().op, Op::sync);
  EXPECT_NE(core.steps.back().op, Op::sync);
}

TEST(SimProgram, RefusesWhatItDoesNotModel) {
  EXPECT_THROW(make_program(load_deck("[run]\nworkload = \"pingpong\"\n", "d.toml", {}), platform(), 2), DeckError);
  try {
    make_program(deck("[comm]\nprogress = \"thread\"\n"), platform(), 2);
    FAIL() << "progress = thread was accepted";
  } catch (const DeckError& e) {
    EXPECT_NE(std::string(e.what()).find("[comm] progress = \"thread\": not modelled"), std::string::npos) << e.what();
  }
  EXPECT_EQ(simulatable_list(), "\"triad\", \"spmv\", \"stencil\", \"chebfd\", \"cg\"");
}

}  // namespace
}  // namespace desync::sim
