// The simulator's SpMV, ChebFD and stencil programs (simulate/sim_{spmv,chebfd,stencil}_program.cpp):
// every rank's messages are those of the real run's halo plan, the shares sum to the matrix or
// the grid, the events are the real workload's, and what the simulator does not model is refused.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <map>
#include <string>
#include <vector>

#include "workloads/cg/cg.hpp"
#include "workloads/chebfd/chebfd.hpp"
#include "workloads/chebfd/chebfd_filter.hpp"
#include "config/config.hpp"
#include "workloads/registry.hpp"
#include "core/errors.hpp"
#include "matrix/local_matrix.hpp"
#include "matrix/make_generator.hpp"
#include "matrix/rank_pattern.hpp"
#include "plan/plan.hpp"
#include "sim_model/sim_program.hpp"
#include "workloads/simulated_programs.hpp"
#include "workloads/spmv/spmv.hpp"
#include "workloads/spmv/spmv_state.hpp"
#include "workloads/stencil/stencil.hpp"
#include "workloads/chebfd/chebfd_config.hpp"
#include "workloads/spmv/spmv_config.hpp"

namespace desync::sim {
namespace {

// test_platform() without its [core] section (the core model at its defaults).
const Platform& sparse_platform() {
  static const Platform p = parse_platform(
      "[platform]\nname = \"t\"\n[node]\ncores_per_domain = 4\n[memory]\nb1 = 1e9\nb_saturated = 2e9\n[network]\n"
      "intra_node_latency = 1e-6\nintra_node_bandwidth = 1e9\ninter_node_latency = 1e-6\ninter_node_bandwidth = 1e9\n",
      "p.toml", {"node.count=8"});
  return p;
}

// One rank of the real run, from the local matrix run_spmv builds: its shares, its remote
// nonzeros (halo columns, as split_matrix splits them) and build_halo_plan's receive side (halo
// columns grouped by owner, 8 B per entry).
struct RealRank {
  std::int64_t rows = 0, nnz = 0, remote_nnz = 0;
  std::vector<Message> recv, send;
};

template <class T>
RealRank real_rank(const MatrixGenerator& g, const RowPartition& part, int r) {
  const LocalMatrix<T> m = build_local_matrix<T>(g, part, r);
  RealRank x{m.rows, m.nnz, 0, {}, {}};
  const auto col = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), m.col);
  for (std::int64_t k = 0; k < m.nnz; ++k) x.remote_nnz += col(k) >= m.rows;
  for (GlobalIndex c : m.halo_columns) {
    const int owner = part.owner(c);
    if (x.recv.empty() || x.recv.back().peer != owner) x.recv.push_back({owner, 0});
    x.recv.back().bytes += 8;
  }
  return x;
}

std::vector<RealRank> real_ranks(const Config& cfg, int ranks) {
  const auto g = make_generator(cfg.matrix);
  const RowPartition part = make_partition(*g, cfg.matrix.partition, ranks);
  std::vector<RealRank> v;
  for (int r = 0; r < ranks; ++r) v.push_back(g->is_complex() ? real_rank<Complex>(*g, part, r) : real_rank<double>(*g, part, r));
  // build_halo_plan's send side: what the partners ask for, ascending partner.
  for (int r = 0; r < ranks; ++r)
    for (const Message& m : v[static_cast<std::size_t>(r)].recv) v[static_cast<std::size_t>(m.peer)].send.push_back({r, m.bytes});
  return v;
}

// "peer:bytes peer:bytes ...": one line per list, so a failure shows both lists whole.
std::string text(const std::vector<Message>& list) {
  std::string s;
  for (const Message& m : list) s += " " + std::to_string(m.peer) + ":" + std::to_string(m.bytes);
  return s;
}

double dataset(const RankWork& w, const std::string& group, const std::string& name) {
  for (const auto& d : w.datasets)
    if (d.group == group && d.name == name) return d.values.at(0);
  ADD_FAILURE() << "no dataset /" << group << "/" << name;
  return -1;
}

Config spmv_deck(const std::string& matrix, const std::string& spmv = "") {
  return load_deck("[run]\nworkload = \"spmv\"\niterations = 5\nwarmup = 1\n[spmv]\n" + spmv + matrix, "d.toml", {});
}

