#include "app/workloads.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "chebfd/chebfd.hpp"
#include "pingpong/pingpong.hpp"
#include "cg/cg.hpp"
#include "collbench/collbench.hpp"
#include "comm/node_layout.hpp"
#include "matvec2d/matvec2d.hpp"
#include "symmsquarecube/symmsquarecube.hpp"
#include "workload/active_subset.hpp"
#include "toy/toy.hpp"
#include "core/errors.hpp"
#include "spmv/spmv.hpp"
#include "stencil/stencil.hpp"
#include "stencil/stencil_grid.hpp"
#include "triad/triad.hpp"
#include "saturation/saturation.hpp"
#include "saturation/stream_table.hpp"

namespace desync {
namespace {

void triad_ranks(const Config& cfg, int nranks) {
  if (cfg.triad.global_size > 0 && cfg.triad.global_size < nranks)
    throw DeckError(fmt::format("{}: error: [triad] global_size = {}: fewer elements than the {} ranks; allowed: >= {}",
                                cfg.deck_path, cfg.triad.global_size, nranks, nranks));
}

void stencil_ranks(const Config& cfg, int nranks) { validate_stencil_grid(cfg.stencil, nranks); }

void pingpong_ranks(const Config& cfg, int nranks) {
  if (nranks < 2)
    throw DeckError(fmt::format("{}: error: workload \"pingpong\" needs at least 2 ranks (pairs of rank i and i + P/2); "
                                "the run has {}", cfg.deck_path, nranks));
  if (cfg.pingpong.pairs > nranks / 2)
    throw DeckError(fmt::format("{}: error: [pingpong] pairs = {}: {} rank(s) make at most {} pair(s); allowed: 0 (the "
                                "mode's default) .. {}",
                                cfg.pingpong.pairs_pos.where, cfg.pingpong.pairs, nranks, nranks / 2, nranks / 2));
}

void toy_ranks(const Config& cfg, int nranks) {
  if (cfg.toy.degree > nranks - 1)
    throw DeckError(fmt::format("{}: error: [toy] degree = {}: {} rank(s) have at most {} other rank(s) to send to; "
                                "allowed: 0 (all others) .. {}",
                                cfg.toy.degree_pos.where, cfg.toy.degree, nranks, nranks - 1, nranks - 1));
}

// "P ranks" or "A active of P ranks ([placement] active_ppn = k)", for messages.
std::string ranks_phrase(const Config& cfg, int active, int nranks) {
  if (active == nranks) return fmt::format("{} rank(s)", nranks);
  return fmt::format("{} active rank(s) of {} ([placement] active_ppn = {})", active, nranks, cfg.placement.active_ppn);
}

// The kernel's ranks when they follow from the deck and the rank count alone, else -1 (nodes
// detected at run time with an active subset: validate_layout checks those).
int planned_active_ranks(const PlacementConfig& pl, int nranks) {
  if (pl.active_ppn <= 0) return nranks;
  if (pl.ranks_per_node <= 0) return -1;
  int count = 0;
  for (int first = 0; first < nranks; first += static_cast<int>(pl.ranks_per_node))
    count += std::min<int>(static_cast<int>(pl.active_ppn), std::min<int>(static_cast<int>(pl.ranks_per_node), nranks - first));
  return count;
}

void placement_ranks(const Config& cfg, int nranks) {
  if (cfg.placement.ranks_per_node > nranks)
    throw DeckError(fmt::format("{}: error: [placement] ranks_per_node = {}: more than the run's {} rank(s); allowed: "
                                "0 (the nodes as they are) .. {}",
                                cfg.placement.ranks_per_node_pos.where, cfg.placement.ranks_per_node, nranks, nranks));
}

// Blocks of ceil(n / p) rows must leave none of the p block rows empty: (p - 1) ceil(n / p) < n.
// The n that pass do not form an interval (p = 6: 11, 12 pass, 13 .. 15 do not), so the error
// names the nearest ones.
bool blocks_fill(std::int64_t n, int p) { return (n + p - 1) / p * (p - 1) < n; }

void check_blocks(const Config& cfg, const char* key, std::int64_t n, int p) {
  if (blocks_fill(n, p)) return;
  std::int64_t below = n - 1, above = n + 1;
  while (below > 0 && !blocks_fill(below, p)) --below;
  while (!blocks_fill(above, p)) ++above;
  throw DeckError(fmt::format("{}: error: {} = {}: blocks of ceil(n / {}) = {} rows leave the last of the {} block rows "
                              "empty; allowed: n with (p - 1) ceil(n / p) < n, the nearest {}{}",
                              cfg.deck_path, key, n, p, (n + p - 1) / p, p, below > 0 ? fmt::format("{} and ", below) : "", above));
}

void mesh_ranks(const Config& cfg, int active, int nranks) {
  if (cfg.run.workload == Workload::matvec2d) {
    const int p = static_cast<int>(std::lround(std::sqrt(active)));
    if (p * p != active)
      throw DeckError(fmt::format("{}: error: workload \"matvec2d\" runs on a p x p mesh, but the run has {}; allowed: "
                                  "a square number (4, 9, 16, ...)", cfg.deck_path, ranks_phrase(cfg, active, nranks)));
    check_blocks(cfg, "[matvec2d] n", cfg.matvec2d.n, p);
    return;
  }
  const SymmSquareCubeConfig& c = cfg.ssc;
  int p = 0;
  if (c.algorithm == SscAlgorithm::twofive) {
    const int layers = static_cast<int>(c.replication);
    const int q = active % layers == 0 ? static_cast<int>(std::lround(std::sqrt(active / layers))) : 0;
    if (q == 0 || q * q * layers != active || q % layers != 0)
      throw DeckError(fmt::format("{}: error: [symmsquarecube] replication = {}: the 2.5D algorithm runs on a q x q x c mesh "
                                  "with c = replication, q = sqrt(P / c) an integer and a multiple of c (q / c Cannon steps), "
                                  "but the run has {}; e.g. c = 2: 8 or 32 ranks, c = 1: any square",
                                  c.replication_pos.where, c.replication, ranks_phrase(cfg, active, nranks)));
    p = q;
  } else {
    p = static_cast<int>(std::lround(std::cbrt(active)));
    if (p * p * p != active)
      throw DeckError(fmt::format("{}: error: workload \"symmsquarecube\" (algorithm \"{}\") runs on a p x p x p mesh, but "
                                  "the run has {}; allowed: a cube (1, 8, 27, 64, ...)",
                                  cfg.deck_path, enum_name(ssc_algorithm_names, c.algorithm), ranks_phrase(cfg, active, nranks)));
  }
  check_blocks(cfg, "[symmsquarecube] n", c.n, p);
  const std::int64_t b = (c.n + p - 1) / p;
  if (b * b > std::numeric_limits<int>::max())
    throw DeckError(fmt::format("{}: error: [symmsquarecube] n = {}: a block of {} x {} exceeds MPI's int count (one block is "
                                "one message); allowed on a mesh of p = {}: n <= {}",
                                cfg.deck_path, c.n, b, b, p, std::int64_t{46340} * p));
}

// N_DUP acts only where operations are cut into parts; elsewhere more than 1 is an error (it
// would make duplicates nobody uses, and the record would claim parts that never existed).
void symmsquarecube_deck(const Config& cfg) {
  const SscAlgorithm a = cfg.ssc.algorithm;
  if ((a == SscAlgorithm::original || a == SscAlgorithm::baseline) && cfg.comm.communicators > 1)
    throw DeckError(fmt::format("{}: error: [comm] communicators = {} with [symmsquarecube] algorithm = \"{}\": the blocking "
                                "algorithms use each communicator whole; N_DUP parts are for \"optimized\" and \"2.5d\", or "
                                "set communicators = 1", cfg.deck_path, cfg.comm.communicators, enum_name(ssc_algorithm_names, a)));
}

void matvec2d_deck(const Config& cfg) {
  if (!cfg.matvec2d.pipelined && cfg.comm.communicators > 1)
    throw DeckError(fmt::format("{}: error: [comm] communicators = {} with [matvec2d] pipelined = false: MPI_Reduce and "
                                "MPI_Bcast use each communicator whole; use pipelined = true for N_DUP parts, or "
                                "communicators = 1", cfg.deck_path, cfg.comm.communicators));
}

void mesh_workload_ranks(const Config& cfg, int nranks) {
  placement_ranks(cfg, nranks);
  const int active = planned_active_ranks(cfg.placement, nranks);
  if (active > 0) mesh_ranks(cfg, active, nranks);
}

void mesh_workload_layout(const Config& cfg, MPI_Comm comm) {
  const NodeLayout l = node_layout(comm, static_cast<int>(cfg.placement.ranks_per_node));
  mesh_ranks(cfg, active_rank_count(l, static_cast<int>(cfg.placement.active_ppn)), static_cast<int>(l.node_of.size()));
}

void collbench_ranks(const Config& cfg, int nranks) { placement_ranks(cfg, nranks); }

void collbench_layout(const Config& cfg, MPI_Comm comm) {
  const NodeLayout l = node_layout(comm, static_cast<int>(cfg.placement.ranks_per_node));
  if (l.nodes < 2)
    throw DeckError(fmt::format("{}: error: workload \"collbench\" measures collectives between nodes, but all {} rank(s) "
                                "are on one node; run on 2+ nodes, or set [placement] ranks_per_node to count consecutive "
                                "ranks as one node", cfg.deck_path, l.node_of.size()));
  if (l.ppn_min != l.ppn_max)
    throw DeckError(fmt::format("{}: error: workload \"collbench\" needs the same number of ranks on every node (its "
                                "columns span all nodes); the nodes hold {} to {} ranks", cfg.deck_path, l.ppn_min, l.ppn_max));
}

void collbench_deck(const Config& cfg) {
  if (cfg.collbench.mode == CollMode::blocking && cfg.comm.communicators > 1)
    throw DeckError(fmt::format("{}: error: [comm] communicators = {} with [collbench] mode = \"blocking\": a blocking "
                                "collective runs on one communicator; use mode = \"nonblocking\" for N_DUP parts, or "
                                "communicators = 1", cfg.deck_path, cfg.comm.communicators));
}

const char* cg_overlap(const Config& cfg) { return cfg.cg.overlap ? "the rows that read no halo value (rows)" : nullptr; }

const char* toy_overlap(const Config& cfg) { return cfg.toy.overlap ? "compute part 1 (microseconds)" : nullptr; }

std::int64_t pingpong_rows(const Config& cfg) {
  return static_cast<std::int64_t>(cfg.pingpong.sizes.size()) * cfg.run.iterations;
}

const char* spmv_overlap(const Config& cfg) {
  // KokkosKernels' product is one library call over all rows: it cannot be cut into chunks.
  if (cfg.spmv.kernel == SpmvKernel::kokkoskernels) return nullptr;
  return cfg.spmv.scheme == SpmvScheme::splitwait ? "the local part of the product (rows)" : nullptr;
}

const char* chebfd_overlap(const Config& cfg) {
  if (cfg.chebfd.scheme == ChebfdScheme::splitwait) return "the local part of the product (rows)";
  if (cfg.chebfd.scheme == ChebfdScheme::pipeline) return "the fused kernel of the previous sub-block (rows)";
  return nullptr;
}

// Why progress = "test" cannot act in this deck, or empty.
std::string no_overlap_hint(const Config& cfg) {
  switch (cfg.run.workload) {
    case Workload::triad: return "the triad sweeps, then communicates";
    case Workload::stencil: return "the stencil exchanges its halo, then sweeps";
    case Workload::spmv:
      if (cfg.spmv.kernel == SpmvKernel::kokkoskernels)
        return "kernel = \"kokkoskernels\" is one library call that cannot be cut into chunks; use kernel = \"desync\"";
      return "scheme \"nonsplit\" waits before computing; use scheme = \"splitwait\"";
    case Workload::chebfd: return "scheme \"nonsplit\" waits before computing; use \"splitwait\" or \"pipeline\"";
    case Workload::pingpong: return "a micro-benchmark only communicates";
    case Workload::toy: return "the no-overlap toy waits before computing; use [toy] overlap = true";
    case Workload::cg: return "the non-overlapped SpMV waits before computing; use [cg] overlap = true";
    case Workload::collbench:
    case Workload::matvec2d:
    case Workload::symmsquarecube: return "its communication is collectives; [comm] communicators sets their N_DUP parts";
    case Workload::saturation: return "it only streams memory";
  }
  return "";
}

}  // namespace

const std::vector<WorkloadEntry>& workload_registry() {
  static const std::vector<WorkloadEntry> list{
      {Workload::triad, "triad", {"run", "triad", "comm", "inject", "noise", "threads", "record"}, false, triad_ranks, nullptr, triad_memory, run_triad},
      {Workload::spmv, "spmv", {"run", "spmv", "matrix", "comm", "inject", "noise", "threads", "record"}, true, nullptr, spmv_overlap, spmv_memory, run_spmv},
      {Workload::stencil, "stencil", {"run", "stencil", "comm", "inject", "noise", "threads", "record"}, false, stencil_ranks, nullptr, stencil_memory, run_stencil},
      {Workload::chebfd, "chebfd", {"run", "chebfd", "matrix", "comm", "inject", "noise", "threads", "record"}, true, nullptr, chebfd_overlap, chebfd_memory, run_chebfd},
      {Workload::pingpong, "pingpong", {"run", "pingpong", "comm", "threads"}, false, pingpong_ranks, nullptr, pingpong_memory, run_pingpong, pingpong_rows},
      {Workload::toy, "toy", {"run", "toy", "comm", "inject", "noise", "threads", "record"}, false, toy_ranks, toy_overlap, toy_memory, run_toy},
      {Workload::cg, "cg", {"run", "cg", "matrix", "comm", "inject", "noise", "threads", "record"}, true, nullptr, cg_overlap, cg_memory, run_cg},
      {Workload::collbench, "collbench", {"run", "collbench", "placement", "comm", "threads"}, false, collbench_ranks, nullptr,
       collbench_memory, run_collbench, collbench_rows, collbench_deck, collbench_layout},
      {Workload::matvec2d, "matvec2d", {"run", "matvec2d", "placement", "comm", "threads", "record"}, false, mesh_workload_ranks, nullptr,
       matvec2d_memory, run_matvec2d, nullptr, matvec2d_deck, mesh_workload_layout},
      {Workload::symmsquarecube, "symmsquarecube", {"run", "symmsquarecube", "placement", "comm", "threads", "record"}, false,
       mesh_workload_ranks, nullptr, symmsquarecube_memory, run_symmsquarecube, nullptr, symmsquarecube_deck, mesh_workload_layout},
      {Workload::saturation, "saturation", {"run", "saturation", "threads"}, false, saturation_ranks, nullptr, saturation_memory,
       run_saturation, saturation_rows, saturation_deck, saturation_layout},
  };
  return list;
}

const WorkloadEntry& workload_entry(Workload w) {
  for (const auto& e : workload_registry())
    if (e.id == w) return e;
  throw std::logic_error("workload not in the registry");
}

// The config layer declares these (config/config.hpp); the registry is where they are known.
const std::vector<std::string>& workload_tables(Workload w) { return workload_entry(w).tables; }

void validate_workload_for_ranks(const Config& cfg, int nranks) {
  if (const auto v = workload_entry(cfg.run.workload).validate_ranks) v(cfg, nranks);
}

void validate_workload_layout(const Config& cfg, MPI_Comm comm) {
  if (const auto v = workload_entry(cfg.run.workload).validate_layout) v(cfg, comm);
}

void validate_workload_deck(const Config& cfg) {
  const WorkloadEntry& w = workload_entry(cfg.run.workload);
  if (w.validate_deck) w.validate_deck(cfg);
  if (cfg.comm.progress != ProgressMode::test) return;
  const char* work = w.overlapped_work ? w.overlapped_work(cfg) : nullptr;
  if (work) return;
  throw DeckError(fmt::format("{}: error: [comm] progress = \"test\" tests the messages while the rank computes, "
                              "but workload \"{}\" computes nothing while they are in flight ({}); allowed here: "
                              "\"wait\", \"thread\"",
                              cfg.comm.progress_pos.where, w.name, no_overlap_hint(cfg)));
}

std::int64_t planned_iterations(const Config& cfg) {
  const WorkloadEntry& w = workload_entry(cfg.run.workload);
  return w.timeline_rows ? w.timeline_rows(cfg) : cfg.run.warmup + cfg.run.iterations;
}

MemoryEstimate estimate_memory(const Config& cfg, int rank, int size) {
  MemoryEstimate m = workload_entry(cfg.run.workload).memory(cfg, rank, size);
  // Freed before the workload allocates; counted on top, which overstates the peak a little.
  if (cfg.run.stream_table) m.add("STREAM table (before the run)", stream_table_memory(cfg, rank, size));
  return m;
}

}  // namespace desync
