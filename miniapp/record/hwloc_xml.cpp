#include "record/hwloc_xml.hpp"

#include <cstdint>
#include <cstring>

#include "core/mpi_util.hpp"
#include "record/hwloc_handle.hpp"

namespace desync {
namespace {

std::string export_xml(hwloc_topology_t topo) {
  char* buf = nullptr;
  int len = 0;
  if (hwloc_topology_export_xmlbuffer(topo, &buf, &len, 0) != 0 || !buf) return {};
  // len counts the terminating NUL.
  std::string out(buf, len > 0 ? static_cast<std::size_t>(len - 1) : 0);
  hwloc_free_xmlbuffer(topo, buf);
  return out;
}

// FNV-1a: the same on every node (std::hash need not be).
std::uint64_t fnv1a(const std::string& s) {
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
  return h;
}

}  // namespace

std::string topology_key(const std::string& xml) {
  static const char tag[] = "name=\"HostName\" value=\"";
  std::string key = xml;
  const std::size_t at = key.find(tag);
  if (at == std::string::npos) return key;
  const std::size_t from = at + sizeof tag - 1;
  const std::size_t to = key.find('"', from);
  if (to != std::string::npos) key.erase(from, to - from);
  return key;
}

NodeTopologies gather_node_topologies(hwloc_topology_t topo, MPI_Comm comm, MPI_Comm node_comm) {
  int rank = 0, node_rank = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_rank(node_comm, &node_rank);
  MPI_Comm leaders;
  MPI_Comm_split(comm, node_rank == 0 ? 0 : MPI_UNDEFINED, rank, &leaders);

  NodeTopologies out;
  int count = 0;
  if (leaders != MPI_COMM_NULL) {
    const std::string mine = export_xml(topo);
    const std::uint64_t my_hash = fnv1a(topology_key(mine));
    int nodes = 0, leader = 0;
    MPI_Comm_size(leaders, &nodes);
    MPI_Comm_rank(leaders, &leader);
    std::vector<std::uint64_t> hashes(static_cast<std::size_t>(nodes));
    MPI_Allgather(&my_hash, 1, MPI_UINT64_T, hashes.data(), 1, MPI_UINT64_T, leaders);
    // The lowest node of each distinct hash sends its XML to the other leaders.
    for (int n = 0; n < nodes; ++n) {
      bool first = true;
      for (int m = 0; m < n && first; ++m) first = hashes[static_cast<std::size_t>(m)] != hashes[static_cast<std::size_t>(n)];
      if (!first) continue;
      std::string xml = n == leader ? mine : std::string{};
      bcast_string(xml, n, leaders);
      if (hashes[static_cast<std::size_t>(n)] == my_hash && out.index < 0) out.index = static_cast<int>(out.xml.size());
      out.xml.push_back(std::move(xml));
    }
    MPI_Comm_free(&leaders);
    count = static_cast<int>(out.xml.size());
  }
  MPI_Bcast(&count, 1, MPI_INT, 0, node_comm);
  MPI_Bcast(&out.index, 1, MPI_INT, 0, node_comm);
  out.xml.resize(static_cast<std::size_t>(count));
  for (std::string& xml : out.xml) bcast_string(xml, 0, node_comm);
  return out;
}

std::size_t this_node_xml_bytes() {
  hwloc::Topology hw;
  return export_xml(hw.topo).size();
}

}  // namespace desync
