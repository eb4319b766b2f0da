// The communication layer's cost per exchange against the same messages with raw MPI calls
// (issue goal: at most 2% at 16 KiB, next-neighbour). Each rank exchanges one message of B bytes
// with each of its two ring neighbours; the layer (comm/exchange.hpp, the default [comm]:
// nonblocking sends, wait) and raw MPI_Irecv/MPI_Isend/MPI_Waitall alternate in rounds of K
// exchanges, every round from a barrier, and every exchange is timed on its own. Reported: the
// ratio of the minimum exchange times (the undisturbed cost, stable on a shared machine) and of
// the medians (what a run sees), over all rounds. Run with as many
// ranks as cores, bound:  mpiexec -n 2 --bind-to core bench_comm [--bytes B] [--exchanges K] [--rounds R]
#include <fmt/core.h>
#include <mpi.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <vector>

#include "bench_util.hpp"
#include "comm/exchange.hpp"
#include "core/clock.hpp"
#include "core/mpi_util.hpp"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  {
    Kokkos::ScopeGuard kokkos(argc, argv);
    using namespace desync;
    const auto bytes = static_cast<std::size_t>(bench::arg(argc, argv, "--bytes", 16384));
    const int k = static_cast<int>(bench::arg(argc, argv, "--exchanges", 2000));
    const int rounds = static_cast<int>(bench::arg(argc, argv, "--rounds", 7));
    const int rank = comm_rank(MPI_COMM_WORLD), size = comm_size(MPI_COMM_WORLD);
    const int right = (rank + 1) % size, left = (rank + size - 1) % size;
    std::vector<char> send(2 * bytes, 1), recv(2 * bytes, 0);

    const Communicators comms(MPI_COMM_WORLD, 1);
    // Tag 0 goes right (received from the left), tag 1 goes left: unique even for 2 ranks.
    const std::vector<Message> sends{{right, 0, bytes, 0}, {left, bytes, bytes, 1}};
    const std::vector<Message> recvs{{left, 0, bytes, 0}, {right, bytes, bytes, 1}};
    Exchange layer(comms, Channel::bench, sends, recvs, CommConfig{});
    std::vector<double> t_layer, t_raw;
    t_layer.reserve(static_cast<std::size_t>(k) * rounds);
    t_raw.reserve(static_cast<std::size_t>(k) * rounds);
    auto run_layer = [&] {
      for (int i = 0; i < k; ++i) {
        const double t0 = now();
        layer.post(send.data(), recv.data());
        layer.complete();
        t_layer.push_back(now() - t0);
      }
    };
    MPI_Request req[4];
    const int tag_r = mpi_tag(Channel::bench, 0), tag_l = mpi_tag(Channel::bench, 1), n = static_cast<int>(bytes);
    auto run_raw = [&] {
      for (int i = 0; i < k; ++i) {
        const double t0 = now();
        MPI_Irecv(recv.data(), n, MPI_BYTE, left, tag_r, MPI_COMM_WORLD, &req[0]);
        MPI_Irecv(recv.data() + bytes, n, MPI_BYTE, right, tag_l, MPI_COMM_WORLD, &req[1]);
        MPI_Isend(send.data(), n, MPI_BYTE, right, tag_r, MPI_COMM_WORLD, &req[2]);
        MPI_Isend(send.data() + bytes, n, MPI_BYTE, left, tag_l, MPI_COMM_WORLD, &req[3]);
        MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
        t_raw.push_back(now() - t0);
      }
    };
    for (int r = 0; r < rounds; ++r) {
      MPI_Barrier(MPI_COMM_WORLD);
      run_raw();
      MPI_Barrier(MPI_COMM_WORLD);
      run_layer();
    }
    // Per rank, then the slowest rank's figure: an exchange is over when every rank is done.
    double t[4] = {*std::min_element(t_layer.begin(), t_layer.end()), *std::min_element(t_raw.begin(), t_raw.end()),
                   bench::median(t_layer), bench::median(t_raw)};
    MPI_Allreduce(MPI_IN_PLACE, t, 4, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    if (rank == 0) {
      fmt::print("comm layer overhead: {} ranks, ring, {} B per message, {} x {} exchanges each\n", size, bytes, rounds, k);
      fmt::print("  per exchange, minimum: layer {:.3f} us, raw MPI {:.3f} us\n", 1e6 * t[0], 1e6 * t[1]);
      fmt::print("  per exchange, median:  layer {:.3f} us, raw MPI {:.3f} us\n", 1e6 * t[2], 1e6 * t[3]);
      fmt::print("  ratio layer/raw: {:.4f} (minimum), {:.4f} (median) (goal <= 1.02)\n", t[0] / t[1], t[2] / t[3]);
    }
  }
  MPI_Finalize();
  return 0;
}
