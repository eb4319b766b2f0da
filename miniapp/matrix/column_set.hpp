#pragma once
// Collects the distinct remote columns one chunk of rows touches. Neighbouring rows share most
// of them, so the list is compacted (sort + unique) whenever it doubles since the last
// compaction: memory stays near the distinct count, and the work stays O(n log n) even when
// nothing repeats (wide matrices such as HHQ "pe").
#include <algorithm>
#include <vector>

#include "matrix/generator.hpp"

namespace desync {

class ColumnSet {
 public:
  void add(GlobalIndex c) {
    v_.push_back(c);
    if (v_.size() >= limit_) compact();
  }
  void compact() {
    std::sort(v_.begin(), v_.end());
    v_.erase(std::unique(v_.begin(), v_.end()), v_.end());
    limit_ = std::max<std::size_t>(limit_, 2 * v_.size());
  }
  // Merges sets into one sorted, distinct list, releasing them as it goes.
  static std::vector<GlobalIndex> merge(std::vector<ColumnSet>& sets) {
    std::vector<GlobalIndex> all;
    for (auto& s : sets) {
      s.compact();
      all.insert(all.end(), s.v_.begin(), s.v_.end());
      std::vector<GlobalIndex>().swap(s.v_);
    }
    std::sort(all.begin(), all.end());
    all.erase(std::unique(all.begin(), all.end()), all.end());
    return all;
  }

 private:
  std::vector<GlobalIndex> v_;
  std::size_t limit_ = 16384;
};

}  // namespace desync
