#include "comm/exchange.hpp"

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <climits>
#include <condition_variable>
#include <mutex>
#include <stdexcept>
#include <thread>

namespace desync {

// Drives a set of requests to completion with MPI_Testall from its own thread while the rank's
// compute threads work: the library then progresses rendezvous transfers without waiting for
// the rank to enter MPI. One thread per exchange, idle (blocked) between a complete() and the
// next post().
class ProgressThread {
 public:
  ProgressThread() : thread_([this] { loop(); }) {}
  ~ProgressThread() {
    {
      std::lock_guard<std::mutex> lock(m_);
      quit_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }
  void start(MPI_Request* r, int n) {
    {
      std::lock_guard<std::mutex> lock(m_);
      reqs_ = r;
      n_ = n;
      busy_ = true;
    }
    cv_.notify_all();
  }
  void finish() {
    std::unique_lock<std::mutex> lock(m_);
    cv_.wait(lock, [this] { return !busy_; });
  }

 private:
  void loop() {
    std::unique_lock<std::mutex> lock(m_);
    while (true) {
      cv_.wait(lock, [this] { return busy_ || quit_; });
      if (quit_) return;
      lock.unlock();
      int done = 0;
      while (!done) MPI_Testall(n_, reqs_, &done, MPI_STATUSES_IGNORE);
      lock.lock();
      busy_ = false;
      cv_.notify_all();
    }
  }
  std::mutex m_;
  std::condition_variable cv_;
  MPI_Request* reqs_ = nullptr;
  int n_ = 0;
  bool busy_ = false, quit_ = false;
  std::thread thread_;
};

std::vector<Exchange::Piece> Exchange::cut(const Communicators& comms, Channel channel, const std::vector<Message>& list,
                                           std::int64_t fragment_bytes, std::vector<std::pair<int, int>>* groups) {
  // Whole messages still go in pieces MPI's int count can hold.
  const std::size_t limit = fragment_bytes > 0 ? static_cast<std::size_t>(fragment_bytes) : static_cast<std::size_t>(INT_MAX);
  std::vector<Piece> out;
  for (const Message& m : list) {
    if (m.peer < 0) continue;
    if (m.tag < 0 || m.tag >= channel_tags) throw std::logic_error("Exchange: tag out of range");
    const std::size_t n = m.bytes == 0 ? 1 : (m.bytes + limit - 1) / limit;
    if (groups) groups->emplace_back(static_cast<int>(out.size()), static_cast<int>(out.size() + n));
    for (std::size_t j = 0; j < n; ++j) {
      const std::size_t begin = j * limit, len = std::min(limit, m.bytes - std::min(m.bytes, begin));
      const int k = static_cast<int>((static_cast<std::size_t>(m.tag) + j) % static_cast<std::size_t>(comms.size()));
      out.push_back({m.peer, m.offset + begin, static_cast<int>(len), mpi_tag(channel, m.tag), comms[k]});
    }
  }
  return out;
}

Exchange::Exchange(const Communicators& comms, Channel channel, const std::vector<Message>& sends,
                   const std::vector<Message>& recvs, const CommConfig& opt)
    : send_pieces_(cut(comms, channel, sends, opt.fragment_bytes, &send_groups_)),
      recv_pieces_(cut(comms, channel, recvs, opt.fragment_bytes)) {
  switch (opt.send) {
    case SendMode::nonblocking: send_ = send_nonblocking; break;
    case SendMode::blocking: send_ = send_blocking; break;
    case SendMode::parallel: send_ = send_parallel; break;
  }
  active_ = static_cast<int>(recv_pieces_.size() + (opt.send == SendMode::nonblocking ? send_pieces_.size() : 0));
  requests_.assign(static_cast<std::size_t>(active_), MPI_REQUEST_NULL);
  if (opt.progress == ProgressMode::thread) progress_ = std::make_unique<ProgressThread>();
}

Exchange::~Exchange() = default;

void Exchange::send_nonblocking(Exchange& x, const char* base) {
  MPI_Request* r = x.requests_.data() + x.recv_pieces_.size();
  for (const Piece& p : x.send_pieces_) MPI_Isend(base + p.offset, p.bytes, MPI_BYTE, p.peer, p.tag, p.comm, r++);
}

void Exchange::send_blocking(Exchange& x, const char* base) {
  for (const Piece& p : x.send_pieces_) MPI_Send(base + p.offset, p.bytes, MPI_BYTE, p.peer, p.tag, p.comm);
}

void Exchange::send_parallel(Exchange& x, const char* base) {
  const Piece* pieces = x.send_pieces_.data();
  const std::pair<int, int>* groups = x.send_groups_.data();
  using Policy = Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace, Kokkos::Schedule<Kokkos::Dynamic>>;
  Kokkos::parallel_for("desync::comm::parallel_send", Policy(0, static_cast<int>(x.send_groups_.size())), [=](int m) {
    for (int i = groups[m].first; i < groups[m].second; ++i) {
      const Piece& p = pieces[i];
      MPI_Send(base + p.offset, p.bytes, MPI_BYTE, p.peer, p.tag, p.comm);
    }
  });
  Kokkos::DefaultHostExecutionSpace().fence();
}

void Exchange::post(const void* send_base, void* recv_base) {
  auto* rb = static_cast<char*>(recv_base);
  MPI_Request* r = requests_.data();
  for (const Piece& p : recv_pieces_) MPI_Irecv(rb + p.offset, p.bytes, MPI_BYTE, p.peer, p.tag, p.comm, r++);
  if (progress_ && send_ != send_nonblocking) progress_->start(requests_.data(), active_);  // receives progress during blocking sends
  send_(*this, static_cast<const char*>(send_base));
  if (progress_ && send_ == send_nonblocking) progress_->start(requests_.data(), active_);
}

void Exchange::complete() {
  if (progress_)
    progress_->finish();
  else
    MPI_Waitall(active_, requests_.data(), MPI_STATUSES_IGNORE);
}

}  // namespace desync
