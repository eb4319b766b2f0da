#include "comm/exchange.hpp"

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>

#include "comm/staging.hpp"
#include "core/clock.hpp"
#include "core/log.hpp"

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
  // done: per request, where to store its completion time (null: not recorded); index: scratch.
  void start(MPI_Request* r, int n, double* done = nullptr, int* index = nullptr) {
    {
      std::lock_guard<std::mutex> lock(m_);
      reqs_ = r;
      n_ = n;
      done_ = done;
      index_ = index;
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
      if (done_) {
        int left = n_;
        // quit_: the exchange is torn down mid-flight (an exception on the way to MPI_Abort):
        // stop testing requests whose buffers are about to go.
        while (left > 0 && !quit_.load(std::memory_order_relaxed)) {
          int k = 0;
          MPI_Testsome(n_, reqs_, &k, index_, MPI_STATUSES_IGNORE);
          if (k == MPI_UNDEFINED) break;
          const double t = now();
          for (int j = 0; j < k; ++j) done_[index_[j]] = t;
          left -= k;
        }
      } else {
        int done = 0;
        while (!done && !quit_.load(std::memory_order_relaxed)) MPI_Testall(n_, reqs_, &done, MPI_STATUSES_IGNORE);
      }
      lock.lock();
      busy_ = false;
      cv_.notify_all();
    }
  }
  std::mutex m_;
  std::condition_variable cv_;
  MPI_Request* reqs_ = nullptr;
  int n_ = 0;
  double* done_ = nullptr;
  int* index_ = nullptr;
  bool busy_ = false;
  std::atomic<bool> quit_{false};
  std::thread thread_;
};

namespace {

// An exchange of more MPI messages than this (fragment_bytes of a few bytes: one request per
// fragment) runs orders of magnitude slower than the same bytes whole (measured: 20000-byte
// messages 24x slower at fragment_bytes = 1 than at 100): said once per process, by rank 0.
constexpr std::size_t many_pieces = 65536;

void say_many_pieces(std::int64_t fragment_bytes, std::size_t pieces) {
  static bool said = false;
  if (said) return;
  said = true;
  log::warn("[comm] fragment_bytes = {} cuts rank 0's exchange into {} MPI messages (one request each); expect a slow "
            "run (larger fragments: fewer messages)\n",
            fragment_bytes, pieces);
}

}  // namespace

std::vector<Exchange::Piece> Exchange::cut(const Communicators& comms, Channel channel, const std::vector<Message>& list,
                                           std::int64_t fragment_bytes, std::vector<std::pair<int, int>>* groups) {
  const auto limit = static_cast<std::size_t>(piece_limit(fragment_bytes));
  std::vector<Piece> out;
  for (const Message& m : list) {
    if (m.peer < 0) continue;
    if (m.tag < 0 || m.tag >= channel_tags) throw std::logic_error("Exchange: tag out of range");
    const auto n = static_cast<std::size_t>(message_pieces(static_cast<std::int64_t>(m.bytes), fragment_bytes));
    if (groups) groups->emplace_back(static_cast<int>(out.size()), static_cast<int>(out.size() + n));
    for (std::size_t j = 0; j < n; ++j) {
      const std::size_t begin = j * limit, len = std::min(limit, m.bytes - std::min(m.bytes, begin));
      const int k = static_cast<int>((static_cast<std::size_t>(m.tag) + j) % static_cast<std::size_t>(comms.size()));
      out.push_back({m.peer, m.offset + begin, static_cast<int>(len), mpi_tag(channel, m.tag), comms[k], k});
    }
  }
  return out;
}

