#include "record/collective_log.hpp"

#include <limits>

namespace desync {

CollectiveLog::CollectiveLog(std::int64_t capacity, std::vector<std::string> families)
    : capacity_(capacity), families_(std::move(families)) {
  const auto n = static_cast<std::size_t>(capacity);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  kind_.assign(n, 0);
  family_.assign(n, -1);
  dup_.assign(n, -1);
  root_.assign(n, -1);
  bytes_.assign(n, 0);
  post_.assign(n, nan);
  posted_.assign(n, nan);
  done_.assign(n, nan);
}

void CollectiveLog::shift(double amount) {
  for (std::int64_t i = 0; i < count_; ++i) {
    const auto k = static_cast<std::size_t>(i);
    post_[k] -= amount;
    posted_[k] -= amount;
    done_[k] -= amount;
  }
}

}  // namespace desync
