// desync simulate never ignores a [comm] key silently: every key of the resolved [comm] table, set
// alone to a value other than its workload's default, is either modelled (sim::modelled_comm_key;
// values of a modelled key it cannot model, e.g. progress = "test", are refused naming key and
// value) or refused by make_program naming the key. The refusal follows from config's
// changed_comm_keys, which compares every key read_comm knows, so a [comm] key added later is
// covered by this test without editing it.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "config/config.hpp"
#include "core/errors.hpp"
#include "sim_model/sim_program.hpp"
#include "sim_test_platform.hpp"
#include "workloads/registry.hpp"
#include "workloads/simulated_programs.hpp"

namespace desync::sim {
namespace {


// The (key, value) lines of the resolved deck's [comm] table.
std::vector<std::pair<std::string, std::string>> comm_lines(const std::string& resolved) {
  std::vector<std::pair<std::string, std::string>> out;
  std::istringstream in(resolved);
  std::string line;
  bool inside = false;
  while (std::getline(in, line)) {
    if (!line.empty() && line[0] == '[') inside = line == "[comm]";
    const auto eq = line.find(" = ");
    if (inside && eq != std::string::npos) out.emplace_back(line.substr(0, eq), line.substr(eq + 3));
  }
  return out;
}

// Values to try instead of `value`: the other boolean, the words of the [comm] enumerations, or
// other integers (the loader refuses what does not fit the key).
std::vector<std::string> alternatives(const std::string& value) {
  if (value == "true") return {"false"};
  if (value == "false") return {"true"};
  if (!value.empty() && (value[0] == '\'' || value[0] == '"'))
    return {"blocking", "parallel", "nonblocking", "test", "thread", "wait", "barrier", "allreduce", "none", "on", "off", "auto"};
  return {"1", "2", "8", "4096", "65536"};
}

TEST(SimulateCommKeys, EveryKeyIsModelledOrRefused) {
  int simulated = 0;
  for (const auto& m : workload_registry()) {
    if (!m.simulated) continue;
    ++simulated;
    SCOPED_TRACE(m.deck.name);
    std::string base = "[run]\nworkload = \"" + m.deck.name + "\"\nwarmup = 1\n" + (m.deck.steps ? "" : "iterations = 3\n");
    if (m.deck.needs_matrix) base += "[matrix]\ngenerator = \"stencil5\"\n[matrix.stencil5]\nnx = 8\nny = 8\n";
    const Config plain = load_deck(base, "d.toml", {});
    // The collective workloads span nodes of the test platform (4 ranks each): 2 nodes, or 4
    // for matvec2d's square mesh.
    const int ranks = !m.deck.collective ? 2 : m.deck.name == "matvec2d" ? 16 : 8;
    EXPECT_TRUE(changed_comm_keys(plain, m.deck).empty());
    EXPECT_NO_THROW(make_program(plain, test_platform(), ranks));
    std::vector<std::string> tested, alone_impossible;
    for (const auto& [key, value] : comm_lines(plain.resolved_toml)) {
      // Every other value of the key: accepted (a modelled value) or refused naming key and value.
      int accepted = 0, refused = 0;
      for (const auto& alt : alternatives(value)) {
        Config c;
        try {
          c = load_deck(base, "d.toml", {"comm." + key + "=" + alt});
        } catch (const DeckError&) {
          continue;  // not a value of this key here
        }
        const auto changed = changed_comm_keys(c, m.deck);
        if (changed.empty()) continue;  // the default again
        ASSERT_EQ(changed.size(), 1u) << key << " = " << alt;
        EXPECT_EQ(changed[0].first, key);
        try {
          make_program(c, test_platform(), ranks);
          ++accepted;
        } catch (const DeckError& e) {
          ++refused;
          const std::string msg = e.what();
          EXPECT_NE(msg.find("[comm] " + key + " = "), std::string::npos) << msg;
          EXPECT_NE(msg.find("not modelled by desync simulate"), std::string::npos) << msg;
        }
      }
      if (accepted + refused == 0) {
        alone_impossible.push_back(key);
        continue;
      }
      tested.push_back(key);
      // A key the simulator does not model accepts no other value; one it models accepts one at least.
      if (modelled_comm_key(key))
        EXPECT_GT(accepted, 0) << "[comm] " << key << ": modelled, yet every other value is refused";
      else
        EXPECT_EQ(accepted, 0) << "[comm] " << key << ": a value was silently accepted by the simulator";
    }
    // Only test_interval cannot be set alone (it acts with progress = "test", refused itself),
    // gpu_aware_mpi where the workload's messages are not in device memory (its module says), and
    // sync_every where the timeline is cells of repetitions (pingpong, collbench).
    std::vector<std::string> expected;
    // A collective workload's own deck refuses the point-to-point keys (its communication is
    // collectives) and, where its default algorithm is a blocking one (collbench, matvec2d; not
    // symmsquarecube's "optimized"), N_DUP parts.
    if (m.deck.collective) expected = {"fragment_bytes"};
    if (m.deck.collective && m.deck.name != "symmsquarecube") expected.insert(expected.begin(), "communicators");
    if (!m.deck.device_buffers) expected.push_back("gpu_aware_mpi");
    if (m.deck.collective) expected.insert(expected.end(), {"progress", "send"});
    if (m.deck.cells_of_repetitions) expected.push_back("sync_every");  // refused by their decks
    expected.push_back("test_interval");
    EXPECT_EQ(alone_impossible, expected);
    EXPECT_GE(tested.size(), m.deck.collective ? 4u : 8u);
  }
  EXPECT_GE(simulated, 4);
  // What docs/simulate.md says the simulator models, and what it refuses.
  for (const char* k : {"sync", "sync_every", "fragment_bytes", "send", "progress", "communicators", "eager_limit", "record_messages",
                        "record_messages_max"})
    EXPECT_TRUE(modelled_comm_key(k)) << k;
  for (const char* k : {"gpu_aware_mpi", "test_interval"}) EXPECT_FALSE(modelled_comm_key(k)) << k;
}

}  // namespace
}  // namespace desync::sim
