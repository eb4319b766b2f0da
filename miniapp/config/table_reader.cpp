#include "config/table_reader.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

#include "config/suggest.hpp"
#include "core/log.hpp"

namespace desync {
namespace {

constexpr std::string_view set_prefix = "--set ";

// Values as a user would type them (toml++ prints strings in single quotes).
// One line, at most 80 characters: long arrays, tables and multi-line strings are cut.
std::string value_text(const toml::node& n) {
  if (const auto* s = n.as_string()) return "\"" + log::printable(s->get(), 80) + "\"";
  if (const auto* f = n.as_floating_point()) {
    // As written: 0.3, not toml++'s 0.29999999999999999; 64.0 stays a float (not "64", which
    // would contradict "allowed: an integer").
    std::string t = fmt::format("{}", f->get());
    if (t.find_first_of(".eEna") == std::string::npos) t += ".0";
    return t;
  }
  std::ostringstream os;
  n.visit([&os](const auto& v) { os << v; });
  std::string t = os.str();
  for (char& c : t)
    if (c == '\n') c = ' ';
  std::string one;
  for (char c : t)
    if (!(c == ' ' && !one.empty() && one.back() == ' ')) one += c;
  // A dotted key (kernel.name = ...) or an inline table where a value belongs: say what it is.
  if (n.is_table()) return "a table { " + log::printable(one, 80) + " }";
  return log::printable(one, 80);
}

std::string range_text(std::int64_t min, std::int64_t max) {
  constexpr auto lo = std::numeric_limits<std::int64_t>::min();
  constexpr auto hi = std::numeric_limits<std::int64_t>::max();
  if (min == lo && max == hi) return "any integer";
  if (max == hi) return fmt::format("an integer >= {}", min);
  if (min == lo) return fmt::format("an integer <= {}", max);
  return fmt::format("an integer in [{}, {}]", min, max);
}

std::string range_text(double min, double max) {
  const bool has_min = min > -std::numeric_limits<double>::max();
  const bool has_max = max < std::numeric_limits<double>::max();
  if (has_min && has_max) return fmt::format("a number in [{}, {}]", min, max);
  // nan and inf parse as TOML floats and are refused: the message says why.
  if (has_min) return fmt::format("a finite number >= {}", min);
  if (has_max) return fmt::format("a finite number <= {}", max);
  return "a finite number";
}

}  // namespace

std::string describe(const toml::source_region& where, const std::string& fallback) {
  const std::string path = where.path ? *where.path : std::string();
  if (path.rfind(set_prefix, 0) == 0) return "command line (" + path + ")";
  if (where.begin.line == 0) return fallback;
  return fmt::format("{}:{}:{}", path.empty() ? fallback : path, where.begin.line,
                     where.begin.column);
}

TableReader::TableReader(const toml::table* in, std::string name, toml::table& out,
                         std::string deck_path)
    : in_(in), name_(std::move(name)), out_(out), deck_path_(std::move(deck_path)) {}

const toml::node* TableReader::lookup(std::string_view key) {
  known_.emplace_back(key);
  return in_ ? in_->get(key) : nullptr;
}

bool TableReader::has(std::string_view key) const { return in_ && in_->contains(key); }

SourcePos TableReader::position(std::string_view key) const {
  const toml::node* n = in_ ? in_->get(key) : nullptr;
  if (n) return {describe(n->source(), deck_path_)};
  return {in_ ? describe(in_->source(), deck_path_) : deck_path_};
}

void TableReader::fail(std::string_view key, const std::string& problem) const {
  const toml::node* n = in_ ? in_->get(key) : nullptr;
  if (n)
    throw DeckError(fmt::format("{}: error: [{}] {} = {}: {}", position(key).where, name_, key,
                                value_text(*n), problem));
  throw DeckError(fmt::format("{}: error: [{}] {}: {}", position(key).where, name_, key, problem));
}

void TableReader::warn(std::string_view key, const std::string& problem) {
  const toml::node* n = in_ ? in_->get(key) : nullptr;
  if (!warnings_ || !n) return;
  warnings_->push_back(n->is_table() ? fmt::format("{}: [{}.{}] {}", position(key).where, name_, key, problem)
                                     : fmt::format("{}: [{}] {} = {} {}", position(key).where, name_, key, value_text(*n), problem));
}

std::string TableReader::word(std::string_view key, const std::string& def, const std::vector<std::string>& allowed) {
  const toml::node* n = lookup(key);
  std::string v = def;
  if (n) {
    const auto s = n->value<std::string>();
    const bool ok = s && std::find(allowed.begin(), allowed.end(), *s) != allowed.end();
    if (!ok) {
      std::string list;
      for (const auto& a : allowed) list += (list.empty() ? "\"" : ", \"") + a + "\"";
      fail_value(key, *n, "allowed: " + list);
    }
    v = *s;
  }
  out_.insert_or_assign(std::string(key), v);
  return v;
}

void TableReader::fail_value(std::string_view key, const toml::node& n,
                             const std::string& allowed) const {
  throw DeckError(fmt::format("{}: error: [{}] {} = {}: not allowed; {}",
                              describe(n.source(), deck_path_), name_, key, value_text(n),
                              allowed));
}

std::int64_t TableReader::integer(std::string_view key, std::int64_t def, std::int64_t min,
                                  std::int64_t max) {
  const toml::node* n = lookup(key);
  std::int64_t v = def;
  if (n) {
    const auto x = n->as_integer();
    if (!x || x->get() < min || x->get() > max) fail_value(key, *n, "allowed: " + range_text(min, max));
    v = x->get();
  }
  out_.insert_or_assign(std::string(key), v);
  return v;
}

std::optional<std::int64_t> TableReader::integer_or_word(std::string_view key, std::int64_t def, std::int64_t min,
                                                         std::int64_t max, std::string_view word) {
  const toml::node* n = lookup(key);
  if (n && n->value<std::string>() == std::string(word)) {
    out_.insert_or_assign(std::string(key), std::string(word));
    return std::nullopt;
  }
  std::int64_t v = def;
  if (n) {
    const auto x = n->as_integer();
    if (!x || x->get() < min || x->get() > max)
      fail_value(key, *n, fmt::format("allowed: {} or \"{}\"", range_text(min, max), word));
    v = x->get();
  }
  out_.insert_or_assign(std::string(key), v);
  return v;
}

double TableReader::real(std::string_view key, double def, double min, double max) {
  const toml::node* n = lookup(key);
  double v = def;
  if (n) {
    std::optional<double> x;
    if (const auto* f = n->as_floating_point()) x = f->get();
    if (const auto* i = n->as_integer()) x = static_cast<double>(i->get());
    if (!x || !std::isfinite(*x) || *x < min || *x > max)
      fail_value(key, *n, "allowed: " + range_text(min, max));
    v = *x;
  }
  out_.insert_or_assign(std::string(key), v);
  return v;
}

bool TableReader::boolean(std::string_view key, bool def) {
  const toml::node* n = lookup(key);
  bool v = def;
  if (n) {
    const auto* b = n->as_boolean();
    if (!b) fail_value(key, *n, "allowed: true, false");
    v = b->get();
  }
  out_.insert_or_assign(std::string(key), v);
  return v;
}

std::string TableReader::string(std::string_view key, const std::string& def) {
  const toml::node* n = lookup(key);
  std::string v = def;
  if (n) {
    const auto* s = n->as_string();
    if (!s) fail_value(key, *n, "allowed: a string");
    v = s->get();
  }
  out_.insert_or_assign(std::string(key), v);
  return v;
}

std::vector<std::int64_t> TableReader::integer_list(std::string_view key,
                                                    const std::vector<std::int64_t>& def,
                                                    std::int64_t min, std::int64_t max) {
  const toml::node* n = lookup(key);
  std::vector<std::int64_t> v = def;
  if (n) {
    const std::string allowed = "allowed: a non-empty array, each element " + range_text(min, max);
    const auto* a = n->as_array();
    if (!a || a->empty()) fail_value(key, *n, allowed);
    v.clear();
    for (const auto& e : *a) {
      const auto* x = e.as_integer();
      if (!x || x->get() < min || x->get() > max) fail_value(key, *n, allowed);
      v.push_back(x->get());
    }
  }
  toml::array out;
  for (auto x : v) out.push_back(x);
  out_.insert_or_assign(std::string(key), std::move(out));
  return v;
}

std::vector<double> TableReader::real_list(std::string_view key, const std::vector<double>& def,
                                           std::size_t length) {
  return real_list(key, def, length, length);
}

std::vector<double> TableReader::real_list(std::string_view key, const std::vector<double>& def,
                                           std::size_t min_length, std::size_t max_length) {
  const toml::node* n = lookup(key);
  std::vector<double> v = def;
  if (n) {
    const std::string allowed = min_length == max_length
                                    ? fmt::format("allowed: an array of {} numbers", min_length)
                                    : fmt::format("allowed: an array of {} to {} numbers", min_length, max_length);
    const auto* a = n->as_array();
    if (!a || a->size() < min_length || a->size() > max_length) fail_value(key, *n, allowed);
    v.clear();
    for (const auto& e : *a) {
      std::optional<double> x;
      if (const auto* f = e.as_floating_point()) x = f->get();
      if (const auto* i = e.as_integer()) x = static_cast<double>(i->get());
      if (!x || !std::isfinite(*x)) fail_value(key, *n, allowed);
      v.push_back(*x);
    }
  }
  toml::array out;
  for (auto x : v) out.push_back(x);
  out_.insert_or_assign(std::string(key), std::move(out));
  return v;
}

const toml::table* TableReader::subtable(std::string_view key) {
  const toml::node* n = lookup(key);
  if (!n) return nullptr;
  const auto* t = n->as_table();
  if (!t) fail_value(key, *n, "allowed: a table ([" + name_ + "." + std::string(key) + "])");
  return t;
}

TableReader TableReader::nested(std::string_view key) {
  const toml::table* t = subtable(key);
  out_.insert_or_assign(std::string(key), toml::table{});
  TableReader r(t, name_ + "." + std::string(key), *out_.get(key)->as_table(), deck_path_);
  r.warn_into(warnings_);
  return r;
}

void TableReader::finish() const {
  if (!in_) return;
  for (const auto& [k, node] : *in_) {
    bool ok = false;
    for (const auto& name : known_) ok = ok || name == k.str();
    if (ok) continue;
    std::string valid;
    for (std::size_t i = 0; i < known_.size(); ++i)
      if (std::find(known_.begin(), known_.begin() + static_cast<std::ptrdiff_t>(i), known_[i]) == known_.begin() + static_cast<std::ptrdiff_t>(i))
        valid += (valid.empty() ? "" : ", ") + known_[i];  // each once: a key may be asked for twice
    throw DeckError(fmt::format("{}: error: unknown key '{}' in [{}]{} (valid keys: {})",
                                describe(k.source(), describe(node.source(), deck_path_)),
                                k.str(), name_, did_you_mean(k.str(), known_), valid));
  }
}

}  // namespace desync
