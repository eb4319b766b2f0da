// The simulator's platform files (sim_model/platform_file.hpp): keys, checks with their messages,
// b(n) and N_s, and where ranks are placed. No SimGrid needed.
#include <gtest/gtest.h>

#include <string>
#include <utility>

#include "core/errors.hpp"
#include "sim_model/platform_file.hpp"

namespace desync::sim {
namespace {

const std::string kPlatformToml = R"([platform]
name = "t"
[node]
count = 4
sockets = 2
domains = 4
cores_per_domain = 6
[memory]
b1 = 10e9
b_saturated = 35e9
[network]
intra_node_latency = 1e-6
intra_node_bandwidth = 5e9
inter_node_latency = 2e-6
inter_node_bandwidth = 10e9
)";

std::string error_of(const std::string& text, const std::vector<std::string>& sets = {}) {
  try {
    parse_platform(text, "p.toml", sets);
  } catch (const DeckError& e) {
    return e.what();
  }
  return "";
}

TEST(SimPlatform, DefaultsAndSaturation) {
  const Platform p = parse_platform(kPlatformToml, "p.toml", {});
  EXPECT_EQ(p.name, "t");
  EXPECT_EQ(p.cores_per_node(), 24);
  EXPECT_EQ(p.ranks_per_node, 24);  // one rank per core
  EXPECT_EQ(p.threads_per_rank, 1);
  EXPECT_EQ(p.eager_limit_intra, 4096);
  EXPECT_DOUBLE_EQ(p.sync_latency, 2e-6);  // defaults to the inter-node latency
  EXPECT_DOUBLE_EQ(p.domain_bandwidth(1), 10e9);
  EXPECT_DOUBLE_EQ(p.domain_bandwidth(3), 30e9);
  EXPECT_DOUBLE_EQ(p.domain_bandwidth(4), 35e9);
  EXPECT_EQ(p.saturation_point(), 4);  // ceil(35 / 10)
  EXPECT_NE(p.resolved.find("ranks_per_node = 24"), std::string::npos) << p.resolved;
}

TEST(SimPlatform, MeasuredTable) {
  std::string t = kPlatformToml;
  t.replace(t.find("b1 = 10e9\nb_saturated = 35e9\n"), 28, "table = [8e9, 15e9, 20e9, 21e9, 21e9]\n");
  const Platform p = parse_platform(t, "p.toml", {});
  EXPECT_DOUBLE_EQ(p.b1, 8e9);
  EXPECT_DOUBLE_EQ(p.b_saturated, 21e9);
  EXPECT_DOUBLE_EQ(p.domain_bandwidth(2), 15e9);
  EXPECT_DOUBLE_EQ(p.domain_bandwidth(6), 21e9);  // beyond the table: its last value
  EXPECT_EQ(p.saturation_point(), 4);
  std::string bad = t;
  bad.replace(bad.find("20e9, 21e9"), 10, "20e9, 19e9");
  EXPECT_NE(error_of(bad).find("b(n) must not decrease with n (b(4) < b(3))"), std::string::npos) << error_of(bad);
  EXPECT_NE(error_of(t, {"memory.b1=1e9"}).find("either the measured table"), std::string::npos);
}

// A platform path that is not a small regular file is refused before reading (/dev/zero was read
// until memory ran out, a FIFO blocked forever).
TEST(SimPlatform, RefusesWhatIsNotASmallRegularFile) {
  for (const auto& [path, says] : {std::pair<std::string, std::string>{"/dev/zero", "not a regular file"},
                                   {"/tmp", "is a directory"}, {"/no/such/platform.toml", "no such file"}}) {
    try {
      load_platform(path, {});
      ADD_FAILURE() << "accepted " << path;
    } catch (const DeckError& e) {
      EXPECT_NE(std::string(e.what()).find(says), std::string::npos) << e.what();
    }
  }
}

TEST(SimPlatform, ErrorsNameFileKeyValueAndWhatIsAllowed) {
  EXPECT_NE(error_of(kPlatformToml, {"node.domains=3"}).find("[node] domains = 3: must be a multiple of sockets = 2"), std::string::npos);
  EXPECT_NE(error_of(kPlatformToml, {"memory.b_saturated=5e9"}).find("must be >= b1"), std::string::npos);
  EXPECT_NE(error_of(kPlatformToml, {"network.inter_node_latency=1e-7"}).find("must be >= intra_node_latency"), std::string::npos);
  EXPECT_NE(error_of(kPlatformToml, {"memory.bsat=1"}).find("unknown key 'bsat'"), std::string::npos) << error_of(kPlatformToml, {"memory.bsat=1"});
  EXPECT_NE(error_of(kPlatformToml + "[nodes]\ncount = 1\n").find("did you mean 'node'"), std::string::npos);
  // A table only a --pset names is blamed on that argument, not on the file.
  EXPECT_EQ(error_of(kPlatformToml, {"nodes.count=1"}).rfind("command line (--pset nodes.count=1): error: unknown table", 0), 0u)
      << error_of(kPlatformToml, {"nodes.count=1"});
  std::string missing = kPlatformToml;
  missing.erase(missing.find("b1 = 10e9\n"), 10);
  EXPECT_NE(error_of(missing).find("p.toml"), std::string::npos);
  EXPECT_NE(error_of(missing).find("[memory] b1: missing"), std::string::npos) << error_of(missing);
  EXPECT_NE(error_of(kPlatformToml, {"placement.ranks_per_node=30"}).find("use fewer, or oversubscribe = true"), std::string::npos);
  EXPECT_NE(error_of(kPlatformToml, {"placement.threads_per_rank=4"}).find("must divide cores_per_domain = 6"), std::string::npos);
  EXPECT_NE(error_of(kPlatformToml, {"placement.threads_per_rank=12"}).find("spanning several memory domains"), std::string::npos);
  EXPECT_NE(error_of("[platform]\nname = \"a b\"\n").find("without blanks"), std::string::npos);
  EXPECT_NE(error_of("[platform\n").find("p.toml:1"), std::string::npos);
}

TEST(SimPlatform, RanksSpreadOverDomainsInBlocks) {
  const Platform p = parse_platform(kPlatformToml, "p.toml", {"placement.ranks_per_node=10"});
  // 10 ranks over 4 domains of a node: floor(l * 4 / 10) -> 3, 2, 3, 2 ranks.
  const int expect_domain[10] = {0, 0, 0, 1, 1, 2, 2, 2, 3, 3};
  for (int r = 0; r < 10; ++r) {
    const RankPlace x = place_rank(p, r, 23);
    EXPECT_EQ(x.node, 0);
    EXPECT_EQ(x.domain_in_node, expect_domain[r]) << r;
    EXPECT_EQ(x.socket, expect_domain[r] / 2);
  }
  EXPECT_EQ(place_rank(p, 4, 23).first_core, 6 + 1);  // second rank of domain 1
  EXPECT_EQ(place_rank(p, 0, 23).ranks_in_domain, 3);
  const RankPlace last = place_rank(p, 22, 23);  // node 2 holds 3 ranks: one per domain 0..2
  EXPECT_EQ(last.node, 2);
  EXPECT_EQ(last.ranks_on_node, 3);
  EXPECT_EQ(last.domain, 2 * 4 + 2);
  EXPECT_EQ(nodes_needed(p, 23), 3);
  EXPECT_THROW(nodes_needed(p, 41), DeckError);
}

TEST(SimPlatform, OversubscribedRanksShareCores) {
  const Platform p = parse_platform(kPlatformToml, "p.toml", {"placement.ranks_per_node=48", "placement.oversubscribe=true"});
  const RankPlace x = place_rank(p, 0, 48);
  EXPECT_EQ(x.ranks_in_domain, 12);
  EXPECT_DOUBLE_EQ(x.core_share, 0.5);
}

}  // namespace
}  // namespace desync::sim
