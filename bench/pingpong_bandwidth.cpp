// Ping-pong bandwidth through desync's pingpong workload (comm layer, default [comm]) against the
// same measurement with raw MPI_Send/MPI_Recv (issue goal: >= 0.98 at 4 MiB). Rank 0 and rank
// P/2 bounce one message; the workload (run_pingpong on a deck built here) and the raw loop
// alternate in rounds of K timed round trips after a few untimed ones. Reported: the median round
// trip of each round, and the bandwidth ratios desync/raw (bandwidth = bytes / (round trip / 2))
// from the fastest round trip of all rounds (the undisturbed cost: memory bandwidth on a shared
// machine drifts by 2x between rounds here) and from the median over rounds. Run with 2 ranks, bound:
//   mpiexec -n 2 --bind-to core bench_pingpong [--bytes B] [--reps K] [--rounds R]
#include <fmt/core.h>
#include <mpi.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "workloads/registry.hpp"
#include "bench_util.hpp"
#include "core/clock.hpp"
#include "core/mpi_util.hpp"
#include "core/page_buffer.hpp"
#include "workloads/pingpong/pingpong.hpp"

namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

}  // namespace

int main(int argc, char** argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  {
    Kokkos::ScopeGuard kokkos(argc, argv);
    using namespace desync;
    const auto bytes = bench::arg(argc, argv, "--bytes", 4 << 20);
    const auto reps = bench::arg(argc, argv, "--reps", 200);
    const int rounds = static_cast<int>(bench::arg(argc, argv, "--rounds", 7));
    const int rank = comm_rank(MPI_COMM_WORLD), size = comm_size(MPI_COMM_WORLD);
    const int partner = size / 2;
    const Config cfg = load_deck("[run]\nworkload = \"pingpong\"\nprogress_interval = 0\niterations = " + std::to_string(reps) +
                                     "\nwarmup = 5\n[pingpong]\nsizes = [" + std::to_string(bytes) + "]\n",
                                 "bench_pingpong.toml", {});
    validate_for_ranks(cfg, size);

    // The workload's buffer layout: rank 0 sends from one buffer and receives the echo into
    // another; rank P/2 echoes what it received from its receive buffer (one buffer in cache
    // would flatter either side).
    PageBuffer send(static_cast<std::size_t>(bytes)), recv(static_cast<std::size_t>(bytes));  // as the workload's
    for (std::size_t k = 0; k < send.size(); ++k) send[k] = 1, recv[k] = 0;
    const int n = static_cast<int>(bytes), tag = 77;
    auto raw_round = [&] {
      std::vector<double> t;
      MPI_Barrier(MPI_COMM_WORLD);
      for (std::int64_t i = 0; i < reps + 5; ++i) {
        const double t0 = now();
        if (rank == 0) {
          MPI_Send(send.data(), n, MPI_BYTE, partner, tag, MPI_COMM_WORLD);
          MPI_Recv(recv.data(), n, MPI_BYTE, partner, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else if (rank == partner) {
          MPI_Recv(recv.data(), n, MPI_BYTE, 0, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
          MPI_Send(recv.data(), n, MPI_BYTE, 0, tag, MPI_COMM_WORLD);
        }
        if (i >= 5) t.push_back(now() - t0);
      }
      double m[2] = {median(t), t.empty() ? 0.0 : *std::min_element(t.begin(), t.end())};
      MPI_Bcast(m, 2, MPI_DOUBLE, 0, MPI_COMM_WORLD);
      return std::make_pair(m[0], m[1]);
    };
    auto desync_round = [&] {
      const WorkloadResult r = run_pingpong(cfg, MPI_COMM_WORLD);
      return std::make_pair(find_dataset(r, "pingpong", "round_trip_median")->values.at(0),
                            find_dataset(r, "pingpong", "round_trip_min")->values.at(0));
    };
    std::vector<std::pair<double, double>> t_raw, t_desync;  // (median, min) per round
    for (int k = 0; k < rounds; ++k) {  // alternating which goes first, so neither always follows the other
      if (k % 2) t_desync.push_back(desync_round());
      t_raw.push_back(raw_round());
      if (k % 2 == 0) t_desync.push_back(desync_round());
    }
    if (rank == 0) {
      std::vector<double> med_raw, med_ds;
      double min_raw = 1e300, min_ds = 1e300;
      for (int k = 0; k < rounds; ++k) {
        med_raw.push_back(t_raw[k].first);
        med_ds.push_back(t_desync[k].first);
        min_raw = std::min(min_raw, t_raw[k].second);
        min_ds = std::min(min_ds, t_desync[k].second);
      }
      const double raw = median(med_raw), ds = median(med_ds);
      fmt::print("ping-pong {} B between rank 0 and rank {}: {} rounds of {} round trips each\n", bytes, partner, rounds, reps);
      for (int k = 0; k < rounds; ++k)
        fmt::print("  round {}: median round trip desync {:.2f} us, raw MPI_Send/MPI_Recv {:.2f} us\n", k,
                   1e6 * t_desync[k].first, 1e6 * t_raw[k].first);
      const double b = 2e-9 * static_cast<double>(bytes);
      fmt::print("  bandwidth from the fastest round trip: desync {:.3f} GB/s, raw {:.3f} GB/s\n", b / min_ds, b / min_raw);
      fmt::print("  bandwidth from the median over rounds: desync {:.3f} GB/s, raw {:.3f} GB/s\n", b / ds, b / raw);
      fmt::print("  ratio desync/raw bandwidth: {:.4f} (fastest), {:.4f} (median) (goal >= 0.98)\n", min_raw / min_ds, raw / ds);
    }
  }
  MPI_Finalize();
  return 0;
}
