#include "record/collective_log.hpp"

#include <algorithm>
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

void CollectiveLog::to_common(const ClockMap& map) {
  for (std::int64_t i = 0; i < count_; ++i) {
    const auto k = static_cast<std::size_t>(i);
    post_[k] = map(post_[k]);
    posted_[k] = map(posted_[k]);
    done_[k] = map(done_[k]);
  }
}

CollectiveLog CollectiveLog::snapshot() const {
  CollectiveLog c(count_, families_);
  c.count_ = count_;
  c.dropped_ = dropped_;
  const auto n = static_cast<std::ptrdiff_t>(count_);
  std::copy(kind_.begin(), kind_.begin() + n, c.kind_.begin());
  std::copy(family_.begin(), family_.begin() + n, c.family_.begin());
  std::copy(dup_.begin(), dup_.begin() + n, c.dup_.begin());
  std::copy(root_.begin(), root_.begin() + n, c.root_.begin());
  std::copy(bytes_.begin(), bytes_.begin() + n, c.bytes_.begin());
  std::copy(post_.begin(), post_.begin() + n, c.post_.begin());
  std::copy(posted_.begin(), posted_.begin() + n, c.posted_.begin());
  std::copy(done_.begin(), done_.begin() + n, c.done_.begin());
  return c;
}

}  // namespace desync