// One small matrix of each generator family.
const std::vector<std::pair<std::string, std::string>>& matrices() {
  static const std::vector<std::pair<std::string, std::string>> m{
      {"spin", "[matrix]\ngenerator = \"spin\"\npartition = \"nnz\"\n[matrix.spin]\nsites = 10\nup = 5\nboundary = \"periodic\"\n"},
      {"stencil5", "[matrix]\ngenerator = \"stencil5\"\n[matrix.stencil5]\nnx = 13\nny = 7\n"},
      {"hhq", "[matrix]\ngenerator = \"hhq\"\npartition = \"nnz\"\n[matrix.hhq]\nsites = 4\nup = 1\ndown = 1\nphonons = 3\n"},
      {"topi", "[matrix]\ngenerator = \"topi\"\n[matrix.topi]\nblock = [4, 4, 2]\n"},
      {"minife", "[matrix]\ngenerator = \"minife\"\n[matrix.minife]\nelements = [4, 3, 3]\n"}};
  return m;
}

TEST(SimSpmvProgram, MessagesAndSharesAreTheRealRunsAtOneToFourRanks) {
  for (const auto& [family, matrix] : matrices()) {
    const Config cfg = spmv_deck(matrix);
    const auto g = make_generator(cfg.matrix);
    for (int ranks = 1; ranks <= 4; ++ranks) {
      const std::string what = family + " at " + std::to_string(ranks) + " ranks";
      const Program p = make_program(cfg, sparse_platform(), ranks);
      const std::vector<RealRank> real = real_ranks(cfg, ranks);
      PlanOptions opt;
      opt.ranks = ranks;
      opt.spy_grid = 0;
      const Plan plan = build_plan(*g, cfg.matrix, opt);  // `desync plan`'s view of the same ranks
      ASSERT_EQ(p.ranks.size(), static_cast<std::size_t>(ranks)) << what;
      std::int64_t rows = 0, nnz = 0, messages = 0;
      for (int r = 0; r < ranks; ++r) {
        const RankWork& w = p.ranks[static_cast<std::size_t>(r)];
        const RealRank& x = real[static_cast<std::size_t>(r)];
        const std::string at = what + ", rank " + std::to_string(r);
        ASSERT_EQ(w.exchange.size(), 1u) << at;
        EXPECT_EQ(text(w.exchange[0].recv), text(x.recv)) << at;
        EXPECT_EQ(text(w.exchange[0].send), text(x.send)) << at;
        EXPECT_EQ(text(exchange_of(w.partners).recv), text(x.recv)) << at;  // /comm, as the file says
        EXPECT_EQ(text(exchange_of(w.partners).send), text(x.send)) << at;
        std::vector<Message> planned;
        for (const PlanPartner& m : plan.ranks_info[static_cast<std::size_t>(r)].partners) planned.push_back({m.rank, 8 * m.entries});
        EXPECT_EQ(text(w.exchange[0].recv), text(planned)) << at;
        EXPECT_EQ(dataset(w, "matrix", "rows"), static_cast<double>(x.rows)) << at;
        EXPECT_EQ(dataset(w, "matrix", "nnz"), static_cast<double>(x.nnz)) << at;
        // Traffic: spmv_bytes of the real shares; the amounts split it, less y's write-allocate.
        std::int64_t halo = 0, sent = 0;
        for (const Message& m : x.recv) halo += m.bytes / 8;
        for (const Message& m : x.send) sent += m.bytes / 8;
        EXPECT_DOUBLE_EQ(w.bytes_per_iteration, spmv_bytes(x.rows, x.nnz, halo, x.remote_nnz > 0)) << at;
        EXPECT_DOUBLE_EQ(w.flops_per_iteration, 2.0 * x.nnz) << at;
        ASSERT_EQ(w.amount.size(), 3u) << at;
        EXPECT_DOUBLE_EQ(w.amount[0], 20.0 * sent) << at;
        EXPECT_DOUBLE_EQ(w.amount[1] + w.amount[2] + 8.0 * x.rows, w.bytes_per_iteration) << at;
        EXPECT_DOUBLE_EQ(w.amount[2], x.remote_nnz > 0 ? 12.0 * x.remote_nnz + 16.0 * x.rows + 8.0 * halo : 0.0) << at;
        rows += x.rows;
        nnz += x.nnz;
        messages += static_cast<std::int64_t>(x.recv.size());
      }
      EXPECT_EQ(messages > 0, ranks > 1) << what;  // every matrix here couples its row blocks
      EXPECT_EQ(rows, g->rows()) << what;
      EXPECT_EQ(nnz, plan.nnz) << what;
    }
  }
}

