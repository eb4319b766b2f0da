#pragma once
// Collectives and block transfers over sub-communicators and their duplicates (papers.md E.2):
// the layer under the collective workloads (WorkloadDeck::collective), as Exchange is
// the layer under the halo exchanges. It knows no workload.
//   CommFamily   a communicator (a mesh row, a column, ...) and N_DUP - 1 duplicates of it; the
//                c-th part of a pipelined operation travels on duplicate c (N_DUP = 1: the
//                communicator alone, the non-overlapped algorithm);
//   part_of      the c-th of N_DUP contiguous parts of a buffer;
//   Collectives  posts MPI_Ibcast / MPI_Ireduce (sum) / MPI_Iallreduce / MPI_Isend / MPI_Irecv
//                and their blocking forms, keeps the requests in preallocated slots, and with a
//                CollectiveLog stamps each operation's post, return and completion (whether it
//                records is chosen once, at construction, as Exchange does); with `staged`
//                ([comm] gpu_aware_mpi resolved to staging, comm/gpu_aware.hpp) MPI gets pinned
//                host mirrors of the registered device buffers (comm/host_mirrors.hpp): the bytes
//                MPI reads are copied to the host at the post, the bytes it writes to the device
//                when the operation completes (the blocking forms' return, wait, wait_all).
// Counts above INT_MAX are refused at set-up by the workloads (one part is one MPI call).
#include <mpi.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "comm/host_mirrors.hpp"
#include "core/clock.hpp"
#include "record/collective_log.hpp"

namespace desync {

class CommFamily {
 public:
  // Collective over comm. Takes ownership of comm if `owned` (a split made for this family).
  CommFamily(MPI_Comm comm, int n_dup, int id, bool owned);
  ~CommFamily();
  CommFamily(const CommFamily&) = delete;
  CommFamily& operator=(const CommFamily&) = delete;

  MPI_Comm operator[](int c) const { return comms_[static_cast<std::size_t>(c)]; }
  int dups() const { return static_cast<int>(comms_.size()); }
  int id() const { return id_; }      // the log's family index
  int rank() const { return rank_; }  // this rank's index in the communicator
  int size() const { return size_; }

 private:
  std::vector<MPI_Comm> comms_;
  int id_, rank_ = 0, size_ = 1;
  bool owned_;
};

// A split of comm as a family: MPI_Comm_split(comm, color, key), then n_dup - 1 duplicates.
std::unique_ptr<CommFamily> split_family(MPI_Comm comm, int color, int key, int n_dup, int id);

struct Part {
  std::int64_t offset = 0, count = 0;
};

// The c-th of `parts` contiguous parts of `count` elements; the first count % parts are one
// element longer.
inline Part part_of(std::int64_t count, int parts, int c) {
  const std::int64_t base = count / parts, extra = count % parts;
  return {c * base + (c < extra ? c : extra), base + (c < extra ? 1 : 0)};
}

class Collectives {
 public:
  // max_requests: the most operations in flight between two wait_all() calls. staged: MPI gets
  // host mirrors of the buffers registered with mirror() (chosen once, here).
  Collectives(int max_requests, std::shared_ptr<CollectiveLog> log, bool staged = false);

  // Set-up: a device buffer of `bytes` bytes that operations will be handed (parts of it too).
  // Staged: allocates its host mirror; an unregistered buffer is a logic_error at its first
  // operation. Direct: nothing.
  void mirror(const void* device, std::size_t bytes);
  bool staged() const { return mirrors_ != nullptr; }
  // Staged: copies a registered device buffer into its mirror (the workload poisoned the buffer
  // before a checked iteration: a receive that delivers nothing must not leave the mirror's older,
  // equal values to be copied back); direct: nothing.
  void refresh_mirror(const void* device, std::size_t bytes);

  // Nonblocking operations on duplicate c of family f; each returns its request's slot.
  int ibcast(const CommFamily& f, int c, void* buf, std::int64_t count, MPI_Datatype t, int root);
  int ireduce(const CommFamily& f, int c, const void* send, void* recv, std::int64_t count, MPI_Datatype t, int root);
  int iallreduce(const CommFamily& f, int c, const void* send, void* recv, std::int64_t count, MPI_Datatype t);
  int isend(const CommFamily& f, int c, const void* buf, std::int64_t count, MPI_Datatype t, int peer, int tag);
  int irecv(const CommFamily& f, int c, void* buf, std::int64_t count, MPI_Datatype t, int peer, int tag);
  void wait(int slot);
  // Completes every request posted since the last wait_all(); the slots start again at 0.
  void wait_all();

