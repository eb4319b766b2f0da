// The SymmSquareCube communication plan (ssc_plan.hpp). Every operation of the chosen algorithm
// is enumerated on the virtual mesh, rank = (k*p + i)*p + j ("natural" placement), node =
// rank / ranks_per_node; bytes are counted per transfer, volumes and times per the study's model.
#include "workloads/symmsquarecube/ssc_plan.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "core/errors.hpp"

namespace desync {

const char* ssc_op_kind_name(SscOpKind k) {
  switch (k) {
    case SscOpKind::bcast: return "bcast";
    case SscOpKind::reduce: return "reduce";
    case SscOpKind::allreduce: return "allreduce";
    case SscOpKind::p2p: return "p2p";
  }
  return "?";
}

double ssc_model_time(SscOpKind kind, int g, double n, double bandwidth_Bps, double latency_s) {
  if (bandwidth_Bps <= 0) return 0.0;
  const double beta = 1.0 / bandwidth_Bps, a = latency_s;
  if (kind == SscOpKind::p2p) return a + n * beta;
  if (g <= 1) return 0.0;
  const double lg = std::log2(static_cast<double>(g)), spread = 2.0 * beta * (g - 1) * n / g;
  if (kind == SscOpKind::bcast) return a * (lg + g - 1) + spread;
  return 2.0 * a * lg + spread;  // reduce; allreduce (Rabenseifner: reduce-scatter + allgather) alike
}

namespace {

std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

std::string cube_neighbours(int ranks) {
  int p = 1;
  while (static_cast<std::int64_t>(p + 1) * (p + 1) * (p + 1) <= ranks) ++p;
  std::string s;
  for (int x = std::max(1, p - 1); x <= p + 2; ++x) s += fmt::format("{}{}", s.empty() ? "" : ", ", x * x * x);
  return s;
}

// Integer root: the x with x^e == v, or -1.
int exact_root(std::int64_t v, int e) {
  const auto x0 = static_cast<std::int64_t>(std::llround(std::pow(static_cast<double>(v), 1.0 / e)));
  for (std::int64_t x = std::max<std::int64_t>(1, x0 - 1); x <= x0 + 1; ++x) {
    std::int64_t r = 1;
    for (int k = 0; k < e; ++k) r *= x;
    if (r == v) return static_cast<int>(x);
  }
  return -1;
}

class Builder {
 public:
  Builder(SscPlan& plan, int focus_node) : p_(plan), focus_(focus_node) {
    b_ = plan.block_rows;
    p_.node_info.assign(static_cast<std::size_t>(plan.nodes), SscNode{});
    for (int r = 0; r < plan.ranks; ++r) {
      auto& nd = p_.node_info[static_cast<std::size_t>(node(r))];
      nd.node = node(r);
      ++nd.ranks;
    }
  }

  int rank(int i, int j, int k) const { return (k * p_.p + i) * p_.p + j; }
  int node(int r) const { return r / p_.ranks_per_node; }
  std::int64_t rows(int a) const { return std::min<std::int64_t>(p_.n, (a + 1) * b_) - a * b_; }
  std::int64_t bytes(int a, int c) const { return rows(a) * rows(c) * 8; }

  // Starts a step; the operations added until the next begin() belong to it.
  void begin(int step, std::string name, SscOpKind kind, std::string comm, int group, int parts, int repeat = 1) {
    SscOp op;
    op.step = step;
    op.name = std::move(name);
    op.kind = kind;
    op.comm = std::move(comm);
    op.group = group;
    op.parts = parts;
    op.repeat = repeat;
    p_.ops.push_back(std::move(op));
  }

  // One collective over `members` (root: the bcast source, the reduce target, for an allreduce
  // the member its direct convention reduces to and broadcasts from) moving `block` bytes.
  void collective(const std::vector<int>& members, int root, std::int64_t block) {
    SscOp& op = p_.ops.back();
    ++op.count;
    op.block_bytes = std::max(op.block_bytes, block);
    for (int m : members) {
      if (m == root) continue;
      if (op.kind == SscOpKind::bcast || op.kind == SscOpKind::allreduce) move(root, m, block);
      if (op.kind == SscOpKind::reduce || op.kind == SscOpKind::allreduce) move(m, root, block);
    }
    // Model volume: 2(g-1)n/g per member, 2n/g per partner, partners on other nodes only.
    const int g = static_cast<int>(members.size());
    if (g <= 1) return;
    nodes_.clear();
    for (int m : members) nodes_.push_back(node(m));
    std::sort(nodes_.begin(), nodes_.end());
    const double share = 2.0 * static_cast<double>(p_.block_bytes) / g;
    for (std::size_t a = 0; a < nodes_.size();) {
      std::size_t e = a;
      while (e < nodes_.size() && nodes_[e] == nodes_[a]) ++e;
      const double m = static_cast<double>(e - a);
      model(nodes_[a], m * (g - m) * share);
      a = e;
    }
  }

