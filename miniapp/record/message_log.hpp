#pragma once
// Message events (`[comm] record_messages`): per MPI message a rank sends or receives, the peer,
// bytes, communicator, tag, the time it was posted and the time it completed, on the rank's
// clock (shifted to the common time base before writing, like the timeline). Preallocated like
// the timeline: a full log counts what it drops instead of growing (docs/output.md, /messages).
#include <cstdint>
#include <vector>

#include "record/clock_offset.hpp"

namespace desync {

class MessageLog {
 public:
  // Bytes of one event (peer, comm, tag, bytes, send, post, done): in memory, allocated for the
  // whole capacity up front, and in the file.
  static constexpr double event_bytes = 4 + 4 + 4 + 8 + 1 + 8 + 8;
  explicit MessageLog(std::int64_t capacity);

  // Reserves n consecutive events; returns the first index, or -1 if they do not fit (dropped).
  std::int64_t reserve(std::int64_t n) {
    if (count_ + n > capacity_) {
      dropped_ += n;
      return -1;
    }
    const std::int64_t first = count_;
    count_ += n;
    return first;
  }
  void describe(std::int64_t i, int peer, std::int64_t bytes, int comm, int tag, bool send) {
    const auto k = static_cast<std::size_t>(i);
    peer_[k] = peer;
    bytes_[k] = bytes;
    comm_[k] = comm;
    tag_[k] = tag;
    send_[k] = send ? 1 : 0;
  }
  double* post_times() { return post_.data(); }
  double* done_times() { return done_.data(); }

  std::int64_t count() const { return count_; }
  std::int64_t dropped() const { return dropped_; }
  // Converts local clock readings to the common time base (record/clock_offset.hpp); NaN stays NaN.
  void to_common(const ClockMap& map);
  // A copy holding only the events so far (a flush during the run): capacity = count().
  MessageLog snapshot() const;

  // Column views of the first count() events.
  std::vector<std::int32_t> peer() const { return {peer_.begin(), peer_.begin() + count_}; }
  std::vector<std::int64_t> bytes() const { return {bytes_.begin(), bytes_.begin() + count_}; }
  std::vector<std::int32_t> comm() const { return {comm_.begin(), comm_.begin() + count_}; }
  std::vector<std::int32_t> tag() const { return {tag_.begin(), tag_.begin() + count_}; }
  std::vector<std::uint8_t> send() const { return {send_.begin(), send_.begin() + count_}; }
  std::vector<double> post() const { return {post_.begin(), post_.begin() + count_}; }
  std::vector<double> done() const { return {done_.begin(), done_.begin() + count_}; }

 private:
  std::int64_t capacity_, count_ = 0, dropped_ = 0;
  std::vector<std::int32_t> peer_, comm_, tag_;
  std::vector<std::int64_t> bytes_;
  std::vector<std::uint8_t> send_;
  std::vector<double> post_, done_;
};

}  // namespace desync
