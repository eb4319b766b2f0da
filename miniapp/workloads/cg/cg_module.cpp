// The miniFE-like conjugate gradient (papers.md D.3) as a workload module.
#include "workloads/cg/cg_module.hpp"

#include <fmt/format.h>

#include "config/locate_key.hpp"
#include "core/errors.hpp"
#include "workloads/cg/sim_cg_program.hpp"
#include "workloads/cg/cg.hpp"
#include "workloads/cg/cg_deck.hpp"

#include <algorithm>
#include <cmath>

namespace desync {
namespace {

void cg_deck(const Config& cfg) {
  const MatrixConfig& mc = cfg.matrix;
  if (mc.generator != GeneratorKind::minife && mc.generator != GeneratorKind::stencil5)
    throw DeckError(fmt::format("{}: error: [matrix] generator = \"{}\": workload \"cg\" needs a symmetric positive definite "
                                "matrix; allowed: \"minife\", \"stencil5\" (with its default weights)",
                                locate(cfg, "matrix.generator"), enum_name(generator_names, mc.generator)));
  if (mc.generator == GeneratorKind::stencil5) {
    // Symmetric (x-1 = x+1, y-1 = y+1), non-positive neighbours, centre at least their sum:
    // with the Dirichlet boundary an irreducibly diagonally dominant M-matrix, hence SPD.
    const auto& w = mc.stencil5.weights;
    const bool spd = w[1] == w[2] && w[3] == w[4] && w[1] <= 0 && w[3] <= 0 && w[0] > 0 && w[0] >= -(w[1] + w[2] + w[3] + w[4]);
    if (!spd)
      throw DeckError(fmt::format("{}: error: [matrix.stencil5] weights = [{}, {}, {}, {}, {}]: workload \"cg\" needs a "
                                  "symmetric positive definite matrix: x-1 = x+1 and y-1 = y+1, neighbours <= 0, centre > 0 "
                                  "and >= minus their sum (e.g. [4, -1, -1, -1, -1])",
                                  locate(cfg, "matrix.stencil5.weights"), w[0], w[1], w[2], w[3], w[4]));
  }
}

}  // namespace

WorkloadModule cg_module() {
  WorkloadModule m;
  m.deck.name = "cg";
  m.deck.tables = {"run", "cg", "matrix", "comm", "inject", "noise", "threads", "record"};
  m.deck.read_table = read_cg_table;
  m.deck.needs_matrix = true;
  m.deck.device_buffers = true;
  m.deck.overlapped_work = [](const Config& cfg) -> const char* {
    return cfg.params.get<CgConfig>().overlap ? "the rows that read no halo value (rows)" : nullptr;
  };
  m.deck.no_overlap = [](const Config&) -> std::string {
    return "the non-overlapped SpMV waits before computing; use [cg] overlap = true";
  };
  m.deck.validate_deck = cg_deck;
  m.memory = cg_memory;
  // Measured (docs/method.md, section 32): /cg, /matrix and 22 own datasets; halo partners
  // bounded by 3 (the shipped partitions), a send and a receive each.
  m.output_shape = [](const Config&, int ranks) {
    OutputShape s;
    s.events = 13;
    s.phases = 15;
    s.halo(ranks, 3);
    s.datasets = 22;
    s.groups = 2;
    s.bytes = 600.0;
    return s;
  };
  m.run = run_cg;
  m.simulated = sim::cg_program;
  m.phases = {{"interior", PhaseClass::work, "#b9e3b0", "SpMV rows without halo"},
              {"spmv", PhaseClass::work, "#8fd18a", "SpMV (rest)"},
              {"pq", PhaseClass::work, "#d9f0d3", "vector operations"},
              {"update", PhaseClass::work, "#d9f0d3", "vector operations"},
              {"direction", PhaseClass::work, "#d9f0d3", "vector operations"},
              {"pq_allreduce", PhaseClass::sync, "#fdd49e", "dot-product allreduce"},
              {"rr_allreduce", PhaseClass::sync, "#fdd49e", "dot-product allreduce"}};
  return m;
}

}  // namespace desync