  void p2p(int src, int dst, std::int64_t block) {
    if (src == dst) return;  // moves nothing
    SscOp& op = p_.ops.back();
    ++op.count;
    op.block_bytes = std::max(op.block_bytes, block);
    move(src, dst, block);
    if (node(src) != node(dst)) model(node(dst), static_cast<double>(p_.block_bytes));
  }

  // Ends a step. Its transfers were all added, every repetition; the model time is repeat x
  // parts x the time of one part.
  void end() {
    SscOp& op = p_.ops.back();
    op.max_message_bytes = ceil_div(op.block_bytes / 8, op.parts) * 8;
    const bool moves = op.count > 0 && (op.kind == SscOpKind::p2p || op.group > 1);
    if (moves)
      op.model_time_s = op.repeat * op.parts *
                        ssc_model_time(op.kind, op.group, static_cast<double>(op.block_bytes) / op.parts,
                                       p_.bandwidth_Bps, p_.latency_s);
  }

  // Ends a step of `repeat` repetitions that were all added: count becomes per repetition.
  void end_repeated() {
    SscOp& op = p_.ops.back();
    op.count /= op.repeat;
    end();
  }

 private:
  void move(int src, int dst, std::int64_t block) {
    SscOp& op = p_.ops.back();
    op.total_bytes += block;
    const int a = node(src), b = node(dst);
    if (a == b) return;
    op.inter_node_bytes += block;
    p_.node_info[static_cast<std::size_t>(a)].direct_sent += block;
    p_.node_info[static_cast<std::size_t>(b)].direct_received += block;
  }
  void model(int nd, double v) {
    p_.node_info[static_cast<std::size_t>(nd)].model_bytes += v;
    if (nd == focus_) p_.ops.back().model_volume_max_node += v;
  }

