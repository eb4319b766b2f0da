#pragma once
// The recorder's window and stride ([record] window, stride; docs/decks.md): which timeline rows
// a results file keeps in full. The run records every iteration in memory (about 100 bytes per
// iteration and rank), computes every statistic and metric from all of them, and only then keeps
// the chosen rows for /timeline and the messages and collective parts posted in them, so a run of
// 5x10^4 steps on hundreds of ranks writes a small file.
#include <cstdint>
#include <string>
#include <vector>

#include "record/timeline.hpp"

namespace desync {

struct KeptRows {
  bool all = true;                     // every row kept: nothing to filter
  std::vector<std::int64_t> row;       // timeline rows kept (indices, ascending)
  std::vector<std::int64_t> iteration; // their deck numbers (row - warm-up)
  std::string clipped;                 // non-empty: the window reached past the recorded rows (a note)
};

// Rows of a timeline with `rows` rows of which `warmup` are warm-up, in the deck's numbering
// window [begin, end) with stride: begin, begin + stride, ... < end, clipped to -warmup..rows-warmup-1.
KeptRows kept_rows(std::int64_t rows, std::int64_t warmup, std::int64_t begin, std::int64_t end, std::int64_t stride);

// The kept rows of tl's events, row-major [kept][events].
std::vector<double> kept_events(const Timeline& tl, const KeptRows& k);

// For each time (a message's or collective part's post time, common time base): 1 if it falls
// into a kept row's span, [first event of the row, first event of the next row); the last row's
// span is open. Times before the first row (set-up) or NaN are not kept.
std::vector<std::uint8_t> kept_by_time(const Timeline& tl, const KeptRows& k, const std::vector<double>& times);

// The entries of v where mask is 1.
template <class T>
std::vector<T> select(const std::vector<T>& v, const std::vector<std::uint8_t>& mask) {
  std::vector<T> out;
  for (std::size_t i = 0; i < v.size(); ++i)
    if (mask[i]) out.push_back(v[i]);
  return out;
}

}  // namespace desync