Exchange::Exchange(const Communicators& comms, Channel channel, const std::vector<Message>& sends,
                   const std::vector<Message>& recvs, const CommConfig& opt, BufferSpace space)
    : send_pieces_(cut(comms, channel, sends, opt.fragment_bytes, &send_groups_)),
      recv_pieces_(cut(comms, channel, recvs, opt.fragment_bytes)) {
  switch (opt.send) {
    case SendMode::nonblocking: send_ = send_nonblocking; break;
    case SendMode::blocking: send_ = send_blocking; break;
    case SendMode::parallel: send_ = send_parallel; break;
  }
  active_ = static_cast<int>(recv_pieces_.size() + (opt.send == SendMode::nonblocking ? send_pieces_.size() : 0));
  requests_.assign(static_cast<std::size_t>(active_), MPI_REQUEST_NULL);
  log_ = comms.log().get();
  complete_ = log_ ? complete_logged : complete_waitall;
  done_index_.assign(static_cast<std::size_t>(active_), 0);
  if (opt.progress == ProgressMode::thread) progress_ = std::make_unique<ProgressThread>();
  if (send_pieces_.size() + recv_pieces_.size() > many_pieces) say_many_pieces(opt.fragment_bytes, send_pieces_.size() + recv_pieces_.size());
  test_interval_ = opt.test_interval;
  test_ = opt.progress != ProgressMode::test ? test_none : log_ ? test_logged : test_all;
  if (space == BufferSpace::device && comms.gpu_aware().staged) {
    const auto span = [](const std::vector<Piece>& list) {
      ByteRange r{list.empty() ? 0 : list.front().offset, 0};
      for (const Piece& p : list) {
        r.begin = std::min(r.begin, p.offset);
        r.end = std::max(r.end, p.offset + static_cast<std::size_t>(p.bytes));
      }
      return r;
    };
    staging_ = std::make_unique<Staging>(span(send_pieces_), span(recv_pieces_));
  }
  const ProgressStart thread = !progress_ ? no_thread : opt.send == SendMode::nonblocking ? after_sends : before_sends;
  const bool staged = staging_ != nullptr, logged = log_ != nullptr;
  using Post = void (*)(Exchange&, const void*, void*);
  static constexpr Post table[2][2][3] = {
      {{post_with<false, false, no_thread>, post_with<false, false, before_sends>, post_with<false, false, after_sends>},
       {post_with<false, true, no_thread>, post_with<false, true, before_sends>, post_with<false, true, after_sends>}},
      {{post_with<true, false, no_thread>, post_with<true, false, before_sends>, post_with<true, false, after_sends>},
       {post_with<true, true, no_thread>, post_with<true, true, before_sends>, post_with<true, true, after_sends>}}};
  post_ = table[staged][logged][thread];
  finish_ = staged ? (progress_ ? complete_with<true, true> : complete_with<true, false>)
                   : (progress_ ? complete_with<false, true> : complete_with<false, false>);
}

void Exchange::poison_staged_recv() {
  if (staging_) staging_->poison_recv();
}

std::int64_t Exchange::test_chunk(std::int64_t n) const {
  if (test_ == test_none || n <= 0) return n;
  const std::int64_t c = test_interval_ > 0 ? test_interval_ : (n + 15) / 16;
  return std::min(n, std::max<std::int64_t>(1, c));
}

Exchange::~Exchange() = default;

Exchange::Stamps Exchange::send_stamps() const {
  if (!log_ || first_ < 0) return {};
  const std::int64_t s0 = first_ + static_cast<std::int64_t>(recv_pieces_.size());  // sends follow receives
  return {log_->post_times() + s0, log_->done_times() + s0};
}

void Exchange::send_nonblocking(Exchange& x, const char* base) {
  const Stamps st = x.send_stamps();
  MPI_Request* r = x.requests_.data() + x.recv_pieces_.size();
  std::size_t i = 0;
  for (const Piece& p : x.send_pieces_) {
    if (st.post) st.post[i++] = now();
    MPI_Isend(base + p.offset, p.bytes, MPI_BYTE, p.peer, p.tag, p.comm, r++);
  }
}

void Exchange::send_blocking(Exchange& x, const char* base) {
  const Stamps st = x.send_stamps();
  std::size_t i = 0;
  for (const Piece& p : x.send_pieces_) {
    if (st.post) st.post[i] = now();
    MPI_Send(base + p.offset, p.bytes, MPI_BYTE, p.peer, p.tag, p.comm);
    if (st.done) st.done[i] = now();
    ++i;
  }
}

void Exchange::send_parallel(Exchange& x, const char* base) {
  const Stamps st = x.send_stamps();
  const Piece* pieces = x.send_pieces_.data();
  const std::pair<int, int>* groups = x.send_groups_.data();
  using Policy = Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace, Kokkos::Schedule<Kokkos::Dynamic>>;
  static const std::string label = "desync::comm::parallel_send";  // once: Kokkos copies a literal per launch
  Kokkos::parallel_for(label, Policy(0, static_cast<int>(x.send_groups_.size())), [=](int m) {
    for (int i = groups[m].first; i < groups[m].second; ++i) {
      const Piece& p = pieces[i];
      if (st.post) st.post[i] = now();
      MPI_Send(base + p.offset, p.bytes, MPI_BYTE, p.peer, p.tag, p.comm);
      if (st.done) st.done[i] = now();
    }
  });
  Kokkos::DefaultHostExecutionSpace().fence();
}

