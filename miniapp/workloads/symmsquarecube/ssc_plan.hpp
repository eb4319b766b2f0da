#pragma once
// `desync plan` for SymmSquareCube decks: the communication plan of Algorithms 3-6 (papers.md
// E.2) for P virtual ranks on nodes of R consecutive ranks, with the study's alpha-beta model
// (E.4) and its inter-node volume per node (Table IV). Built in one process, no MPI; the
// conventions are in docs/method.md, "SymmSquareCube plan and communication model".
#include <cstdint>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "plan/plan.hpp"
#include "workloads/symmsquarecube/symmsquarecube_config.hpp"

namespace desync {

enum class SscOpKind { bcast, reduce, allreduce, p2p };
const char* ssc_op_kind_name(SscOpKind k);

// One step of the algorithm: `count` operations of the same kind that run at the same time
// (the p^2 broadcasts of step 1, ...), repeated `repeat` times one after the other (Cannon's
// shifts). Bytes follow the direct convention: a broadcast moves its block from the root to each
// other member, a reduction from each other member to the root, an allreduce both, a
// point-to-point transfer once; a rank's transfer to itself moves nothing and is not counted.
struct SscOp {
  int step = 0;              // step number in the algorithm's listing (papers.md E.2)
  std::string name;          // what moves, e.g. "bcast D_ij as A_ij"
  SscOpKind kind = SscOpKind::bcast;
  std::string comm;          // "grd", "row", "col" or "global" (papers.md E.2 naming)
  int group = 1;             // ranks in one operation's communicator (2 for p2p)
  std::int64_t count = 0;    // operations per repetition (p2p: transfers that move data)
  int repeat = 1;            // repetitions in sequence
  int parts = 1;             // MPI calls per operation (N_DUP for the optimized variants)
  std::int64_t block_bytes = 0;        // largest block one operation moves (n of the model)
  std::int64_t max_message_bytes = 0;  // largest message of one MPI call: block / parts, rounded up
  std::int64_t total_bytes = 0;        // all repetitions, direct convention
  std::int64_t inter_node_bytes = 0;   // the part of total_bytes between ranks on different nodes
  double model_volume_max_node = 0;    // this step's share of the busiest node's model volume (see SscNode)
  double model_time_s = 0;             // repeat x the step's model time; 0 without a bandwidth
};

// Per node (ranks r*R .. r*R+R-1). direct_*: bytes of the direct convention crossing the node
// boundary, sent and received. model_bytes: the study's Table IV estimate: every member of a
// collective over g ranks moves 2(g-1)n/g bytes (n the largest block), spread evenly over its
// g-1 partners, of which only the partners on other nodes count; a point-to-point transfer
// counts n at the receiving node.
struct SscNode {
  int node = 0;
  int ranks = 0;
  std::int64_t direct_sent = 0, direct_received = 0;
  double model_bytes = 0;
};

struct SscPlan {
  SscAlgorithm algorithm = SscAlgorithm::baseline;
  std::int64_t n = 0;          // matrix dimension N
  int ranks = 1, ranks_per_node = 1, nodes = 1;
  int p = 1;                   // mesh p x p x p; 2.5d: q x q x c with p = q
  int layers = 1;              // p, or c for 2.5d
  int cannon_steps = 0;        // 2.5d: q / c Cannon steps per product
  int n_dup = 1;               // parts per operation used by the plan (1 for original/baseline)
  std::int64_t block_rows = 0;     // b = ceil(N / p)
  std::int64_t last_block_rows = 0;
  std::int64_t block_bytes = 0;    // b^2 x 8: the model's n
  double bandwidth_Bps = 0, latency_s = 0;  // bandwidth 0: no model time
  std::vector<SscOp> ops;
  std::vector<SscNode> node_info;
  std::int64_t total_bytes = 0, inter_node_bytes = 0;
  double model_volume_max_node = 0;  // Table IV: the busiest node's model_bytes
  int model_volume_node = 0;         // which node that is (the lowest if several)
  double model_time_s = 0;           // sum over steps (no overlap: an upper bound for "optimized")
  double flops = 0;                  // 4 N^3 (two N x N x N products)
};

// Throws DeckError (one line: key, value, allowed) when ranks is not p^3 (q*q*c with q % c == 0
// for "2.5d"), a block would be empty, ranks_per_node < 1, n_dup < 1 or the bandwidth or latency
// is negative. bandwidth_Bps 0: volumes only.
SscPlan ssc_plan(const SymmSquareCubeConfig& cfg, int ranks, int ranks_per_node, int n_dup, double bandwidth_Bps,
                 double latency_s);

// The model's times for one operation over g ranks with an n-byte message (papers.md E.4):
// p2p alpha + n beta; bcast alpha(log2 g + g - 1) + 2 beta (g-1) n/g; reduce and allreduce
// 2 alpha log2 g + 2 beta (g-1) n/g. beta = 1 / bandwidth.
double ssc_model_time(SscOpKind kind, int g, double n_bytes, double bandwidth_Bps, double latency_s);

std::string ssc_plan_text(const SscPlan& p);
std::string ssc_plan_json(const SscPlan& p);

// `desync plan` of a symmsquarecube deck (its module's WorkloadModule::plan): the communication
// plan of the chosen algorithm. Ranks per node: --ranks-per-node, else [placement] active_ppn /
// ranks_per_node (the kernel's ranks per node), else all ranks on one node.
std::string ssc_plan_command(const Config& cfg, const PlanOptions& opt, const std::string& format,
                             const PlanModelOptions& model);

}  // namespace desync
