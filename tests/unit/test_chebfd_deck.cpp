// [chebfd] deck keys: defaults, ranges and the errors a user sees.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "config/config.hpp"
#include "core/errors.hpp"
#include "workload/chebfd_coefficients.hpp"

namespace desync {
namespace {

const std::string matrix = "[matrix]\ngenerator = \"spin\"\n[matrix.spin]\nsites = 8\n";

Config load(const std::string& chebfd, const std::string& m = matrix) {
  return load_deck("[run]\nworkload = \"chebfd\"\n[chebfd]\n" + chebfd + m, "c.toml", {});
}

TEST(ChebfdDeck, Defaults) {
  const Config c = load("");
  EXPECT_EQ(c.chebfd.ns, 8);
  EXPECT_EQ(c.chebfd.nb, 4);
  EXPECT_EQ(c.chebfd.np, 50);
  EXPECT_EQ(c.chebfd.scheme, ChebfdScheme::nonsplit);
  EXPECT_FALSE(c.chebfd.barrier_per_degree);
  EXPECT_EQ(c.chebfd.bounds, ChebfdBounds::gershgorin);
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
  try {
    load("ns = 10\nnb = 4\n");
  } catch (const DeckError& e) {
    EXPECT_NE(std::string(e.what()).find("multiple of nb"), std::string::npos) << e.what();
  }
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