// A program's iteration as one line: event names for marks, else the op's letter (Memory, Core,
// Busy, Delay, Post, Wait, Sync, Allreduce: Op's order) with its slot or exchange ("begin M0 pack_end P0 ...").
// paired: the paired run's steps (compare_barrier) instead of the run's.
std::string trace(const Program& p, bool paired = false) {
  std::string s;
  for (const Step& x : paired ? p.paired_steps : p.steps) {
    const bool indexed = x.op != Op::delay && x.op != Op::sync && x.op != Op::allreduce;
    s += (x.op == Op::mark ? p.event_names.at(static_cast<std::size_t>(x.arg))
                           : "?MCBDPWSA"[static_cast<int>(x.op)] + (indexed ? std::to_string(x.arg) : "")) + " ";
  }
  return s.substr(0, s.size() - 1);
}

TEST(SimSpmvProgram, EventsAndStepsOfEachScheme) {
  const std::string& matrix = matrices()[1].second;
  const Program ns = make_program(spmv_deck(matrix, "scheme = \"nonsplit\"\n"), sparse_platform(), 2);
  EXPECT_EQ(ns.event_names, spmv_event_names(SpmvScheme::nonsplit));
  EXPECT_EQ(trace(ns), "begin M0 pack_end P0 post_end W0 wait_end M1 local_end M2 remote_end D");
  const Program sw = make_program(spmv_deck(matrix, "scheme = \"splitwait\"\nkernel = \"kokkoskernels\"\n"), sparse_platform(), 2);
  EXPECT_EQ(sw.event_names, spmv_event_names(SpmvScheme::splitwait));
  EXPECT_EQ(trace(sw), "begin M0 pack_end P0 post_end M1 local_end W0 wait_end M2 remote_end D");
  for (const Program* p : {&ns, &sw}) {  // the driver's marks: no delay_begin in the real timeline
    EXPECT_EQ(p->work_phase, "exec");
    EXPECT_EQ(p->delay_begin, -1);
    EXPECT_EQ(p->event_names.at(static_cast<std::size_t>(p->delay_end)), "delay_end");
    EXPECT_EQ(p->event_names.at(static_cast<std::size_t>(p->sync_end)), "sync_end");
  }
  const Program synced = make_program(
      load_deck("[run]\nworkload = \"spmv\"\niterations = 3\n[comm]\nsync = \"barrier\"\n" + matrix, "d.toml", {}), sparse_platform(), 2);
  EXPECT_EQ(synced.steps.back().op, Op::sync);
  // compare_barrier: the paired run is the same iteration with the other sync, at the end.
  EXPECT_TRUE(ns.paired_steps.empty());
  const Program pair = make_program(spmv_deck(matrix, "compare_barrier = true\n"), sparse_platform(), 2);
  EXPECT_EQ(trace(pair), trace(sw));  // the default scheme
  EXPECT_EQ(trace(pair, true), trace(sw) + " S");
}

