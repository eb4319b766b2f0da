#include "config/suggest.hpp"

#include <algorithm>
#include <cctype>
#include <numeric>

namespace desync {

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  std::iota(row.begin(), row.end(), std::size_t{0});
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diag = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      const bool same = std::tolower(static_cast<unsigned char>(a[i - 1])) ==
                        std::tolower(static_cast<unsigned char>(b[j - 1]));
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (same ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

std::string closest(std::string_view word, const std::vector<std::string>& candidates) {
  std::string best;
  std::size_t best_d = static_cast<std::size_t>(-1);
  for (const auto& c : candidates) {
    const std::size_t d = edit_distance(word, c);
    if (d < best_d) {
      best_d = d;
      best = c;
    }
  }
  return best;
}

std::string did_you_mean(std::string_view word, const std::vector<std::string>& candidates) {
  const std::size_t near = std::max<std::size_t>(2, word.size() / 3);
  const std::string best = closest(word, candidates);
  if (!best.empty() && edit_distance(word, best) <= near) return "; did you mean '" + best + "'?";
  // A misspelt part of a compound name (barier for compare_barrier).
  for (const auto& c : candidates) {
    std::size_t start = 0;
    while (start <= c.size()) {
      const std::size_t end = std::min(c.find('_', start), c.size());
      if (end > start && edit_distance(word, std::string_view(c).substr(start, end - start)) <= near / 2)
        return "; did you mean '" + c + "'?";
      start = end + 1;
    }
  }
  return "";
}

}  // namespace desync
