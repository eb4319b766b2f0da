// Text and JSON forms of the SymmSquareCube communication plan (ssc_plan.hpp): what
// `desync plan` prints for a symmsquarecube deck.
#include <fmt/format.h>

#include <cmath>
#include <string>

#include "workloads/symmsquarecube/ssc_plan.hpp"

namespace desync {

namespace {

constexpr double mib = 1048576.0;

std::string mib_text(double b) { return fmt::format("{:.2f}", b / mib); }

const char* algorithm_label(SscAlgorithm a) {
  switch (a) {
    case SscAlgorithm::original: return "Alg. 3, original";
    case SscAlgorithm::baseline: return "Alg. 4, baseline";
    case SscAlgorithm::optimized: return "Alg. 5, optimized";
    case SscAlgorithm::twofive: return "Alg. 6, 2.5D";
  }
  return "?";
}

std::string json_number(double v) { return std::isfinite(v) ? fmt::format("{}", v) : std::string("null"); }

}  // namespace

std::string ssc_plan_text(const SscPlan& p) {
  const bool model = p.bandwidth_Bps > 0;
  std::string s = fmt::format("symmsquarecube: algorithm {} ({}), N {}, {} ranks as a {} x {} x {} mesh", 
                              std::string(enum_name(ssc_algorithm_names, p.algorithm)), algorithm_label(p.algorithm), p.n, p.ranks, p.p, p.p,
                              p.layers);
  if (p.algorithm == SscAlgorithm::twofive) s += fmt::format(" (c = {}, {} Cannon steps per product)", p.layers, p.cannon_steps);
  s += fmt::format(", N_DUP {}\n", p.n_dup);
  const int last_node = p.ranks - (p.nodes - 1) * p.ranks_per_node;  // a last node may hold fewer
  s += fmt::format("nodes: {} of {} consecutive ranks{} (natural placement, rank = (k*p + i)*p + j)\n", p.nodes,
                   p.ranks_per_node, last_node < p.ranks_per_node ? fmt::format(", the last of {}", last_node) : "");
  s += fmt::format("blocks: {} x {} of {} rows (last {}); largest block {} B = {} MiB (the model's n)\n", p.p, p.p,
                   p.block_rows, p.last_block_rows, p.block_bytes, mib_text(static_cast<double>(p.block_bytes)));
  if (model)
    s += fmt::format("model: bandwidth {:.6g} MiB/s ({:.6g} B/s), latency {:.6g} us; steps in sequence, no overlap\n",
                     p.bandwidth_Bps / mib, p.bandwidth_Bps, p.latency_s * 1e6);
  else
    s += "model: no --bandwidth given: volumes only, no times\n";
  s += "step kind       comm    group    ops x rep  parts  message MiB   total MiB  inter-node MiB  node vol MiB";
  s += model ? "  model ms\n" : "\n";
  for (const auto& op : p.ops) {
    s += fmt::format("{:>4} {:<10} {:<7} {:>5} {:>6} x {:<3} {:>5} {:>12} {:>11} {:>15} {:>13}", op.step, ssc_op_kind_name(op.kind),
                     op.comm, op.group, op.count, op.repeat, op.parts, mib_text(static_cast<double>(op.max_message_bytes)),
                     mib_text(static_cast<double>(op.total_bytes)), mib_text(static_cast<double>(op.inter_node_bytes)),
                     mib_text(op.model_volume_max_node));
    if (model) s += fmt::format(" {:>9.3f}", op.model_time_s * 1e3);
    s += fmt::format("  {}\n", op.name);
  }
  const double share = p.total_bytes > 0 ? 100.0 * static_cast<double>(p.inter_node_bytes) / static_cast<double>(p.total_bytes) : 0.0;
  s += fmt::format("total: {} MiB moved, {} MiB between nodes ({:.1f}%)\n", mib_text(static_cast<double>(p.total_bytes)),
                   mib_text(static_cast<double>(p.inter_node_bytes)), share);
  double vmin = 0, vsum = 0;
  std::int64_t dmax = 0;
  for (std::size_t i = 0; i < p.node_info.size(); ++i) {
    const auto& nd = p.node_info[i];
    vmin = i == 0 ? nd.model_bytes : std::min(vmin, nd.model_bytes);
    vsum += nd.model_bytes;
    dmax = std::max(dmax, nd.direct_sent + nd.direct_received);
  }
  s += fmt::format("inter-node volume per node (Table IV convention): max {} MiB (node {}), mean {} MiB, min {} MiB; "
                   "direct bytes sent + received per node: max {} MiB\n",
                   mib_text(p.model_volume_max_node), p.model_volume_node,
                   mib_text(p.node_info.empty() ? 0.0 : vsum / static_cast<double>(p.node_info.size())), mib_text(vmin),
                   mib_text(static_cast<double>(dmax)));
  if (model) {
    s += fmt::format("model communication time: {:.3f} ms", p.model_time_s * 1e3);
    if (p.algorithm == SscAlgorithm::optimized || (p.algorithm == SscAlgorithm::twofive && p.n_dup > 1))
      s += " (no overlap: an upper bound for the overlapped N_DUP parts)";
    s += fmt::format("; 4N^3 = {:.4g} flop\n", p.flops);
  }
  return s;
}

std::string ssc_plan_json(const SscPlan& p) {
  const bool model = p.bandwidth_Bps > 0;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  std::string s = "{\n  \"workload\": \"symmsquarecube\",\n";
  s += fmt::format("  \"algorithm\": \"{}\",\n  \"n\": {},\n  \"ranks_total\": {},\n  \"ranks_per_node\": {},\n  \"nodes\": {},\n",
                   std::string(enum_name(ssc_algorithm_names, p.algorithm)), p.n, p.ranks, p.ranks_per_node, p.nodes);
  s += fmt::format("  \"mesh\": [{}, {}, {}],\n  \"cannon_steps\": {},\n  \"n_dup\": {},\n", p.p, p.p, p.layers, p.cannon_steps,
                   p.n_dup);
  s += fmt::format("  \"block_rows\": {},\n  \"last_block_rows\": {},\n  \"block_bytes\": {},\n", p.block_rows, p.last_block_rows,
                   p.block_bytes);
  s += fmt::format("  \"bandwidth_Bps\": {},\n  \"latency_s\": {},\n", json_number(model ? p.bandwidth_Bps : nan),
                   json_number(model ? p.latency_s : nan));
  s += "  \"ops\": [";
  for (std::size_t i = 0; i < p.ops.size(); ++i) {
    const SscOp& op = p.ops[i];
    s += fmt::format("{}\n    {{\"step\": {}, \"name\": \"{}\", \"kind\": \"{}\", \"comm\": \"{}\", \"group\": {}, \"count\": {}, "
                     "\"repeat\": {}, \"parts\": {}, \"block_bytes\": {}, \"max_message_bytes\": {}, \"total_bytes\": {}, "
                     "\"inter_node_bytes\": {}, \"model_volume_max_node\": {}, \"model_time_s\": {}}}",
                     i ? "," : "", op.step, op.name, ssc_op_kind_name(op.kind), op.comm, op.group, op.count, op.repeat, op.parts,
                     op.block_bytes, op.max_message_bytes, op.total_bytes, op.inter_node_bytes, op.model_volume_max_node,
                     json_number(model ? op.model_time_s : nan));
  }
  s += "\n  ],\n";
  s += fmt::format("  \"totals\": {{\"total_bytes\": {}, \"inter_node_bytes\": {}, \"model_volume_max_node\": {}, "
                   "\"model_volume_node\": {}, \"model_time_s\": {}, \"flops\": {}}},\n",
                   p.total_bytes, p.inter_node_bytes, p.model_volume_max_node, p.model_volume_node,
                   json_number(model ? p.model_time_s : nan), p.flops);
  s += "  \"node_info\": [";
  for (std::size_t i = 0; i < p.node_info.size(); ++i) {
    const SscNode& nd = p.node_info[i];
    s += fmt::format("{}\n    {{\"node\": {}, \"ranks\": {}, \"direct_sent\": {}, \"direct_received\": {}, \"model_bytes\": {}}}",
                     i ? "," : "", nd.node, nd.ranks, nd.direct_sent, nd.direct_received, nd.model_bytes);
  }
  s += "\n  ]\n}\n";
  return s;
}

}  // namespace desync
