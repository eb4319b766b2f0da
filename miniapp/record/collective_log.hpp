#pragma once
// Collective events (`[comm] record_messages` in the collective workloads, docs/output.md
// /collectives): per operation a rank posts (a broadcast, a reduction, one part of a pipelined
// one, a point-to-point block transfer), its kind, the communicator family and duplicate it ran
// on, the root or peer, the bytes, when the call began, when it returned (the post time the study
// reads) and when the rank's wait for it returned. Preallocated; a full log counts what it drops.
#include <cstdint>
#include <string>
#include <vector>

#include "record/clock_offset.hpp"

namespace desync {

enum class CollKind : std::uint8_t { bcast = 1, reduce = 2, allreduce = 3, send = 4, recv = 5 };

class CollectiveLog {
 public:
  // Bytes of one part (kind, family, dup, root, bytes, post, posted, done): in memory, allocated
  // for the whole capacity up front, and in the file.
  static constexpr double event_bytes = 1 + 4 + 4 + 4 + 8 + 8 + 8 + 8;
  // families: the names of the communicator families (row, column, ...), indexed by `family`.
  CollectiveLog(std::int64_t capacity, std::vector<std::string> families);

  // A new event; returns its index, or -1 if the log is full (counted as dropped).
  std::int64_t add(CollKind kind, int family, int dup, int root, std::int64_t bytes, double post, double posted) {
    if (count_ >= capacity_) {
      ++dropped_;
      return -1;
    }
    const auto k = static_cast<std::size_t>(count_);
    kind_[k] = static_cast<std::uint8_t>(kind);
    family_[k] = family;
    dup_[k] = dup;
    root_[k] = root;
    bytes_[k] = bytes;
    post_[k] = post;
    posted_[k] = posted;
    return count_++;
  }
  void done(std::int64_t i, double t) {
    if (i >= 0) done_[static_cast<std::size_t>(i)] = t;
  }

  std::int64_t count() const { return count_; }
  std::int64_t dropped() const { return dropped_; }
  const std::vector<std::string>& families() const { return families_; }
  // Converts local clock readings to the common time base (record/clock_offset.hpp); NaN stays NaN.
  void to_common(const ClockMap& map);
  // A copy holding only the events so far (a flush during the run): capacity = count().
  CollectiveLog snapshot() const;

  // Column views of the first count() events.
  std::vector<std::uint8_t> kind() const { return head(kind_); }
  std::vector<std::int32_t> family() const { return head(family_); }
  std::vector<std::int32_t> dup() const { return head(dup_); }
  std::vector<std::int32_t> root() const { return head(root_); }
  std::vector<std::int64_t> bytes() const { return head(bytes_); }
  std::vector<double> post() const { return head(post_); }
  std::vector<double> posted() const { return head(posted_); }
  std::vector<double> done() const { return head(done_); }

 private:
  template <class T>
  std::vector<T> head(const std::vector<T>& v) const { return {v.begin(), v.begin() + count_}; }

  std::int64_t capacity_, count_ = 0, dropped_ = 0;
  std::vector<std::string> families_;
  std::vector<std::uint8_t> kind_;
  std::vector<std::int32_t> family_, dup_, root_;
  std::vector<std::int64_t> bytes_;
  std::vector<double> post_, posted_, done_;
};

}  // namespace desync
