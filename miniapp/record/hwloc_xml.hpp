#pragma once
// The nodes' hardware topologies as hwloc XML, for /provenance: what `lstopo --input` redraws and
// hwloc-based tools reload, so a result file says what machine it ran on in hwloc's own words.
// A cluster's nodes are mostly alike, so only distinct topologies are kept (1000 nodes would
// otherwise store 1000 copies of ~10-500 kB).
#include <hwloc.h>
#include <mpi.h>

#include <string>
#include <vector>

namespace desync {

struct NodeTopologies {
  std::vector<std::string> xml;  // the distinct topologies, in the order of their lowest node
  int index = -1;                // which of them is this rank's node
};

// hwloc's XML of `topo` with the value of its HostName info blanked: the key that says whether
// two nodes have the same topology (everything else, OS release included, must match).
std::string topology_key(const std::string& xml);

// Collective over comm. node_comm: the ranks sharing this rank's node (MPI_COMM_TYPE_SHARED).
// Each node's lowest rank exports `topo`; nodes whose keys hash alike share one entry; every
// rank ends up with the same list. A failed export leaves that node's entry empty.
NodeTopologies gather_node_topologies(hwloc_topology_t topo, MPI_Comm comm, MPI_Comm node_comm);

// Bytes of this machine's hwloc XML: the output-size estimate's share for /provenance/hwloc_xml
// (one entry on a cluster of alike nodes).
std::size_t this_node_xml_bytes();

}  // namespace desync
