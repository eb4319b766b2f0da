#pragma once
// Which ranks share a node (papers.md E.3: "natural" placement puts consecutive ranks on a node),
// and the kernel's ranks when only some per node take part (E.2, "inactive processes sleep").
//   node_layout(comm, ranks_per_node)  nodes from MPI_COMM_TYPE_SHARED, or, with
//       [placement] ranks_per_node > 0, consecutive blocks of that many ranks (to study a
//       multi-node layout on one machine, and for `desync plan`);
//   ActiveRanks  the first active_ppn ranks of every node (by their index on the node) form
//       the kernel's communicator; the others park() on an MPI_Ibarrier over the whole
//       communicator, polled with MPI_Test and a 10 ms sleep, until the active ranks release()
//       them with the matching MPI_Ibarrier after the kernel.
#include <mpi.h>

#include <cstdint>
#include <vector>

namespace desync {

struct NodeLayout {
  int nodes = 1;
  int node = 0;         // this rank's node, numbered in order of the nodes' lowest ranks
  int local = 0;        // this rank's index among its node's ranks, in rank order
  int ppn_max = 1;      // the most ranks on one node
  int ppn_min = 1;      // the fewest
  bool natural = true;  // every node's ranks are consecutive in rank order
  bool emulated = false;  // nodes from [placement] ranks_per_node, not from the hardware
  std::vector<int> node_of;   // per rank of the communicator
  std::vector<int> local_of;  // per rank
};

// Collective over comm. ranks_per_node > 0: rank r is on node r / ranks_per_node.
NodeLayout node_layout(MPI_Comm comm, int ranks_per_node);

// How long a parked rank slept and how much CPU it used meanwhile (getrusage of the process).
struct ParkRecord {
  double wall = 0.0;
  double cpu = 0.0;
  std::int64_t polls = 0;
};

class ActiveRanks {
 public:
  // Collective over comm. active_ppn <= 0: every rank is active. The kernel's communicator
  // orders its ranks by (node, local index): the world order under natural placement.
  ActiveRanks(MPI_Comm comm, const NodeLayout& layout, int active_ppn);
  ~ActiveRanks();
  ActiveRanks(const ActiveRanks&) = delete;
  ActiveRanks& operator=(const ActiveRanks&) = delete;

  bool active() const { return active_; }
  // The kernel's communicator; MPI_COMM_NULL on an inactive rank.
  MPI_Comm comm() const { return kernel_; }
  int active_count() const { return count_; }
  bool all_active() const { return all_; }

  // Inactive ranks: sleep until the active ranks have released them. Returns at once if every
  // rank is active.
  ParkRecord park();
  // Active ranks, after the kernel: the matching MPI_Ibarrier, completed.
  void release();

 private:
  MPI_Comm world_, kernel_ = MPI_COMM_NULL;
  bool active_ = true, all_ = true;
  int count_ = 0;
};

}  // namespace desync
