// /provenance/hwloc_xml: each node's topology once per distinct topology, whatever the host name.
// Every rank plays its own node here (node_comm = MPI_COMM_SELF) with a synthetic topology, so the
// distinct and the alike cases are both seen on one machine.
#include <gtest/gtest.h>
#include <hwloc.h>

#include <string>

#include "record/hwloc_xml.hpp"

namespace desync {
namespace {

struct Synthetic {
  hwloc_topology_t topo = nullptr;
  explicit Synthetic(const char* description) {
    hwloc_topology_init(&topo);
    EXPECT_EQ(hwloc_topology_set_synthetic(topo, description), 0);
    hwloc_topology_load(topo);
  }
  ~Synthetic() { hwloc_topology_destroy(topo); }
};

int world_rank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

int world_size() {
  int p = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  return p;
}

TEST(HwlocXml, AlikeNodesShareOneEntry) {
  Synthetic s("pack:2 core:3 pu:1");
  const NodeTopologies t = gather_node_topologies(s.topo, MPI_COMM_WORLD, MPI_COMM_SELF);
  ASSERT_EQ(t.xml.size(), 1u);
  EXPECT_EQ(t.index, 0);
  // hwloc reads it back: the same machine, 6 cores.
  hwloc_topology_t back;
  hwloc_topology_init(&back);
  ASSERT_EQ(hwloc_topology_set_xmlbuffer(back, t.xml[0].c_str(), static_cast<int>(t.xml[0].size() + 1)), 0);
  ASSERT_EQ(hwloc_topology_load(back), 0);
  EXPECT_EQ(hwloc_get_nbobjs_by_type(back, HWLOC_OBJ_CORE), 6);
  EXPECT_EQ(hwloc_get_nbobjs_by_type(back, HWLOC_OBJ_PACKAGE), 2);
  hwloc_topology_destroy(back);
}

TEST(HwlocXml, DistinctNodesInTheOrderOfTheirLowestNode) {
  // Ranks 0, 2, 4, ... have 2 cores, ranks 1, 3, ... 4: two entries where there are 2 ranks or more.
  const bool odd = world_rank() % 2 == 1;
  Synthetic s(odd ? "core:4 pu:1" : "core:2 pu:1");
  const NodeTopologies t = gather_node_topologies(s.topo, MPI_COMM_WORLD, MPI_COMM_SELF);
  ASSERT_EQ(t.xml.size(), world_size() > 1 ? 2u : 1u);
  EXPECT_EQ(t.index, odd ? 1 : 0);
  for (std::size_t k = 0; k < t.xml.size(); ++k) {
    hwloc_topology_t back;
    hwloc_topology_init(&back);
    ASSERT_EQ(hwloc_topology_set_xmlbuffer(back, t.xml[k].c_str(), static_cast<int>(t.xml[k].size() + 1)), 0);
    ASSERT_EQ(hwloc_topology_load(back), 0);
    EXPECT_EQ(hwloc_get_nbobjs_by_type(back, HWLOC_OBJ_CORE), k == 0 ? 2 : 4);
    hwloc_topology_destroy(back);
  }
}

TEST(HwlocXml, OnlyTheHostNameIsIgnored) {
  const std::string a = R"(<info name="HostName" value="node0017"/><info name="OSRelease" value="6.1"/>)";
  const std::string b = R"(<info name="HostName" value="n3"/><info name="OSRelease" value="6.1"/>)";
  const std::string c = R"(<info name="HostName" value="n3"/><info name="OSRelease" value="6.2"/>)";
  EXPECT_EQ(topology_key(a), topology_key(b));
  EXPECT_NE(topology_key(b), topology_key(c));
  EXPECT_EQ(topology_key("<topology/>"), "<topology/>");
}

}  // namespace
}  // namespace desync
