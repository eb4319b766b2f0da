#include "config/noise_file.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>

#include "core/errors.hpp"
#include "core/log.hpp"

namespace desync {

std::string noise_file_path(const std::string& deck_path, const std::string& file) {
  if (file.empty() || file.front() == '/') return file;
  const std::size_t slash = deck_path.rfind('/');
  return slash == std::string::npos ? file : deck_path.substr(0, slash + 1) + file;
}

NoiseTable parse_noise_file(const std::string& text, const std::string& path, const std::string& key) {
  NoiseTable t;
  t.path = path;
  std::size_t line_no = 0, at = 0, first_line = 0;
  const auto fail = [&](std::size_t column, const std::string& problem) {
    throw DeckError(fmt::format("{}: {}:{}:{}: {}", key, path, line_no, column, problem));
  };
  while (at < text.size()) {
    ++line_no;
    std::size_t end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    // A comment ends the line's numbers (searched within the line: the file may be large).
    const std::size_t stop = static_cast<std::size_t>(std::find(text.begin() + static_cast<std::ptrdiff_t>(at),
                                                                text.begin() + static_cast<std::ptrdiff_t>(end), '#') -
                                                      text.begin());
    std::int64_t in_row = 0;
    std::size_t i = at;
    while (i < stop) {
      const char c = text[i];
      if (c == ' ' || c == '\t' || c == ',' || c == '\r') {
        ++i;
        continue;
      }
      std::size_t j = i;
      while (j < stop && text[j] != ' ' && text[j] != '\t' && text[j] != ',' && text[j] != '\r') ++j;
      double v = 0.0;
      // from_chars reads no '+' (a script may write one) and no hex here (general format only).
      const std::size_t from = text[i] == '+' && j > i + 1 ? i + 1 : i;
      const auto r = std::from_chars(text.data() + from, text.data() + j, v, std::chars_format::general);
      const std::string token = log::printable(text.substr(i, j - i), 40);
      if (r.ptr != text.data() + j || (r.ec != std::errc() && r.ec != std::errc::result_out_of_range))
        fail(i - at + 1, fmt::format("'{}' is not a number of seconds; allowed: numbers 0 .. {} separated by blanks "
                                     "or commas, one line per iteration, one column per rank ('#' starts a comment)",
                                     token, max_noise_file_seconds));
      if (r.ec == std::errc::result_out_of_range || !std::isfinite(v) || v < 0.0 || v > max_noise_file_seconds)
        fail(i - at + 1, fmt::format("{} s is out of range; allowed: 0 .. {} seconds", token, max_noise_file_seconds));
      t.seconds.push_back(v);
      ++in_row;
      i = j;
    }
    if (in_row > 0) {
      if (t.rows == 0) {
        t.columns = in_row;
        first_line = line_no;
      } else if (in_row != t.columns) {
        fail(1, fmt::format("{} number(s) on this line, line {} (the first with numbers) has {}; every line needs "
                            "one per rank", in_row, first_line, t.columns));
      }
      ++t.rows;
    }
    at = end + 1;
  }
  if (t.rows == 0)
    throw DeckError(fmt::format("{}: {}: no numbers; give one line per iteration, one column per rank, seconds",
                                key, path));
  t.text = text;
  return t;
}

std::string noise_file_key(const NoiseConfig& noise) {
  return fmt::format("{}: error: [noise] file = \"{}\"", noise.file_pos.where, log::printable(noise.file, 200));
}

std::int64_t noise_window_length(const Config& cfg) {
  const std::int64_t first = std::max(cfg.noise.window_begin, -cfg.run.warmup);
  const std::int64_t end = std::min(cfg.noise.window_end, cfg.run.iterations);
  return std::max<std::int64_t>(end - first, 0);
}

std::string noise_file_summary(const Config& cfg) {
  const NoiseConfig& n = cfg.noise;
  if (n.kind != NoiseKind::file || !n.table) return {};
  return fmt::format("# noise file {}: {} line(s) x {} column(s) (one per rank), {} bytes\n", log::printable(n.table->path, 200),
                     n.table->rows, n.table->columns, n.table->text.size());
}

std::vector<std::string> noise_file_warnings(const Config& cfg) {
  std::vector<std::string> out;
  const NoiseConfig& n = cfg.noise;
  if (n.kind != NoiseKind::file || !n.table) return out;
  const std::int64_t noisy = noise_window_length(cfg);
  if (n.table->rows < noisy)
    out.push_back(fmt::format("{}: [noise] file = \"{}\" has {} line(s) for {} iterations with noise: the lines repeat "
                              "(iteration k of the window takes line k mod {})",
                              n.file_pos.where, n.file, n.table->rows, noisy, n.table->rows));
  return out;
}

}  // namespace desync