// ChebFD: the SpMV's halo with nb values of the generator's scalar per entry (real and complex
// matrices); every scheme's events; PIPELINE posts one exchange per block in every degree step.
TEST(SimChebfdProgram, MessagesAndStepsOfEachScheme) {
  const std::string run = "[run]\nworkload = \"chebfd\"\nwarmup = 1\n[chebfd]\nns = 6\nnb = 2\nnp = 4\n";
  for (std::size_t f : {0u, 3u}) {  // spin (double), topi (complex)
    const Config cfg = load_deck(run + "scheme = \"splitwait\"\n" + matrices()[f].second, "d.toml", {});
    const double sd = make_generator(cfg.matrix)->is_complex() ? 16.0 : 8.0;
    const Program p = make_program(cfg, sparse_platform(), 3);
    EXPECT_EQ(p.iterations, 3 * 3);  // 3 blocks x (np - 1) degree steps
    const std::vector<RealRank> real = real_ranks(cfg, 3);
    for (std::size_t r = 0; r < 3; ++r) {
      const RankWork& w = p.ranks[r];
      const RealRank& x = real[r];
      const auto scaled = [&](std::vector<Message> v) {
        for (Message& m : v) m.bytes = static_cast<std::int64_t>(static_cast<double>(m.bytes / 8) * 2 * sd);
        return v;
      };
      EXPECT_EQ(text(w.exchange.at(0).recv), text(scaled(x.recv))) << matrices()[f].first;
      EXPECT_EQ(text(w.exchange.at(0).send), text(scaled(x.send))) << matrices()[f].first;
      const double rows = static_cast<double>(x.rows);
      EXPECT_DOUBLE_EQ(w.bytes_per_iteration, chebfd::bytes_per_step(sd == 16.0, rows, static_cast<double>(x.nnz), 2));
      EXPECT_DOUBLE_EQ(w.amount.at(1) + w.amount.at(2), w.bytes_per_iteration + 3 * 2 * sd * rows);  // U, W again
      EXPECT_EQ(dataset(w, "matrix", "nnz"), static_cast<double>(x.nnz));
    }
  }
  const std::string& spin = matrices()[0].second;
  const Program ns = make_program(load_deck(run + "scheme = \"nonsplit\"\n" + spin, "d.toml", {}), sparse_platform(), 2);
  EXPECT_EQ(trace(ns), "begin M0 pack_end P0 post_end W0 wait_end M1 fused_end D");
  const Program sw = make_program(load_deck(run + "scheme = \"splitwait\"\n" + spin, "d.toml", {}), sparse_platform(), 2);
  EXPECT_EQ(trace(sw), "begin M0 pack_end P0 post_end M1 local_end W0 wait_end M2 remote_end D");
  const Program pl = make_program(load_deck(run + "scheme = \"pipeline\"\n" + spin, "d.toml", {}), sparse_platform(), 2);
  EXPECT_EQ(trace(pl), "begin M0 pack_end P0 post_end W0 wait_end M0 P1 M1 W1 M0 P2 M1 W2 M1 fused_end D");
  EXPECT_EQ(pl.iterations, 3);
  EXPECT_EQ(pl.ranks[0].exchange.size(), 3u);
  EXPECT_DOUBLE_EQ(pl.ranks[0].bytes_per_iteration, 3 * ns.ranks[0].bytes_per_iteration);
  for (const Program* q : {&ns, &sw, &pl}) EXPECT_EQ(q->event_names, chebfd::event_names(q == &sw ? ChebfdScheme::splitwait : ChebfdScheme::nonsplit));
  // compare_barrier: the paired filter with the other sync after every degree step, either way.
  const Program pair = make_program(load_deck(run + "scheme = \"pipeline\"\ncompare_barrier = true\n" + spin, "d.toml", {}), sparse_platform(), 2);
  EXPECT_EQ(trace(pair), trace(pl));
  EXPECT_EQ(trace(pair, true), trace(pl) + " S");
  const Program back = make_program(
      load_deck(run + "scheme = \"splitwait\"\ncompare_barrier = true\nbarrier_per_degree = true\n" + spin, "d.toml", {}), sparse_platform(), 2);
  EXPECT_EQ(trace(back), trace(sw) + " S");
  EXPECT_EQ(trace(back, true), trace(sw));
}