void Exchange::log_post() {
  first_ = log_->reserve(static_cast<std::int64_t>(recv_pieces_.size() + send_pieces_.size()));
  if (first_ < 0) return;
  std::int64_t i = first_;
  for (const Piece& p : recv_pieces_) log_->describe(i++, p.peer, p.bytes, p.comm_index, p.tag, false);
  for (const Piece& p : send_pieces_) log_->describe(i++, p.peer, p.bytes, p.comm_index, p.tag, true);
}

template <bool Staged, bool Logged, Exchange::ProgressStart Thread>
void Exchange::post_with(Exchange& x, const void* send_base, void* recv_base) {
  if constexpr (Staged) {  // MPI gets the host copies
    x.device_recv_ = recv_base;
    send_base = x.staging_->to_host(send_base);
    recv_base = x.staging_->recv_base();
  }
  double* recv_post = nullptr;
  double* done = nullptr;
  if constexpr (Logged) {
    x.log_post();
    if (x.first_ >= 0) {  // the log has room for this post
      recv_post = x.log_->post_times() + x.first_;
      done = x.log_->done_times() + x.first_;
    }
  }
  auto* rb = static_cast<char*>(recv_base);
  MPI_Request* r = x.requests_.data();
  for (const Piece& p : x.recv_pieces_) {
    if constexpr (Logged)
      if (recv_post) *recv_post++ = now();
    MPI_Irecv(rb + p.offset, p.bytes, MPI_BYTE, p.peer, p.tag, p.comm, r++);
  }
  // Receives progress during blocking sends; after nonblocking ones, the sends too.
  if constexpr (Thread == before_sends) x.progress_->start(x.requests_.data(), x.active_, done, x.done_index_.data());
  x.send_(x, static_cast<const char*>(send_base));
  if constexpr (Thread == after_sends) x.progress_->start(x.requests_.data(), x.active_, done, x.done_index_.data());
}

template <bool Staged, bool Threaded>
void Exchange::complete_with(Exchange& x) {
  if constexpr (Threaded)
    x.progress_->finish();
  else
    x.complete_(x);
  if constexpr (Staged) x.staging_->to_device(x.device_recv_);  // the receives are in the host buffer
}

void Exchange::complete_waitall(Exchange& x) { MPI_Waitall(x.active_, x.requests_.data(), MPI_STATUSES_IGNORE); }

void Exchange::test_all(Exchange& x) {
  int flag = 0;
  MPI_Testall(x.active_, x.requests_.data(), &flag, MPI_STATUSES_IGNORE);
}

// As complete_logged, one MPI_Testsome: requests that completed get their time and become
// MPI_REQUEST_NULL, which complete() then skips.
void Exchange::test_logged(Exchange& x) {
  if (x.first_ < 0) return test_all(x);
  int k = 0;
  MPI_Testsome(x.active_, x.requests_.data(), &k, x.done_index_.data(), MPI_STATUSES_IGNORE);
  if (k == MPI_UNDEFINED || k == 0) return;
  const double t = now();
  double* done = x.log_->done_times() + x.first_;
  for (int j = 0; j < k; ++j) done[x.done_index_[static_cast<std::size_t>(j)]] = t;
}

// Requests complete one by one; each gets its own completion time (receives first in the log,
// then nonblocking sends: the same order as the requests).
void Exchange::complete_logged(Exchange& x) {
  if (x.first_ < 0) return complete_waitall(x);
  double* done = x.log_->done_times() + x.first_;
  int left = x.active_;
  while (left > 0) {
    int k = 0;
    MPI_Waitsome(x.active_, x.requests_.data(), &k, x.done_index_.data(), MPI_STATUSES_IGNORE);
    if (k == MPI_UNDEFINED) break;
    const double t = now();
    for (int j = 0; j < k; ++j) done[x.done_index_[static_cast<std::size_t>(j)]] = t;
    left -= k;
  }
}

}  // namespace desync
