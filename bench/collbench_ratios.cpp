// The collective micro-benchmark against itself and against raw MPI (issue goal: N_DUP = 1 within
// 2% of the blocking collective). Every rank counts as a node ([placement] ranks_per_node = 1).
// In alternating rounds, on the same ranks and sizes:
//   blocking     the collbench workload, mode "blocking" (MPI_Bcast / MPI_Reduce via comm/);
//   N_DUP = 1    the collbench workload, mode "nonblocking", one part (MPI_Ibcast / MPI_Ireduce
//                and MPI_Wait via comm/);
//   raw          MPI_Bcast / MPI_Reduce, and MPI_Ibcast / MPI_Ireduce + MPI_Wait, in a plain loop
//                with a barrier between repetitions, timed as the workload times them (the
//                slowest rank's time, median over repetitions).
// Reported per operation: the median over rounds of each, and the ratios blocking / N_DUP=1
// (the study's comparison: what splitting into one nonblocking part costs, which includes the MPI
// library's different algorithms for nonblocking collectives) and raw / desync for each form
// (what desync's layer costs). Run with 4+ ranks:
//   mpiexec -n 4 bench_collbench [--bytes B] [--reps K] [--rounds R]
#include <fmt/core.h>
#include <mpi.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <string>
#include <vector>

#include "workloads/registry.hpp"
#include "bench_util.hpp"
#include "workloads/collbench/collbench.hpp"
#include "core/clock.hpp"
#include "core/mpi_util.hpp"
#include "metrics/phase_stats.hpp"

namespace {

double median(std::vector<double> v) { return desync::min_med_max(std::move(v)).median; }

}  // namespace

int main(int argc, char** argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  {
    Kokkos::ScopeGuard kokkos(argc, argv);
    using namespace desync;
    const auto bytes = bench::arg(argc, argv, "--bytes", 8 << 20);
    const auto reps = bench::arg(argc, argv, "--reps", 20);
    const int rounds = static_cast<int>(bench::arg(argc, argv, "--rounds", 5));
    const int rank = comm_rank(MPI_COMM_WORLD), size = comm_size(MPI_COMM_WORLD);
    const auto deck = [&](const char* mode) {
      return load_deck("[run]\nworkload = \"collbench\"\nprogress_interval = 0\nwarmup = 2\niterations = " + std::to_string(reps) +
                           "\n[collbench]\nmode = \"" + mode + "\"\nsizes = [" + std::to_string(bytes) +
                           "]\n[placement]\nranks_per_node = 1\n",
                       "bench_collbench.toml", {});
    };
    const Config blocking = deck("blocking"), split = deck("nonblocking");
    // Per round: the workload's median time for bcast and reduce.
    const auto workload = [&](const Config& cfg) {
      const WorkloadResult r = run_collbench(cfg, MPI_COMM_WORLD);
      const auto& t = find_dataset(r, "collbench", "time_median")->values;
      return std::vector<double>{t.at(0), t.at(1)};
    };
    const int count = static_cast<int>(bytes / 4);
    std::vector<float> send(static_cast<std::size_t>(count), 1.0f), recv(static_cast<std::size_t>(count), 0.0f);
    // Raw MPI: op 0, 1: MPI_Bcast, MPI_Reduce; op 2, 3: MPI_Ibcast, MPI_Ireduce and MPI_Wait.
    const auto raw = [&] {
      std::vector<double> out;
      for (int op = 0; op < 4; ++op) {
        std::vector<double> t;
        for (std::int64_t i = 0; i < reps + 2; ++i) {
          MPI_Barrier(MPI_COMM_WORLD);
          const double t0 = now();
          MPI_Request req;
          float* bbuf = rank == 0 ? send.data() : recv.data();
          if (op == 0) MPI_Bcast(bbuf, count, MPI_FLOAT, 0, MPI_COMM_WORLD);
          if (op == 1) MPI_Reduce(send.data(), recv.data(), count, MPI_FLOAT, MPI_SUM, 0, MPI_COMM_WORLD);
          if (op == 2) MPI_Ibcast(bbuf, count, MPI_FLOAT, 0, MPI_COMM_WORLD, &req), MPI_Wait(&req, MPI_STATUS_IGNORE);
          if (op == 3) MPI_Ireduce(send.data(), recv.data(), count, MPI_FLOAT, MPI_SUM, 0, MPI_COMM_WORLD, &req), MPI_Wait(&req, MPI_STATUS_IGNORE);
          double d = now() - t0;
          MPI_Allreduce(MPI_IN_PLACE, &d, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
          if (i >= 2) t.push_back(d);
        }
        out.push_back(median(t));
      }
      return out;
    };
    std::vector<std::vector<double>> tb, ts, tr;
    for (int k = 0; k < rounds; ++k) {  // rotating the order, so none always runs first
      const int first = k % 3;
      for (int x = 0; x < 3; ++x) {
        const int which = (first + x) % 3;
        if (which == 0) tb.push_back(workload(blocking));
        if (which == 1) ts.push_back(workload(split));
        if (which == 2) tr.push_back(raw());
      }
    }
    if (rank == 0) {
      fmt::print("collbench {} B over {} ranks (one per node): {} rounds of {} repetitions\n", bytes, size, rounds, reps);
      const char* names[2] = {"bcast", "reduce"};
      for (int op = 0; op < 2; ++op) {
        std::vector<double> b, s, r, rn;
        for (int k = 0; k < rounds; ++k)
          b.push_back(tb[k][op]), s.push_back(ts[k][op]), r.push_back(tr[k][op]), rn.push_back(tr[k][op + 2]);
        const double mb = median(b), ms = median(s), mr = median(r), mrn = median(rn);
        fmt::print("  {:<6}: desync blocking {:.1f} us, desync N_DUP = 1 {:.1f} us; raw MPI blocking {:.1f} us, nonblocking {:.1f} us\n",
                   names[op], mb * 1e6, ms * 1e6, mr * 1e6, mrn * 1e6);
        fmt::print("  {:<6}: ratio blocking/N_DUP=1 time {:.4f} (goal 0.98 .. 1.02; includes the library's nonblocking algorithm)\n",
                   names[op], mb / ms);
        fmt::print("  {:<6}: ratio raw/desync time: blocking {:.4f}, nonblocking {:.4f} (goal >= 0.98: the layer's cost)\n", names[op],
                   mr / mb, mrn / ms);
      }
    }
  }
  MPI_Finalize();
  return 0;
}
