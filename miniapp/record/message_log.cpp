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

void MessageLog::shift(double amount) {
  for (std::int64_t i = 0; i < count_; ++i) {
    post_[static_cast<std::size_t>(i)] -= amount;
    done_[static_cast<std::size_t>(i)] -= amount;
  }
}

}  // namespace desync
