#include "record/message_log.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace desync {

MessageLog::MessageLog(std::int64_t capacity)
    : capacity_(capacity),
      peer_(static_cast<std::size_t>(capacity), -1),
      comm_(static_cast<std::size_t>(capacity), -1),
      tag_(static_cast<std::size_t>(capacity), -1),
      bytes_(static_cast<std::size_t>(capacity), 0),
      send_(static_cast<std::size_t>(capacity), 0),
      post_(static_cast<std::size_t>(capacity), std::numeric_limits<double>::quiet_NaN()),
      done_(static_cast<std::size_t>(capacity), std::numeric_limits<double>::quiet_NaN()) {}

void MessageLog::to_common(const ClockMap& map) {
  for (std::int64_t i = 0; i < count_; ++i) {
    post_[static_cast<std::size_t>(i)] = map(post_[static_cast<std::size_t>(i)]);
    done_[static_cast<std::size_t>(i)] = map(done_[static_cast<std::size_t>(i)]);
  }
}

MessageLog MessageLog::snapshot() const {
  MessageLog m(count_);
  m.count_ = count_;
  m.dropped_ = dropped_;
  const auto n = static_cast<std::ptrdiff_t>(count_);
  std::copy(peer_.begin(), peer_.begin() + n, m.peer_.begin());
  std::copy(comm_.begin(), comm_.begin() + n, m.comm_.begin());
  std::copy(tag_.begin(), tag_.begin() + n, m.tag_.begin());
  std::copy(bytes_.begin(), bytes_.begin() + n, m.bytes_.begin());
  std::copy(send_.begin(), send_.begin() + n, m.send_.begin());
  std::copy(post_.begin(), post_.begin() + n, m.post_.begin());
  std::copy(done_.begin(), done_.begin() + n, m.done_.begin());
  return m;
}

}  // namespace desync
