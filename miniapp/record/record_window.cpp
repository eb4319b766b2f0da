#include "record/record_window.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace desync {

KeptRows kept_rows(std::int64_t rows, std::int64_t warmup, std::int64_t begin, std::int64_t end, std::int64_t stride) {
  KeptRows k;
  const std::int64_t first = -warmup, last = rows - warmup;  // recorded: first..last-1
  stride = std::max<std::int64_t>(stride, 1);
  if (end > last && begin < last)
    k.clipped = fmt::format("[record] window = [{}, {}] reaches past the recorded iterations {}..{}; kept up to {}",
                            begin, end, first, last - 1, last - 1);
  else if (begin >= last)  // the load refuses such a window for a whole run: this one stopped early
    k.clipped = rows > 0 ? fmt::format("[record] window = [{}, {}] starts after the recorded iterations {}..{}; /timeline "
                                       "keeps no iteration", begin, end, first, last - 1)
                         : fmt::format("[record] window = [{}, {}]: the run recorded no iteration; /timeline keeps none",
                                       begin, end);
  if (begin < first) begin += (first - begin + stride - 1) / stride * stride;  // keeps the stride's phase
  for (std::int64_t it = begin; it < std::min(end, last); it += stride) {
    k.row.push_back(it + warmup);
    k.iteration.push_back(it);
  }
  k.all = static_cast<std::int64_t>(k.row.size()) == rows;
  return k;
}

std::vector<double> kept_events(const Timeline& tl, const KeptRows& k) {
  if (k.all) return tl.data();
  const auto e = static_cast<std::size_t>(tl.events());
  std::vector<double> out(k.row.size() * e);
  for (std::size_t i = 0; i < k.row.size(); ++i)
    std::copy_n(tl.data().begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(k.row[i]) * e), e,
                out.begin() + static_cast<std::ptrdiff_t>(i * e));
  return out;
}

namespace {

double first_event(const Timeline& tl, std::int64_t row) {
  double t = std::numeric_limits<double>::infinity();
  for (int e = 0; e < tl.events(); ++e)
    if (std::isfinite(tl.at(row, e))) t = std::min(t, tl.at(row, e));
  return t;
}

}  // namespace

std::vector<std::uint8_t> kept_by_time(const Timeline& tl, const KeptRows& k, const std::vector<double>& times) {
  std::vector<std::uint8_t> mask(times.size(), k.all ? 1 : 0);
  if (k.all) return mask;
  // Start of every row (a row without events starts where the next one does).
  const std::int64_t rows = tl.iterations();
  std::vector<double> start(static_cast<std::size_t>(rows) + 1, std::numeric_limits<double>::infinity());
  for (std::int64_t r = rows - 1; r >= 0; --r) {
    const double t = first_event(tl, r);
    start[static_cast<std::size_t>(r)] = std::isfinite(t) ? t : start[static_cast<std::size_t>(r) + 1];
  }
  std::vector<std::uint8_t> kept(static_cast<std::size_t>(rows), 0);
  for (std::int64_t r : k.row) kept[static_cast<std::size_t>(r)] = 1;
  for (std::size_t i = 0; i < times.size(); ++i) {
    if (!std::isfinite(times[i]) || times[i] < start[0]) continue;
    // The last row whose start is <= the time (starts are non-decreasing in a run).
    const auto it = std::upper_bound(start.begin(), start.end() - 1, times[i]);
    const auto row = static_cast<std::size_t>(it - start.begin()) - 1;
    mask[i] = kept[row];
  }
  return mask;
}

}  // namespace desync
