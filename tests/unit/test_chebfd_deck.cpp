// [chebfd] deck keys: defaults, ranges and the errors a user sees.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "config/config.hpp"
#include "workloads/registry.hpp"
#include "core/errors.hpp"
#include "workloads/chebfd/chebfd_coefficients.hpp"
#include "workloads/chebfd/chebfd_config.hpp"

namespace desync {
namespace {

const std::string matrix = "[matrix]\ngenerator = \"spin\"\n[matrix.spin]\nsites = 8\n";

Config load(const std::string& chebfd, const std::string& m = matrix) {
  return load_deck("[run]\nworkload = \"chebfd\"\n[chebfd]\n" + chebfd + m, "c.toml", {});
}

TEST(ChebfdDeck, Defaults) {
  const Config c = load("");
  EXPECT_EQ(c.params.get<ChebfdConfig>().ns, 8);
  EXPECT_EQ(c.params.get<ChebfdConfig>().nb, 4);
  EXPECT_EQ(c.params.get<ChebfdConfig>().np, 50);
  EXPECT_EQ(c.params.get<ChebfdConfig>().scheme, ChebfdScheme::nonsplit);
  EXPECT_FALSE(c.params.get<ChebfdConfig>().barrier_per_degree);
  EXPECT_EQ(c.params.get<ChebfdConfig>().bounds, ChebfdBounds::gershgorin);
}

TEST(ChebfdDeck, Errors) {
  EXPECT_THROW(load("ns = 10\nnb = 4\n"), DeckError);
  EXPECT_THROW(load("np = 1\n"), DeckError);
  EXPECT_THROW(load("scheme = \"overlap\"\n"), DeckError);
  EXPECT_THROW(load("bounds = \"arnoldi\"\n"), DeckError);
  EXPECT_THROW(load("bounds = \"lanczos\"\nlanczos_steps = 1\n"), DeckError);
  EXPECT_NO_THROW(load("bounds = \"lanczos\"\nlanczos_steps = 30\n"));
  EXPECT_THROW(load("lambda_min = 1.0\nlambda_max = 0.5\n"), DeckError);
  EXPECT_THROW(load("nbb = 2\n"), DeckError);
  EXPECT_THROW(load("", ""), DeckError) << "a [matrix] is required";
  // barrier_samples only where the micro-benchmark runs: with a barrier or compare_barrier.
  try {
    load("barrier_samples = 50\n");
    ADD_FAILURE() << "barrier_samples without a barrier was accepted";
  } catch (const DeckError& e) {
    EXPECT_NE(std::string(e.what()).find("c.toml:4:19: error: [chebfd] barrier_samples = 50: not used"), std::string::npos) << e.what();
  }
  EXPECT_NO_THROW(load("barrier_samples = 50\ncompare_barrier = true\n"));
  EXPECT_NO_THROW(load("barrier_samples = 50\nbarrier_per_degree = true\n"));
  EXPECT_NO_THROW(load("barrier_samples = 50\n", matrix + "[comm]\nsync = \"allreduce\"\n"));
  try {
    load("ns = 10\nnb = 4\n");
  } catch (const DeckError& e) {
    EXPECT_NE(std::string(e.what()).find("multiple of nb"), std::string::npos) << e.what();
  }
}

// ChebFD counts degree steps: nothing of [run] may be ignored or clamped without a word.
TEST(ChebfdDeck, WarmupAndIterationsFollowTheDegreeSteps) {
  const auto with_run = [](const std::string& run, const std::string& chebfd) {
    return load_deck("[run]\nworkload = \"chebfd\"\n" + run + "[chebfd]\n" + chebfd + matrix, "c.toml", {});
  };
  const Config d = with_run("", "np = 5\nns = 8\nnb = 4\n");  // 2 blocks x 4 steps
  EXPECT_EQ(chebfd_steps(d.params.get<ChebfdConfig>()), 8);
  EXPECT_EQ(d.run.warmup, 7) << "documented default: min(10, steps - 1)";
  EXPECT_EQ(d.run.warmup + d.run.iterations, 8);
  EXPECT_NE(d.resolved_toml.find("warmup = 7"), std::string::npos) << d.resolved_toml;
  EXPECT_EQ(chebfd_steps(with_run("", "np = 5\nscheme = \"pipeline\"\n").params.get<ChebfdConfig>()), 4);
  EXPECT_EQ(with_run("warmup = 3\n", "np = 5\n").run.warmup, 3);
  try {
    with_run("warmup = 8\n", "np = 5\n");
    ADD_FAILURE() << "a warm-up without a measured step must be refused";
  } catch (const DeckError& e) {
    EXPECT_NE(std::string(e.what()).find("c.toml:3:10: error: [run] warmup = 8: workload \"chebfd\" has 8 degree steps; allowed: 0..7"),
              std::string::npos) << e.what();
  }
  try {
    with_run("iterations = 100\n", "");
    ADD_FAILURE() << "[run] iterations has no effect in chebfd and must be refused";
  } catch (const DeckError& e) {
    EXPECT_NE(std::string(e.what()).find("[run] iterations = 100: not used by workload \"chebfd\""), std::string::npos) << e.what();
  }
  // The resolved configuration (with the derived iterations) reloads as the same run.
  const Config again = load_deck(d.resolved_toml, "r.toml", {});
  EXPECT_EQ(again.run.warmup, d.run.warmup);
}

TEST(ChebfdCoefficients, WindowIndicator) {
  // The whole interval: c_0 = 1, c_p = 0, so the filter is the identity.
  const chebfd::Scaling s{1.0, 0.0};
  const auto all = chebfd::damped_coefficients(20, s, -1.0, 1.0);
  EXPECT_NEAR(all[0], 1.0, 1e-14);
  for (std::size_t p = 1; p < all.size(); ++p) EXPECT_NEAR(all[p], 0.0, 1e-14);
  const auto half = chebfd::damped_coefficients(20, s, 0.0, 1.0);
  EXPECT_NEAR(half[0], 0.5, 1e-14);
  EXPECT_GT(half[1], 0.0);
  const auto sc = chebfd::scaling(-2.0, 2.0);
  EXPECT_NEAR(sc.alpha * 2.04 + sc.beta, 1.0, 1e-14);
  EXPECT_NEAR(sc.alpha * -2.04 + sc.beta, -1.0, 1e-14);
}

}  // namespace
}  // namespace desync
