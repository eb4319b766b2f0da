#include "comm/node_layout.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <thread>

#include "core/clock.hpp"
#include "core/mpi_util.hpp"

namespace desync {
namespace {

double process_cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         1e-6 * static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

}  // namespace

NodeLayout node_layout(MPI_Comm comm, int ranks_per_node) {
  const int rank = comm_rank(comm), size = comm_size(comm);
  NodeLayout l;
  l.emulated = ranks_per_node > 0;
  // A node's key: its lowest rank (the ranks sharing memory agree on it with one MIN).
  int key = rank;
  if (l.emulated) {
    key = rank / ranks_per_node * ranks_per_node;
  } else {
    MPI_Comm shared;
    MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &shared);
    MPI_Allreduce(MPI_IN_PLACE, &key, 1, MPI_INT, MPI_MIN, shared);
    MPI_Comm_free(&shared);
  }
  std::vector<int> keys(static_cast<std::size_t>(size));
  MPI_Allgather(&key, 1, MPI_INT, keys.data(), 1, MPI_INT, comm);
  std::vector<int> sorted = keys;
  std::sort(sorted.begin(), sorted.end());
  sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
  l.nodes = static_cast<int>(sorted.size());
  std::vector<int> count(sorted.size(), 0), last(sorted.size(), -2);
  l.node_of.resize(static_cast<std::size_t>(size));
  l.local_of.resize(static_cast<std::size_t>(size));
  for (int r = 0; r < size; ++r) {
    const auto n = static_cast<std::size_t>(std::lower_bound(sorted.begin(), sorted.end(), keys[static_cast<std::size_t>(r)]) - sorted.begin());
    l.node_of[static_cast<std::size_t>(r)] = static_cast<int>(n);
    l.local_of[static_cast<std::size_t>(r)] = count[n]++;
    if (last[n] != -2 && last[n] != r - 1) l.natural = false;
    last[n] = r;
  }
  l.node = l.node_of[static_cast<std::size_t>(rank)];
  l.local = l.local_of[static_cast<std::size_t>(rank)];
  l.ppn_max = *std::max_element(count.begin(), count.end());
  l.ppn_min = *std::min_element(count.begin(), count.end());
  return l;
}

ActiveRanks::ActiveRanks(MPI_Comm comm, const NodeLayout& layout, int active_ppn) : world_(comm) {
  all_ = active_ppn <= 0 || active_ppn >= layout.ppn_max;
  active_ = all_ || layout.local < active_ppn;
  const int key = layout.node * layout.ppn_max + layout.local;
  MPI_Comm_split(comm, active_ ? 0 : MPI_UNDEFINED, key, &kernel_);
  count_ = active_ ? comm_size(kernel_) : 0;
  MPI_Bcast(&count_, 1, MPI_INT, 0, comm);  // world rank 0 is node 0's first rank: always active
}

ActiveRanks::~ActiveRanks() {
  if (kernel_ != MPI_COMM_NULL) MPI_Comm_free(&kernel_);
}

ParkRecord ActiveRanks::park() {
  ParkRecord p;
  if (all_) return p;
  const double t0 = now(), c0 = process_cpu_seconds();
  MPI_Request req;
  MPI_Ibarrier(world_, &req);
  int done = 0;
  for (;;) {
    MPI_Test(&req, &done, MPI_STATUS_IGNORE);
    ++p.polls;
    if (done) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  p.wall = now() - t0;
  p.cpu = process_cpu_seconds() - c0;
  return p;
}

void ActiveRanks::release() {
  if (all_) return;
  MPI_Request req;
  MPI_Ibarrier(world_, &req);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
}

}  // namespace desync