// CG: run_cg's events and order, the plain SpMV (exchange, then all rows) or the overlapped one
// (interior rows while the halo travels, then the rest: together the plain product's bytes), the
// vector kernels' traffic per row, two allreduces inside the iteration, the SpMV's halo.
TEST(SimCgProgram, StepsTrafficAndHalo) {
  const std::string deck = "[run]\nworkload = \"cg\"\niterations = 4\n[matrix]\ngenerator = \"minife\"\npartition = \"rows\"\n"
                           "[matrix.minife]\nelements = [6, 5, 12]\n";
  const Program plain = make_program(load_deck(deck, "d.toml", {}), sparse_platform(), 3);
  const Program over = make_program(load_deck(deck, "d.toml", {"cg.overlap=true"}), sparse_platform(), 3);
  EXPECT_EQ(plain.event_names, cg_event_names());
  EXPECT_EQ(trace(plain), "begin M0 pack_end P0 post_end W0 wait_end M2 spmv_end M3 pq_end A pq_allreduce_end M4 update_end A "
                          "rr_allreduce_end M5 direction_end D");
  EXPECT_EQ(trace(over), "begin M0 pack_end P0 post_end M1 interior_end W0 wait_end M2 spmv_end M3 pq_end A pq_allreduce_end "
                         "M4 update_end A rr_allreduce_end M5 direction_end D");
  const auto gen = make_generator(load_deck(deck, "d.toml", {}).matrix);
  const RowPartition part = make_partition(*gen, PartitionKind::rows, 3);
  for (int r = 0; r < 3; ++r) {
    const RankWork& a = plain.ranks[static_cast<std::size_t>(r)];
    const RankWork& b = over.ranks[static_cast<std::size_t>(r)];
    const RankPattern s = scan_rank(*gen, part, r);
    const auto rows = static_cast<double>(s.rows);
    EXPECT_DOUBLE_EQ(a.flops_per_iteration, cg_flops_per_iteration(rows, static_cast<double>(s.nnz)));
    EXPECT_DOUBLE_EQ(a.amount.at(3), 16.0 * rows);
    EXPECT_DOUBLE_EQ(a.amount.at(4), 48.0 * rows);
    EXPECT_DOUBLE_EQ(a.amount.at(5), 24.0 * rows);
    EXPECT_EQ(a.amount.at(1), 0.0);
    EXPECT_GT(b.amount.at(1), 0.0) << "rank " << r << ": interior rows";
    EXPECT_GT(b.amount.at(2), 0.0) << "rank " << r << ": rows that read the halo";
    EXPECT_NEAR(b.amount.at(1) + b.amount.at(2), a.amount.at(2), 1e-9 * a.amount.at(2));
    EXPECT_EQ(text(a.exchange.at(0).recv), text(b.exchange.at(0).recv));
    EXPECT_FALSE(a.exchange.at(0).recv.empty());
  }
}

Config stencil_deck(const std::string& extra) {
  return load_deck("[run]\nworkload = \"stencil\"\niterations = 5\nwarmup = 1\n[stencil]\nn = 37\n" + extra, "d.toml", {});
}

// Partners are the process-grid neighbours W, E, S, N (and the corners for ca), with their edge
// of the block: px x py is the most square factorization with px >= py.
TEST(SimStencilProgram, PartnersAreTheGridNeighboursWithTheirEdges) {
  const std::map<int, int> px_of{{1, 1}, {2, 2}, {3, 3}, {4, 2}, {6, 3}};
  for (const char* variant : {"base", "spmv", "ca"}) {
    const Config cfg = stencil_deck(std::string("variant = \"") + variant + "\"\nca_steps = 1\n");
    const bool ca = std::string(variant) == "ca", crs = std::string(variant) == "spmv";
    for (const auto& [ranks, px] : px_of) {
      const int py = ranks / px;
      const Program p = make_program(cfg, sparse_platform(), ranks);
      EXPECT_EQ(p.event_names, stencil_event_names());
      std::int64_t points = 0;
      for (int r = 0; r < ranks; ++r) {
        const int cx = r % px, cy = r / px;
        const std::int64_t lx = 37 / px + (cx < 37 % px), ly = 37 / py + (cy < 37 % py);
        std::vector<Message> want;
        const int dirs[8][2] = {{-1, 0}, {1, 0}, {0, -1}, {0, 1}, {-1, -1}, {1, -1}, {-1, 1}, {1, 1}};
        for (int k = 0; k < (ca ? 8 : 4); ++k) {
          const int x = cx + dirs[k][0], y = cy + dirs[k][1];
          if (x < 0 || x >= px || y < 0 || y >= py) continue;
          want.push_back({y * px + x, 8 * (dirs[k][0] != 0 ? 1 : lx) * (dirs[k][1] != 0 ? 1 : ly)});
        }
        const RankWork& w = p.ranks[static_cast<std::size_t>(r)];
        const std::string at = std::string(variant) + " rank " + std::to_string(r) + " of " + std::to_string(ranks);
        // Each edge's neighbour holds the same edge length along it, so received = sent sizes.
        EXPECT_EQ(text(w.exchange.at(0).send), text(want)) << at;
        EXPECT_EQ(text(w.exchange.at(0).recv), text(want)) << at;
        EXPECT_EQ(w.partners.send_rank.size(), want.size()) << at;
        const double own = static_cast<double>(lx * ly);
        EXPECT_DOUBLE_EQ(w.bytes_per_iteration, (crs ? 88.0 : 24.0) * own) << at;
        EXPECT_DOUBLE_EQ(w.amount.at(3), (crs ? 80.0 : 16.0) * own) << at;
        EXPECT_DOUBLE_EQ(w.flops_per_iteration, 9.0 * own) << at;
        points += lx * ly;
      }
      EXPECT_EQ(points, 37 * 37);
    }
  }
}

