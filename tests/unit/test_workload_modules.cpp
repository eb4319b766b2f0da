// The workload registry's entries: what every module declares, and the deck rules the loader
// derives from them for every workload alike (issue 33): an [[inject]] iteration is checked
// against the steps the workload really runs, whatever sets them.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "config/config.hpp"
#include "core/errors.hpp"
#include "workloads/registry.hpp"

namespace desync {
namespace {

bool has(const std::vector<std::string>& v, const std::string& s) { return std::find(v.begin(), v.end(), s) != v.end(); }

// The smallest deck of the workload: its defaults, a small matrix where it needs one.
std::string minimal_deck(const WorkloadModule& m, const std::string& more = "") {
  std::string d = "[run]\nworkload = \"" + m.deck.name + "\"\n" + more;
  if (m.deck.needs_matrix) d += "[matrix]\ngenerator = \"stencil5\"\n[matrix.stencil5]\nnx = 8\nny = 8\n";
  return d;
}

TEST(WorkloadModules, EveryEntryIsComplete) {
  std::set<std::string> names;
  for (const auto& m : workload_registry()) {
    SCOPED_TRACE(m.deck.name);
    EXPECT_TRUE(names.insert(m.deck.name).second) << "registered twice";
    EXPECT_TRUE(m.run != nullptr);
    EXPECT_TRUE(m.memory != nullptr);
    EXPECT_TRUE(has(m.deck.tables, "run"));
    EXPECT_EQ(m.deck.read_table != nullptr, has(m.deck.tables, m.deck.name)) << "its own table and its reader go together";
    EXPECT_EQ(m.deck.needs_matrix, has(m.deck.tables, "matrix"));
    for (const auto& p : m.phases) {
      EXPECT_EQ(p.colour.size(), 7u) << p.name;
      EXPECT_EQ(p.colour[0], '#') << p.name;
    }
    // Its minimal deck loads, and the loaded deck names it.
    EXPECT_EQ(load_deck(minimal_deck(m), "d.toml", {}).run.workload, m.deck.name);
  }
  EXPECT_THROW(register_workload(workload_registry().front()), std::logic_error);
}

// For every workload with [[inject]]: iteration = its last measured step is accepted, the next
// one refused with a message naming the steps, whether [run] iterations or its own table sets
// them (ChebFD's degree steps: before issue 33 the check used [run]'s default 1000).
TEST(WorkloadModules, InjectionBeyondTheStepsIsRefusedForEveryWorkload) {
  int checked = 0;
  for (const auto& m : workload_registry()) {
    if (!has(m.deck.tables, "inject")) continue;
    SCOPED_TRACE(m.deck.name);
    const Config plain = load_deck(minimal_deck(m), "d.toml", {});
    const std::int64_t steps = plain.run.iterations;
    ASSERT_GT(steps, 0);
    const auto inject = [&](std::int64_t it) {
      return load_deck(minimal_deck(m) + "[[inject]]\nrank = 0\niteration = " + std::to_string(it) + "\nduration = 0.01\n",
                       "d.toml", {});
    };
    EXPECT_EQ(inject(steps - 1).inject.at(0).iteration, steps - 1);
    try {
      inject(steps);
      ADD_FAILURE() << "iteration = " << steps << " accepted";
    } catch (const DeckError& e) {
      const std::string msg = e.what();
      EXPECT_NE(msg.find("[inject[0]] iteration = " + std::to_string(steps)), std::string::npos) << msg;
      EXPECT_NE(msg.find(std::to_string(steps) + " measured steps"), std::string::npos) << msg;
    }
    ++checked;
  }
  EXPECT_GE(checked, 6);
}

TEST(WorkloadModules, OwnStepsReplaceRunIterations) {
  for (const auto& m : workload_registry()) {
    if (!m.deck.steps) continue;
    SCOPED_TRACE(m.deck.name);
    const Config c = load_deck(minimal_deck(m), "d.toml", {});
    EXPECT_EQ(c.run.warmup + c.run.iterations, m.deck.steps(c));
    EXPECT_THROW(load_deck(minimal_deck(m, "iterations = 5\n"), "d.toml", {}), DeckError);
  }
}

}  // namespace
}  // namespace desync