  // Blocking forms, on duplicate 0 (MPI_Bcast, MPI_Reduce, MPI_Allreduce, MPI_Send, MPI_Recv).
  void bcast(const CommFamily& f, void* buf, std::int64_t count, MPI_Datatype t, int root);
  void reduce(const CommFamily& f, const void* send, void* recv, std::int64_t count, MPI_Datatype t, int root);
  void allreduce(const CommFamily& f, const void* send, void* recv, std::int64_t count, MPI_Datatype t);
  void send(const CommFamily& f, const void* buf, std::int64_t count, MPI_Datatype t, int peer, int tag);
  void recv(const CommFamily& f, void* buf, std::int64_t count, MPI_Datatype t, int peer, int tag);

  const std::shared_ptr<CollectiveLog>& log() const { return log_; }

 private:
  MPI_Request* next();
  double stamp() const { return clock_(); }
  int slot(CollKind k, const CommFamily& f, int c, int root, std::int64_t count, MPI_Datatype t, double t0);
  void logged(CollKind k, const CommFamily& f, int c, int root, std::int64_t count, MPI_Datatype t, double t0);
  static double no_clock() { return 0.0; }
  // Recording (or not), chosen at construction: a slot's log event, its completion stamp, the
  // wait for all (MPI_Waitall, or MPI_Waitsome with a stamp per completion).
  static void note_none(Collectives&, int, CollKind, const CommFamily&, int, int, std::int64_t, MPI_Datatype, double, bool);
  static void note_logged(Collectives&, int, CollKind, const CommFamily&, int, int, std::int64_t, MPI_Datatype, double, bool);
  static void done_none(Collectives&, int);
  static void done_logged(Collectives&, int);
  static void wait_all_plain(Collectives&);
  static void wait_all_logged(Collectives&);
  // The buffer MPI reads (in: copied to the host mirror when staged), the buffer MPI writes (out:
  // the mirror), its copy to the device after a blocking call (back) or at the completion of
  // slot s (later, then flush at wait / wait_all). Direct: the buffer itself, no copies.
  static const void* in_direct(Collectives&, const void* p, std::int64_t, MPI_Datatype) { return p; }
  static void* out_direct(Collectives&, void* p, std::int64_t, MPI_Datatype) { return p; }
  static void back_direct(Collectives&, void*, std::int64_t, MPI_Datatype) {}
  static void later_direct(Collectives&, int, void*, std::int64_t, MPI_Datatype) {}
  static void flush_direct(Collectives&, int) {}
  static const void* in_staged(Collectives&, const void* p, std::int64_t count, MPI_Datatype t);
  static void* out_staged(Collectives&, void* p, std::int64_t count, MPI_Datatype t);
  static void back_staged(Collectives&, void* p, std::int64_t count, MPI_Datatype t);
  static void later_staged(Collectives&, int s, void* p, std::int64_t count, MPI_Datatype t);
  static void flush_staged(Collectives&, int s);

  std::vector<MPI_Request> req_;
  std::vector<std::int64_t> event_;  // the log event of each slot (-1: none)
  std::vector<int> index_;           // MPI_Waitsome's completed slots
  int used_ = 0;
  std::shared_ptr<CollectiveLog> log_;
  double (*clock_)() = no_clock;
  void (*note_)(Collectives&, int, CollKind, const CommFamily&, int, int, std::int64_t, MPI_Datatype, double, bool) = note_none;
  void (*done_)(Collectives&, int) = done_none;
  void (*wait_all_)(Collectives&) = wait_all_plain;

  struct Pending {
    void* device = nullptr;  // null: nothing to copy back for this slot
    std::size_t bytes = 0;
  };
  std::unique_ptr<HostMirrors> mirrors_;  // null: direct
  std::vector<Pending> pending_;         // per slot, staged only
  const void* (*in_)(Collectives&, const void*, std::int64_t, MPI_Datatype) = in_direct;
  void* (*out_)(Collectives&, void*, std::int64_t, MPI_Datatype) = out_direct;
  void (*back_)(Collectives&, void*, std::int64_t, MPI_Datatype) = back_direct;
  void (*later_)(Collectives&, int, void*, std::int64_t, MPI_Datatype) = later_direct;
  void (*flush_)(Collectives&, int) = flush_direct;
};

}  // namespace desync