TEST(SimStencilProgram, StepsRatioAndLatency) {
  const Program base = make_program(stencil_deck(""), sparse_platform(), 4);
  EXPECT_EQ(trace(base), "begin M0 pack_end P0 post_end W0 wait_end M2 unpack_end M3 sweep_end D");
  EXPECT_EQ(base.work_phase, "sweep");
  const Program lat = make_program(stencil_deck("latency = 1e-4\n[comm]\nsync = \"allreduce\"\n"), sparse_platform(), 4);
  EXPECT_EQ(trace(lat), "begin M0 pack_end C1 latency_end P0 post_end W0 wait_end M2 unpack_end M3 sweep_end D S");
  EXPECT_DOUBLE_EQ(lat.ranks[0].amount.at(1), 1e-4);  // one thread on a core of its own
  // ratio 0.5: a 19 x 19 block updates 9 x 9 points.
  const Program half = make_program(stencil_deck("ratio = 0.5\n"), sparse_platform(), 4);
  EXPECT_DOUBLE_EQ(half.ranks[0].bytes_per_iteration, 24.0 * 9 * 9);
}

// CA with ca_steps = s: a cycle of s iterations, the first the exchange and the sweep of the block
// extended by s - 1, the others sweeps of a block shrinking by one (run_stencil's runs); the
// model's bytes per iteration are the average step's, as run_stencil's; the exchange is posted
// once per cycle.
TEST(SimStencilProgram, CommunicationAvoidingCycle) {
  const Program p = make_program(stencil_deck("variant = \"ca\"\nca_steps = 3\n[comm]\nsync = \"barrier\"\n"), sparse_platform(), 4);
  ASSERT_EQ(p.cycle.size(), 3u);
  EXPECT_EQ(trace(p), "begin M0 pack_end P0 post_end W0 wait_end M2 unpack_end M3 sweep_end D S");
  const auto position = [&](std::size_t k) {
    Program q = p;
    q.steps = p.cycle[k];
    return trace(q);
  };
  EXPECT_EQ(position(0), trace(p));
  EXPECT_EQ(position(1), "begin M4 sweep_end D S");
  EXPECT_EQ(position(2), "begin M5 sweep_end D S");
  EXPECT_EQ(&p.steps_of(4), &p.cycle[1]);
  // Rank 0 of 2 x 2 on 37 x 37 holds 19 x 19 at (0, 0): the extension grows into the neighbours
  // only (east and north), 21 x 21, 20 x 20, 19 x 19 points at positions 0, 1, 2.
  const RankWork& w = p.ranks[0];
  EXPECT_DOUBLE_EQ(w.amount.at(3), 16.0 * 21 * 21);
  EXPECT_DOUBLE_EQ(w.amount.at(4), 16.0 * 20 * 20);
  EXPECT_DOUBLE_EQ(w.amount.at(5), 16.0 * 19 * 19);
  EXPECT_DOUBLE_EQ(w.bytes_per_iteration, 24.0 * (21 * 21 + 20 * 20 + 19 * 19) / 3.0);
  const Program skip = make_program(stencil_deck("variant = \"ca\"\nca_steps = 3\nskip_redundant = true\n"), sparse_platform(), 4);
  EXPECT_DOUBLE_EQ(skip.ranks[0].amount.at(3), 16.0 * 19 * 19);
  EXPECT_DOUBLE_EQ(skip.ranks[0].amount.at(4), 16.0 * 19 * 19);
  Program longer = p;
  longer.iterations = 10;  // positions 0 1 2 0 1 2 0 1 2 0: the exchange posted 4 times
  EXPECT_EQ(exchange_posts(longer), std::vector<std::int64_t>{4});
  const Program plain = make_program(stencil_deck(""), sparse_platform(), 4);
  EXPECT_EQ(exchange_posts(plain), std::vector<std::int64_t>{plain.iterations});
}

}  // namespace
}  // namespace desync::sim
