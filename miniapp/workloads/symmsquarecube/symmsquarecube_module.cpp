// SymmSquareCube, D^2 and D^3 of a symmetric matrix (papers.md E.2, Algorithms 3-6), as a
// workload module.
#include "workloads/symmsquarecube/symmsquarecube_module.hpp"

#include <fmt/format.h>

#include <cmath>
#include <limits>

#include "config/locate_key.hpp"
#include "core/errors.hpp"
#include "workloads/symmsquarecube/sim_symmsquarecube_program.hpp"
#include "workload/placement_rules.hpp"
#include "workloads/symmsquarecube/ssc_plan.hpp"
#include "workloads/symmsquarecube/symmsquarecube.hpp"
#include "workloads/symmsquarecube/symmsquarecube_deck.hpp"

#include <algorithm>
#include <cmath>

namespace desync {

// A p x p x p mesh (a q x q x c one for "2.5d") of the kernel's ranks; one block is one message.
void ssc_mesh_rule(const Config& cfg, int active, int nranks) {
  const SymmSquareCubeConfig& c = cfg.params.get<SymmSquareCubeConfig>();
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
                                  locate(cfg, "symmsquarecube.algorithm"), enum_name(ssc_algorithm_names, c.algorithm),
                                  ranks_phrase(cfg, active, nranks)));
  }
  check_blocks(cfg, "symmsquarecube.n", c.n, p);
  const std::int64_t b = (c.n + p - 1) / p;
  if (b * b > std::numeric_limits<int>::max())
    throw DeckError(fmt::format("{}: error: [symmsquarecube] n = {}: a block of {} x {} exceeds MPI's int count (one block is "
                                "one message); allowed on a mesh of p = {}: n <= {}",
                                locate(cfg, "symmsquarecube.n"), c.n, b, b, p, std::int64_t{46340} * p));
}

namespace {

void ssc_ranks(const Config& cfg, int nranks) {
  placement_ranks(cfg, nranks);
  const int active = planned_active_ranks(cfg.placement, nranks);
  if (active > 0) ssc_mesh_rule(cfg, active, nranks);
}

void ssc_layout(const Config& cfg, MPI_Comm comm) {
  int nranks = 0;
  const int active = active_ranks_in_layout(cfg, comm, &nranks);
  ssc_mesh_rule(cfg, active, nranks);
}

// N_DUP acts only where operations are cut into parts; elsewhere more than 1 is an error (it
// would make duplicates nobody uses, and the record would claim parts that never existed).
void ssc_deck(const Config& cfg) {
  const SscAlgorithm a = cfg.params.get<SymmSquareCubeConfig>().algorithm;
  if ((a == SscAlgorithm::original || a == SscAlgorithm::baseline) && cfg.comm.communicators > 1)
    throw DeckError(fmt::format("{}: error: [comm] communicators = {} with [symmsquarecube] algorithm = \"{}\": the blocking "
                                "algorithms use each communicator whole; N_DUP parts are for \"optimized\" and \"2.5d\", or "
                                "set communicators = 1", locate(cfg, "comm.communicators"), cfg.comm.communicators,
                                enum_name(ssc_algorithm_names, a)));
}

}  // namespace

WorkloadModule symmsquarecube_module() {
  WorkloadModule m;
  m.deck.name = "symmsquarecube";
  m.deck.tables = {"run", "symmsquarecube", "placement", "comm", "threads", "record"};
  m.deck.read_table = read_symmsquarecube_table;
  m.deck.collective = true;
  m.deck.device_buffers = true;
  m.deck.validate_deck = ssc_deck;
  m.deck.validate_ranks = ssc_ranks;
  m.memory = symmsquarecube_memory;
  // Measured (docs/method.md, section 32): /placement and 27 own datasets; the log's own bound of
  // collective parts per call (12 per duplicate + 8 per mesh side).
  m.output_shape = [](const Config& cfg, int ranks) {
    OutputShape s;
    s.events = 8;
    s.phases = 10;
    s.partners = 0;
    const double side = std::max(1.0, std::floor(std::cbrt(static_cast<double>(ranks))));
    s.collectives_per_row = 12.0 * static_cast<double>(cfg.comm.communicators) + 8.0 * side;
    s.datasets = 27;
    s.groups = 1;
    s.bytes = 216.0;
    return s;
  };
  m.run = run_symmsquarecube;
  m.validate_layout = ssc_layout;
  m.simulated = sim::symmsquarecube_program;
  m.plan = ssc_plan_command;
  const auto product = [](const char* n) { return PhaseStyle{n, PhaseClass::work, "#b9e3b0", "local product (gemm)"}; };
  const auto comm = [](const char* n, const char* colour, const char* label) {
    return PhaseStyle{n, PhaseClass::communication, colour, label};
  };
  const auto total = [](const char* n) { return PhaseStyle{n, PhaseClass::total, "#ffffff", n}; };
  m.phases = {product("gemm1"), product("gemm2"),
              {"cannon1", PhaseClass::work, "#8fd18a", "Cannon steps (gemm + shifts)"},
              {"cannon2", PhaseClass::work, "#8fd18a", "Cannon steps (gemm + shifts)"},
              comm("bcast", "#9ecae1", "broadcast"), comm("bcast1", "#9ecae1", "broadcast"),
              comm("bcast2", "#9ecae1", "broadcast"), comm("reduce", "#fc9272", "reduction"),
              comm("reduce1", "#fc9272", "reduction"), comm("reduce2", "#fc9272", "reduction"),
              // Over the layers only (not all ranks): communication, as the tools always counted it.
              {"allreduce", PhaseClass::communication, "#fcbba1", "allreduce"},
              comm("reduce_bcast", "#c6b3e0", "reduce + broadcast (pipelined)"),
              comm("reduce_p2p", "#dadaeb", "reduce + transfers (overlapped)"), comm("p2p", "#d4d4d4", "block transfers"),
              comm("p2p1", "#d4d4d4", "block transfers"), comm("p2p2", "#d4d4d4", "block transfers"),
              comm("transpose", "#bdbdbd", "transpose (transfers)"),
              total("broadcasts"), total("reductions"), total("transfers"), total("multiplies"),
              total("communication"), total("collectives"), total("cannon")};
  return m;
}

}  // namespace desync
