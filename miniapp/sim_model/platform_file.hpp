#pragma once
// The modelled cluster of `desync simulate` (docs/simulate.md, "Platform files"): nodes of memory
// contention domains with a saturating bandwidth, cores, a two-level network with eager limits,
// and how ranks are placed. Read from TOML and validated once, with the same error format as
// decks (file:line:column, table, key, value, what is allowed). Needs no SimGrid.
#include <cstdint>
#include <string>
#include <vector>

namespace desync::sim {

struct Platform {
  std::string path, text, resolved;  // the file, its text, and the TOML after defaults and overrides
  std::string name, description;

  int nodes = 1, sockets = 1, domains = 1, cores_per_domain = 1;  // domains and sockets per node
  // Memory of one contention domain: b(n) = min(n b1, b_saturated), or the measured table
  // b(1..k) (n > k: b(k)), in desync's byte counting.
  double b1 = 0.0, b_saturated = 0.0;
  std::vector<double> memory_table;
  double divide_time = 0.0;  // s per dependent double divide on one core
  double gemm_flops = 0.0;   // flop/s of one core in DGEMM (SymmSquareCube's local products); 0: not given

  double intra_latency = 0.0, intra_bandwidth = 0.0;  // s, B/s
  double inter_latency = 0.0, inter_bandwidth = 0.0;
  std::int64_t eager_limit_intra = 0, eager_limit_inter = 0;  // bytes: up to this, eager
  bool receiver_links = false;  // also the receiving core's and node's links (incast; slower)
  double sync_latency = 0.0;    // s per stage of a barrier / allreduce (log2 P stages)

  int ranks_per_node = 0;     // resolved: every node but the last holds this many
  int threads_per_rank = 1;
  // More ranks x threads than cores in a domain: allowed only when true, and then every rank
  // keeps cores / (ranks x threads) of a core all the time (MPI ranks busy-poll while waiting,
  // so a waiting rank does not give its core to a computing one).
  bool oversubscribe = false;

  int cores_per_node() const { return domains * cores_per_domain; }
  // Total bandwidth of a domain while n cores stream (n >= 1).
  double domain_bandwidth(int n) const;
  // The smallest n with b(n) >= (1 - 1e-9) of the domain's most (N_s of papers.md B.5).
  int saturation_point() const;
};

// Reads and validates; overrides are "table.key=value" (--pset). Throws DeckError.
Platform load_platform(const std::string& path, const std::vector<std::string>& overrides);
Platform parse_platform(const std::string& text, const std::string& path, const std::vector<std::string>& overrides);

// Where a rank runs. Ranks fill nodes in blocks of ranks_per_node; inside a node they are spread
// evenly over the domains in blocks (Open MPI --map-by ppr:k:numa), each rank on threads_per_rank
// consecutive cores of its domain.
struct RankPlace {
  int node = 0;
  int domain = 0;         // global: node * domains + domain in node
  int domain_in_node = 0;
  int socket = 0;
  int first_core = 0;     // in the node
  int ranks_on_node = 0;
  int ranks_in_domain = 0;
  double core_share = 1.0;  // of each of its threads' cores: 1, or cores / (ranks x threads) when oversubscribed
};
RankPlace place_rank(const Platform& p, int rank, int ranks);
// Nodes a run of `ranks` needs; DeckError when the platform has fewer, or a domain has more ranks
// x threads than cores without [placement] oversubscribe.
int nodes_needed(const Platform& p, int ranks);

}  // namespace desync::sim
