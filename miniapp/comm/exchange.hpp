#pragma once
// The one communication layer (docs/method.md, section 5): a persistent exchange built once from
// the messages one rank sends and receives, then driven by split-phase post() / complete() every
// iteration. It knows no workload: a message is (peer, byte offset into the buffer given to
// post(), bytes, tag). How messages travel is chosen once, at construction, from [comm]:
//   send      nonblocking: MPI_Isend each message after all receives are posted;
//             blocking:    MPI_Send one after another (receives pre-posted; the seed study);
//             parallel:    MPI_Send from host threads, dynamic schedule over messages; one
//                          thread sends all fragments of a message, in order, since only
//                          sends from one thread keep their order (MPI_THREAD_MULTIPLE);
//   fragment_bytes  messages above it go as fragments of at most that size, each its own MPI
//             message (the receiver posts one receive per fragment; same peer and tag, so MPI's
//             non-overtaking rule keeps them in order);
//   communicators   fragment j of a message with tag t goes over communicator (t + j) mod N;
//   progress  wait:   complete() is MPI_Waitall;
//             test:   the rank computes in chunks (comm/overlap.hpp) and calls test(), an
//                     MPI_Testall, after each; complete() waits for what is left;
//             thread: a progress thread tests the requests from post() on, while the rank
//             computes; complete() waits for it (MPI_THREAD_MULTIPLE).
//   gpu_aware_mpi   (comm/gpu_aware.hpp) for buffers in the default memory space
//             (BufferSpace::device): "staged" copies the sends' bytes to pinned host buffers
//             before the sends and the receives' bytes back after they complete
//             (comm/staging.hpp); buffers that live in host memory are never staged.
// post() and complete() allocate nothing; the options are not tested inside them (the send
// and completion functions are picked at construction). With [comm] record_messages every MPI
// message's post and completion time goes into the run's MessageLog (completion times come from
// MPI_Waitsome, one stamp per request as it completes).
#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "comm/channels.hpp"
#include "comm/communicators.hpp"
#include "config/config.hpp"

namespace desync {

struct Message {
  int peer = -1;
  std::size_t offset = 0;  // bytes from the base pointer given to post()
  std::size_t bytes = 0;
  int tag = 0;             // 0 .. channel_tags - 1, the same on both sides
};

class ProgressThread;
class Staging;

// Where the buffers given to post() live: host memory, or the default execution space's memory
// (Vector, Values<T>: device memory in a GPU build), which [comm] gpu_aware_mpi may stage.
enum class BufferSpace { host, device };

class Exchange {
 public:
  Exchange(const Communicators& comms, Channel channel, const std::vector<Message>& sends,
           const std::vector<Message>& recvs, const CommConfig& opt, BufferSpace space = BufferSpace::host);
  ~Exchange();
  Exchange(const Exchange&) = delete;
  Exchange& operator=(const Exchange&) = delete;

  // Posts every receive into recv_base, then the sends from send_base (in the chosen send mode).
  void post(const void* send_base, void* recv_base) { post_(*this, send_base, recv_base); }
  // Completes every receive and send of the last post().
  void complete() { finish_(*this); }
  // progress = "test": lets MPI advance the last post()'s requests (MPI_Testall; MPI_Testsome
  // when recording, to stamp each completion). A no-op in the other modes, so computation that
  // overlaps an exchange calls it unconditionally.
  void test() { test_(*this); }
  // How many of the n work items of an overlapped computation go between two test() calls:
  // [comm] test_interval (0: n/16, at least 1) with progress = "test", n otherwise.
  std::int64_t test_chunk(std::int64_t n) const;

  // Staged ([comm] gpu_aware_mpi): the host receive buffer at 0xff bytes before a checked
  // iteration (Staging::poison_recv); direct: nothing (the caller poisons its own buffer).
  void poison_staged_recv();

  std::size_t send_messages() const { return send_pieces_.size(); }  // MPI messages per post()
  std::size_t recv_messages() const { return recv_pieces_.size(); }

 private:
  struct Piece {
    int peer;
    std::size_t offset;
    int bytes;
    int tag;
    MPI_Comm comm;
    int comm_index;
  };
  // Pieces of every message, in order; `groups` gets each message's [begin, end) among them.
  static std::vector<Piece> cut(const Communicators& comms, Channel channel, const std::vector<Message>& list,
                                std::int64_t fragment_bytes, std::vector<std::pair<int, int>>* groups = nullptr);
  static void send_nonblocking(Exchange& x, const char* base);
  static void send_blocking(Exchange& x, const char* base);
  static void send_parallel(Exchange& x, const char* base);

  std::vector<std::pair<int, int>> send_groups_;  // per message: its pieces [begin, end); filled by
                                                  // cut() while send_pieces_ is built, so declared first
  std::vector<Piece> send_pieces_, recv_pieces_;
  std::vector<MPI_Request> requests_;  // receives, then (nonblocking) sends
  int active_ = 0;                     // requests used by one post()
  // post() and complete() as the options chose them at construction: staged or direct buffers,
  // recorded or not, and where a progress thread starts (before blocking sends, which would hold
  // the receives back, or after nonblocking ones). Nothing is tested per call.
  enum ProgressStart { no_thread, before_sends, after_sends };
  template <bool Staged, bool Logged, ProgressStart Thread>
  static void post_with(Exchange& x, const void* send_base, void* recv_base);
  template <bool Staged, bool Threaded>
  static void complete_with(Exchange& x);
  void (*post_)(Exchange&, const void*, void*) = nullptr;
  void (*finish_)(Exchange&) = nullptr;
  void (*send_)(Exchange&, const char*) = nullptr;
  void (*complete_)(Exchange&) = nullptr;
  void (*test_)(Exchange&) = nullptr;
  static void complete_waitall(Exchange& x);
  static void complete_logged(Exchange& x);
  static void test_none(Exchange&) {}
  static void test_all(Exchange& x);
  static void test_logged(Exchange& x);
  std::int64_t test_interval_ = 0;  // [comm] test_interval
  void log_post();
  // Where this post's send pieces record their post and completion times; null: not recording.
  struct Stamps {
    double* post = nullptr;
    double* done = nullptr;
  };
  Stamps send_stamps() const;
  MessageLog* log_ = nullptr;  // null unless [comm] record_messages
  std::int64_t first_ = -1;    // this post's first event in the log (receives, then sends); -1: none
  std::vector<int> done_index_;  // MPI_Waitsome's output (preallocated)
  // gpu_aware_mpi = staged: the host buffers (made at construction; null when MPI gets the
  // buffers directly) and the device receive buffer of the last post().
  std::unique_ptr<Staging> staging_;
  void* device_recv_ = nullptr;
  // Declared after the buffers and requests it tests, so it is joined before they are freed.
  std::unique_ptr<ProgressThread> progress_;
};

}  // namespace desync