  SscPlan& p_;
  int focus_;
  std::int64_t b_ = 1;
  std::vector<int> nodes_;
};

// Algorithms 3, 4 and 5 on the p x p x p mesh (papers.md E.2; steps numbered as listed there).
void build_3d(Builder& B, const SscPlan& plan) {
  const int p = plan.p, d = plan.n_dup;
  const bool original = plan.algorithm == SscAlgorithm::original, optimized = plan.algorithm == SscAlgorithm::optimized;
  std::vector<int> m(static_cast<std::size_t>(p));
  const auto grd = [&](int i, int j) { for (int k = 0; k < p; ++k) m[k] = B.rank(i, j, k); };
  const auto row = [&](int j, int k) { for (int i = 0; i < p; ++i) m[i] = B.rank(i, j, k); };
  const auto col = [&](int i, int k) { for (int j = 0; j < p; ++j) m[j] = B.rank(i, j, k); };

  B.begin(1, "bcast D_ij as A_ij from layer 0", SscOpKind::bcast, "grd", p, d);
  for (int i = 0; i < p; ++i)
    for (int j = 0; j < p; ++j) grd(i, j), B.collective(m, B.rank(i, j, 0), B.bytes(i, j));
  B.end();
  B.begin(2, "bcast D_ij as B^T_ji from P_i,j,i", SscOpKind::bcast, "row", p, d);
  for (int i = 0; i < p; ++i)
    for (int j = 0; j < p; ++j) row(j, i), B.collective(m, B.rank(i, j, i), B.bytes(i, j));
  B.end();
  // First reduction: D^2_ik onto P_i,k,k (original) or P_i,i,k (baseline, optimized).
  B.begin(optimized ? 5 : 4, original ? "reduce C_i:k to D2_ik on P_i,k,k" : "reduce C_i:k to D2_ik on P_i,i,k",
          SscOpKind::reduce, "col", p, d);
  for (int i = 0; i < p; ++i)
    for (int k = 0; k < p; ++k) col(i, k), B.collective(m, B.rank(i, original ? k : i, k), B.bytes(i, k));
  B.end();
  if (original) {
    B.begin(5, "send D2_ik from P_i,k,k to layer 0", SscOpKind::p2p, "grd", 2, 1);
    for (int i = 0; i < p; ++i)
      for (int k = 0; k < p; ++k) B.p2p(B.rank(i, k, k), B.rank(i, k, 0), B.bytes(i, k));
    B.end();
    B.begin(6, "transpose D2_ab from P_a,b,b to P_b,a,b", SscOpKind::p2p, "global", 2, 1);
    for (int a = 0; a < p; ++a)
      for (int b = 0; b < p; ++b) B.p2p(B.rank(a, b, b), B.rank(b, a, b), B.bytes(a, b));
    B.end();
  }
  B.begin(original ? 7 : optimized ? 6 : 5, original ? "bcast D2_jk as B_jk from P_k,j,k" : "bcast D2_jk as B_jk from P_j,j,k",
          SscOpKind::bcast, "row", p, d);
  for (int j = 0; j < p; ++j)
    for (int k = 0; k < p; ++k) row(j, k), B.collective(m, original ? B.rank(k, j, k) : B.rank(j, j, k), B.bytes(j, k));
  B.end();
  B.begin(original ? 9 : optimized ? 9 : 7, "reduce C_i:k to D3_ik on P_i,k,k", SscOpKind::reduce, "col", p, d);
  for (int i = 0; i < p; ++i)
    for (int k = 0; k < p; ++k) col(i, k), B.collective(m, B.rank(i, k, k), B.bytes(i, k));
  B.end();
  if (!original) {
    B.begin(optimized ? 10 : 8, "send D2_ik from P_i,i,k to layer 0", SscOpKind::p2p, "global", 2, d);
    for (int i = 0; i < p; ++i)
      for (int k = 0; k < p; ++k) B.p2p(B.rank(i, i, k), B.rank(i, k, 0), B.bytes(i, k));
    B.end();
  }
  B.begin(original ? 10 : optimized ? 10 : 9, "send D3_ik from P_i,k,k to layer 0", SscOpKind::p2p, "grd", 2,
          original ? 1 : d);
  for (int i = 0; i < p; ++i)
    for (int k = 0; k < p; ++k) B.p2p(B.rank(i, k, k), B.rank(i, k, 0), B.bytes(i, k));
  B.end();
}

// Algorithm 6 on the q x q x c mesh. Layer k does Cannon steps t = 0..s-1 (s = q/c) of the sum
// over l: P_i,j,k starts with A_i,l and B_l,j for l = (i + j + k s) mod q (the skew), and after
// each local product but the last passes A to P_i,j-1,k (row family P_i,:,k) and B to P_i-1,j,k
// (column family P_:,j,k), as workloads/symmsquarecube/ssc_twofive.cpp does.
void build_25d(Builder& B, const SscPlan& plan) {
  const int q = plan.p, c = plan.layers, s = plan.cannon_steps, d = plan.n_dup;
  const auto mod = [q](int x) { return ((x % q) + q) % q; };
  std::vector<int> m(static_cast<std::size_t>(c));
  const auto grd = [&](int i, int j) { for (int k = 0; k < c; ++k) m[k] = B.rank(i, j, k); };

  B.begin(1, "bcast D_ij as A_ij and B_ij from layer 0", SscOpKind::bcast, "grd", c, d);
  for (int i = 0; i < q; ++i)
    for (int j = 0; j < q; ++j) grd(i, j), B.collective(m, B.rank(i, j, 0), B.bytes(i, j));
  B.end();
  for (int product = 0; product < 2; ++product) {
    const int step = product == 0 ? 2 : 4;
    const char* bname = product == 0 ? "D" : "D2";
    B.begin(step, "Cannon skew of A (D) within the layer", SscOpKind::p2p, "row", 2, 1);
    for (int k = 0; k < c; ++k)
      for (int i = 0; i < q; ++i)
        for (int l = 0; l < q; ++l) B.p2p(B.rank(i, l, k), B.rank(i, mod(l - i - k * s), k), B.bytes(i, l));
    B.end();
    B.begin(step, fmt::format("Cannon skew of B ({}) within the layer", bname), SscOpKind::p2p, "col", 2, 1);
    for (int k = 0; k < c; ++k)
      for (int l = 0; l < q; ++l)
        for (int j = 0; j < q; ++j) B.p2p(B.rank(l, j, k), B.rank(mod(l - j - k * s), j, k), B.bytes(l, j));
    B.end();
    // The shifts: s - 1 repetitions (after every local product but the last, as the workload
    // does), each block moves one step; sizes differ per repetition, so every repetition is
    // added and count is per repetition.
    if (s > 1) {
      B.begin(step, "Cannon shift of A after each local product but the last", SscOpKind::p2p, "row", 2, 1, s - 1);
      for (int t = 0; t + 1 < s; ++t)
        for (int k = 0; k < c; ++k)
          for (int i = 0; i < q; ++i)
            for (int j = 0; j < q; ++j) B.p2p(B.rank(i, j, k), B.rank(i, mod(j - 1), k), B.bytes(i, mod(i + j + k * s + t)));
      B.end_repeated();
      B.begin(step, fmt::format("Cannon shift of B ({}) after each local product but the last", bname), SscOpKind::p2p, "col", 2, 1,
              s - 1);
      for (int t = 0; t + 1 < s; ++t)
        for (int k = 0; k < c; ++k)
          for (int i = 0; i < q; ++i)
            for (int j = 0; j < q; ++j) B.p2p(B.rank(i, j, k), B.rank(mod(i - 1), j, k), B.bytes(mod(i + j + k * s + t), j));
      B.end_repeated();
    }
    if (product == 0) {
      B.begin(3, "allreduce C_ij to D2_ij over the layers", SscOpKind::allreduce, "grd", c, d);
      for (int i = 0; i < q; ++i)
        for (int j = 0; j < q; ++j) grd(i, j), B.collective(m, B.rank(i, j, 0), B.bytes(i, j));
      B.end();
    }
  }
  B.begin(5, "reduce C_ij to D3_ij on layer 0", SscOpKind::reduce, "grd", c, d);
  for (int i = 0; i < q; ++i)
    for (int j = 0; j < q; ++j) grd(i, j), B.collective(m, B.rank(i, j, 0), B.bytes(i, j));
  B.end();
}

void build(SscPlan& plan, int focus_node) {
  plan.ops.clear();
  Builder B(plan, focus_node);
  if (plan.algorithm == SscAlgorithm::twofive)
    build_25d(B, plan);
  else
    build_3d(B, plan);
}

}  // namespace

SscPlan ssc_plan(const SymmSquareCubeConfig& cfg, int ranks, int ranks_per_node, int n_dup, double bandwidth_Bps,
                 double latency_s) {
  const std::string alg = std::string(enum_name(ssc_algorithm_names, cfg.algorithm));
  if (cfg.n < 1) throw DeckError(fmt::format("error: [symmsquarecube] n = {}; allowed: >= 1", cfg.n));
  if (ranks < 1) throw DeckError(fmt::format("error: --ranks {}; allowed: >= 1", ranks));
  if (ranks_per_node < 1) throw DeckError(fmt::format("error: --ranks-per-node {}; allowed: >= 1", ranks_per_node));
  if (n_dup < 1) throw DeckError(fmt::format("error: [comm] communicators = {} (N_DUP); allowed: >= 1", n_dup));
  if (!(bandwidth_Bps >= 0) || !std::isfinite(bandwidth_Bps))
    throw DeckError(fmt::format("error: --bandwidth {}; allowed: a finite number > 0", bandwidth_Bps));
  if (!(latency_s >= 0) || !std::isfinite(latency_s))
    throw DeckError(fmt::format("error: --latency {}; allowed: a finite number >= 0", latency_s));

  SscPlan plan;
  plan.algorithm = cfg.algorithm;
  plan.n = cfg.n;
  plan.ranks = ranks;
  plan.ranks_per_node = ranks_per_node;
  plan.nodes = static_cast<int>(ceil_div(ranks, ranks_per_node));
  plan.bandwidth_Bps = bandwidth_Bps;
  plan.latency_s = latency_s;
  if (cfg.algorithm == SscAlgorithm::twofive) {
    const std::int64_t c = cfg.replication;
    std::string allowed;
    for (std::int64_t q = c; q <= 4 * c && allowed.size() < 40; q += c) allowed += fmt::format("{}, ", q * q * c);
    const std::string why = fmt::format(
        "[symmsquarecube] algorithm = \"2.5d\" with replication = {} runs on a q x q x {} mesh with q a multiple of {}; "
        "allowed: --ranks q*q*{} ({}...)", c, c, c, c, allowed);
    if (c < 1 || ranks % c != 0) throw DeckError(fmt::format("error: --ranks {}: {}", ranks, why));
    const int q = exact_root(ranks / c, 2);
    if (q < 1 || q % c != 0) throw DeckError(fmt::format("error: --ranks {}: {}", ranks, why));
    plan.p = q;
    plan.layers = static_cast<int>(c);
    plan.cannon_steps = static_cast<int>(q / c);
    plan.n_dup = n_dup;
  } else {
    const int p = exact_root(ranks, 3);
    if (p < 1)
      throw DeckError(fmt::format("error: --ranks {} is not a cube; [symmsquarecube] algorithm = \"{}\" runs on a p x p x p "
                                  "mesh; allowed: p^3 ({}, ...)", ranks, alg, cube_neighbours(ranks)));
    plan.p = p;
    plan.layers = p;
    plan.n_dup = cfg.algorithm == SscAlgorithm::optimized ? n_dup : 1;
  }
  const int p = plan.p;
  plan.block_rows = ceil_div(cfg.n, p);
  if (plan.block_rows * (p - 1) >= cfg.n)
    throw DeckError(fmt::format("error: [symmsquarecube] n = {} leaves the last of {} blocks of {} rows empty ({} x {} mesh "
                                "of blocks); allowed: n with ceil(n/{}) * {} < n, e.g. any n >= {}",
                                cfg.n, p, plan.block_rows, p, p, p, p - 1, static_cast<std::int64_t>(p) * (p - 1) + 1));
  plan.last_block_rows = cfg.n - plan.block_rows * (p - 1);
  plan.block_bytes = plan.block_rows * plan.block_rows * 8;
  plan.flops = 4.0 * static_cast<double>(cfg.n) * static_cast<double>(cfg.n) * static_cast<double>(cfg.n);

  build(plan, -1);
  int busiest = 0;
  for (const auto& nd : plan.node_info)
    if (nd.model_bytes > plan.node_info[static_cast<std::size_t>(busiest)].model_bytes) busiest = nd.node;
  build(plan, busiest);  // again, attributing the busiest node's volume to the steps
  plan.model_volume_node = busiest;
  plan.model_volume_max_node = plan.node_info[static_cast<std::size_t>(busiest)].model_bytes;
  for (const auto& op : plan.ops) {
    plan.total_bytes += op.total_bytes;
    plan.inter_node_bytes += op.inter_node_bytes;
    plan.model_time_s += op.model_time_s;
  }
  return plan;
}

// SymmSquareCube decks: the communication plan of the chosen algorithm (workloads/symmsquarecube/ssc_plan.hpp).
// Ranks per node: --ranks-per-node, else [placement] active_ppn / ranks_per_node (the kernel's
// ranks per node), else all ranks on one node.
std::string ssc_plan_command(const Config& cfg, const PlanOptions& opt, const std::string& format,
                             const PlanModelOptions& model) {
  if (opt.only_rank >= 0)
    throw DeckError(fmt::format("desync: error: --rank {}: desync plan of a symmsquarecube deck prints every rank's share; "
                                "allowed: --rank only with a [matrix] deck", opt.only_rank));
  if (opt.nb > 1)
    throw DeckError(fmt::format("desync: error: --nb {}: symmsquarecube blocks have one width; allowed: --nb only with a [matrix] deck",
                                opt.nb));
  if (opt.spy_grid >= 0)
    throw DeckError(fmt::format("desync: error: --spy-grid {}: a symmsquarecube plan has no sparse matrix; allowed: --spy-grid only "
                                "with a [matrix] deck",
                                opt.spy_grid));
  if (model.latency_us > 0 && model.bandwidth_MiBps <= 0)
    throw DeckError(fmt::format("desync: error: --latency {} without --bandwidth; allowed: --latency together with --bandwidth",
                                model.latency_us));
  int ppn = opt.ranks_per_node;
  if (ppn <= 0) {
    const std::int64_t rpn = cfg.placement.ranks_per_node, active = cfg.placement.active_ppn;
    const std::int64_t k = active > 0 && rpn > 0 ? std::min(active, rpn) : active > 0 ? active : rpn;
    ppn = k > 0 ? static_cast<int>(std::min<std::int64_t>(k, opt.ranks)) : opt.ranks;
  }
  try {
    const SscPlan p = ssc_plan(cfg.params.get<SymmSquareCubeConfig>(), opt.ranks, ppn, static_cast<int>(cfg.comm.communicators),
                               model.bandwidth_MiBps * 1048576.0, model.latency_us * 1e-6);
    return format == "json" ? ssc_plan_json(p) : ssc_plan_text(p);
  } catch (const DeckError& e) {
    throw DeckError(cfg.deck_path + ": " + e.what());
  }
}

}  // namespace desync
