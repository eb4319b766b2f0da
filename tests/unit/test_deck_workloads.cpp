// Deck loading of the workloads' own tables: [matrix] and its generators, [spmv], [stencil].
#include <gtest/gtest.h>

#include <string>

#include "config/config.hpp"
#include "core/errors.hpp"
#include "deck_error.hpp"
#include "workloads/registry.hpp"
#include "workloads/spmv/spmv_config.hpp"
#include "workloads/stencil/stencil_config.hpp"

namespace desync {
namespace {

TEST(DeckMatrix, GeneratorsAndTheirTables) {
  const Config c = load_deck(R"(
[run]
workload = "spmv"
[matrix]
generator = "topi"
partition = "nnz"
[matrix.topi]
block = [128, 128, 64]
decomposition = "M7"
node_count = 64
boundary = ["periodic", "periodic", "open"]
)", "m.toml", {});
  ASSERT_TRUE(c.has_matrix);
  EXPECT_EQ(c.matrix.generator, GeneratorKind::topi);
  EXPECT_EQ(c.matrix.partition, PartitionKind::nnz);
  EXPECT_EQ(c.matrix.topi.nodes, (std::array<std::int64_t, 3>{2, 4, 8}));
  EXPECT_EQ(c.matrix.topi.boundary[2], LatticeBoundary::open);
  EXPECT_FALSE(load_deck("", "e.toml", {}).has_matrix);
  const Config s = load_deck("[run]\nworkload = \"spmv\"\n[matrix]\n[matrix.spin]\nsites = 26\n", "s.toml", {});
  EXPECT_EQ(s.matrix.spin.up, 13) << "half filling by default";
  const Config again = load_deck(c.resolved_toml, "r.toml", {});
  EXPECT_EQ(again.matrix.topi.nodes, c.matrix.topi.nodes);
}

TEST(DeckSpmv, KeysAndErrors) {
  const Config c = load_deck("[run]\nworkload = \"spmv\"\n[spmv]\nscheme = \"nonsplit\"\nkernel = \"kokkoskernels\"\n"
                             "compare_barrier = true\n[matrix]\n", "s.toml", {});
  EXPECT_EQ(c.run.workload, "spmv");
  EXPECT_EQ(c.params.get<SpmvConfig>().scheme, SpmvScheme::nonsplit);
  EXPECT_EQ(c.params.get<SpmvConfig>().kernel, SpmvKernel::kokkoskernels);
  EXPECT_TRUE(c.params.get<SpmvConfig>().compare_barrier);
  EXPECT_EQ(c.resolved_toml.find("[triad]"), std::string::npos) << "tables of other workloads stay out";
  EXPECT_NE(deck_error("[run]\nworkload = \"spmv\"\n").find("needs a [matrix] table"), std::string::npos);
  EXPECT_NE(deck_error("[run]\nworkload = \"spmv\"\n[matrix]\n[spmv]\nscheme = \"pipeline\"\n").find("\"nonsplit\", \"splitwait\""),
            std::string::npos);
  EXPECT_NE(deck_error("[run]\nworkload = \"spmv\"\n[matrix]\n[spmv]\nbarier = true\n").find("did you mean"),
            std::string::npos);
}

TEST(DeckMatrix, InvalidParametersAreDeckErrors) {
  const auto has = [](const std::string& deck, const std::string& what) {
    expect_deck_error_has("[run]\nworkload = \"spmv\"\n" + deck, what);
  };
  has("[matrix]\ngenerator = \"hubbard\"\n", "\"spin\", \"hhq\", \"topi\", \"stencil5\"");
  has("[matrix]\n[matrix.spin]\nsites = 0\n", "[matrix.spin] sites = 0");
  has("[matrix]\n[matrix.spin]\nsites = 11\n", "half filling");
  has("[matrix]\n[matrix.spin]\nsites = 10\nup = 11\n", "an integer in [0, 10]");
  has("[matrix]\ngenerator = \"hhq\"\n[matrix.hhq]\nsites = 2\n", "an integer in [3, 40]");
  has("[matrix]\n[matrix.spin]\nsites = 2\nboundary = \"periodic\"\n", "the periodic bond (1, 0) is the open bond (0, 1) again");
  has("[matrix]\ngenerator = \"hhq\"\n[matrix.hhq]\nu = 0\n", "must be > 0");
  has("[matrix]\ngenerator = \"hhq\"\n[matrix.hhq]\nsites = 30\nphonons = 30\n", "more than 2^63 rows");
  // Beyond the binomial table the limit is named, not blamed on a row count (3 sites, 63 phonons:
  // 18,720 rows).
  has("[matrix]\ngenerator = \"hhq\"\n[matrix.hhq]\nsites = 3\nup = 1\ndown = 1\nphonons = 63\n",
      "allowed: phonons + sites - 1 <= 64 (the phonon basis' binomial table), here at most 62");
  has("[matrix]\ngenerator = \"topi\"\n[matrix.topi]\ndecomposition = \"M4\"\nnode_count = 10\n",
      "M4 needs a square node count");
  has("[matrix]\ngenerator = \"topi\"\n[matrix.topi]\ndecomposition = \"M8\"\nnode_count = 12\n",
      "divisible by 8");
  has("[matrix]\ngenerator = \"topi\"\n[matrix.topi]\ndecomposition = \"M10\"\nnode_count = 8\n", "M1..M9");
  has("[matrix]\ngenerator = \"topi\"\n[matrix.topi]\ndecomposition = \"M1\"\n", "needs node_count");
  has("[matrix]\ngenerator = \"topi\"\n[matrix.topi]\nnodes = [1, 1, 2]\ndecomposition = \"M1\"\nnode_count = 2\n",
      "not both");
  has("[matrix]\ngenerator = \"topi\"\n[matrix.topi]\nblock = [4, 4]\n", "three extents");
  has("[matrix]\ngenerator = \"topi\"\n[matrix.topi]\nblock = [4, 0, 4]\n", "[matrix.topi] block");
  has("[matrix]\ngenerator = \"topi\"\n[matrix.topi]\nboundary = [\"open\", \"closed\", \"open\"]\n",
      "an array of 3 of \"open\", \"periodic\"");
  has("[matrix]\ngenerator = \"stencil5\"\n[matrix.stencil5]\nweights = [1, 2]\n", "an array of 5 numbers");
  has("[matrix]\n[matrix.spin]\nsite = 8\n", "did you mean 'sites'");
  has("[matrix]\n[matrix.spni]\nsites = 8\n", "did you mean 'spin'");
}


TEST(DeckStencil, KeysAndErrors) {
  const Config c = load_deck("[run]\nworkload = \"stencil\"\n[stencil]\nn = 100\npx = 2\npy = 3\nvariant = \"ca\"\n"
                             "ca_steps = 5\ntile = [10, 20]\nratio = 0.5\nweights = [1, 2, 3, 4, 5]\nboundary = 0\n"
                             "latency = 1e-5\nskip_redundant = true\n", "s.toml", {});
  EXPECT_EQ(c.run.workload, "stencil");
  EXPECT_EQ(c.params.get<StencilConfig>().n, 100);
  EXPECT_EQ(c.params.get<StencilConfig>().variant, StencilVariant::ca);
  EXPECT_EQ(c.params.get<StencilConfig>().ca_steps, 5);
  EXPECT_EQ(c.params.get<StencilConfig>().tile_x, 10);
  EXPECT_EQ(c.params.get<StencilConfig>().tile_y, 20);
  EXPECT_EQ(c.params.get<StencilConfig>().weights, (std::vector<double>{1, 2, 3, 4, 5}));
  EXPECT_TRUE(c.params.get<StencilConfig>().skip_redundant);
  EXPECT_NO_THROW(validate_for_ranks(c, 6));
  const std::string px = rank_error(c, 4);  // px * py = 6 on 4 ranks
  EXPECT_NE(px.find("s.toml:5:6: error: [stencil] px = 2, py = 3"), std::string::npos) << px;
  const Config d = load_deck("[run]\nworkload = \"stencil\"\n", "d.toml", {});
  EXPECT_EQ(d.params.get<StencilConfig>().variant, StencilVariant::base);
  EXPECT_DOUBLE_EQ(d.params.get<StencilConfig>().ratio, 1.0);
  EXPECT_NO_THROW(validate_for_ranks(d, 7)) << "automatic grid: 7 x 1";
  EXPECT_EQ(d.resolved_toml.find("[triad]"), std::string::npos);
  const auto has = [](const std::string& deck, const std::string& what) {
    expect_deck_error_has("[run]\nworkload = \"stencil\"\n[stencil]\n" + deck, what);
  };
  has("variant = \"matrixfree\"\n", "\"spmv\", \"base\", \"ca\"");
  has("ratio = 0\n", "[stencil] ratio = 0: not allowed; allowed: a number in (0, 1]");
  has("ratio = 2\n", "[stencil] ratio = 2: not allowed; allowed: a number in (0, 1]");
  has("ratio = 1.5\n", "[stencil] ratio = 1.5");
  has("ca_steps = 0\n", "[stencil] ca_steps = 0");
  has("tile = [4]\n", "[mb, nb]");
  has("weights = [1, 2]\n", "an array of 5 numbers");
  has("n = 10\npx = 11\n", "more process columns");
  has("skip_redundant = true\n", "only the \"ca\" variant");
  has("tiles = [1, 1]\n", "did you mean 'tile'");
  const Config deep = load_deck("[run]\nworkload = \"stencil\"\n[stencil]\nn = 20\nvariant = \"ca\"\nca_steps = 6\n", "c.toml", {});
  EXPECT_NO_THROW(validate_for_ranks(deep, 3)) << "3 x 1: blocks of 6 or 7 columns";
  EXPECT_NO_THROW(validate_for_ranks(deep, 4)) << "2 x 2: blocks of 10";
  EXPECT_THROW(validate_for_ranks(deep, 5), DeckError) << "5 x 1: blocks of 4 < ca_steps";
}

// A rank count the workload cannot run on points at the deck's workload line (the key whose
// choice brings the rule), as every other deck error points at its key.
TEST(DeckWorkloads, RankCountErrorsNameTheWorkloadLine) {
  const Config mv = load_deck("[run]\niterations = 3\nworkload = \"matvec2d\"\n", "mv.toml", {});
  const std::string three = rank_error(mv, 3);
  EXPECT_NE(three.find("mv.toml:3:12: error: workload \"matvec2d\" runs on a p x p mesh"), std::string::npos) << three;
  const Config pp = load_deck("[run]\nworkload = \"pingpong\"\n", "pp.toml", {});
  const std::string one = rank_error(pp, 1);
  EXPECT_NE(one.find("pp.toml:2:12: error: workload \"pingpong\" needs at least 2 ranks"), std::string::npos) << one;
}

}  // namespace
}  // namespace desync
