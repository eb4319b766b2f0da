#pragma once
// Reads one TOML table of a deck with defaults and range checks, records every key with its final
// value into the resolved configuration, and rejects keys nobody asked for. Every error names the
// location (file:line:column, or the --set argument), the key, the value and what is allowed.
#include <toml++/toml.h>

#include <array>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "config/config.hpp"
#include "core/enum_table.hpp"
#include "core/errors.hpp"

namespace desync {

// The widest range an integer key can ask for (TableReader::integer's max); one name for it, so
// that the deck readers of a unity batch do not each define their own.
inline constexpr std::int64_t kIntegerKeyMax = std::numeric_limits<std::int64_t>::max();

// "deck.toml:3:1" or "command line (--set run.iterations=x)".
std::string describe(const toml::source_region& where, const std::string& fallback);

class TableReader {
 public:
  // `in` may be null (table absent: every key takes its default). `name` is how errors show the
  // table ("run", "inject[1]"); `out` receives the resolved values.
  TableReader(const toml::table* in, std::string name, toml::table& out, std::string deck_path);

  std::int64_t integer(std::string_view key, std::int64_t def, std::int64_t min, std::int64_t max);
  // A key that acts only when `used` (e.g. window only in mode "bandwidth"): set to anything but
  // its default where it does not act, it is an error saying `why`. The default itself passes,
  // because resolved decks (check's output, /config/resolved) carry every key.
  template <class T>
  void only_where_used(std::string_view key, bool used, const T& value, const T& def, const std::string& why) const {
    if (!used && value != def) fail(key, why);
  }
  // The same rule for a key that is harmless where it does not act (a sweep switches the choice
  // that uses it with --set on a deck that sets it): a warning, collected by the sink that
  // warn_into gave (Config::deck_warnings), not an error.
  template <class T>
  void warn_where_unused(std::string_view key, bool used, const T& value, const T& def, const std::string& why) {
    if (!used && value != def && has(key)) warn(key, "has no effect: " + why);
  }
  // Where warnings go (nested readers inherit it); without a sink they are dropped.
  void warn_into(std::vector<std::string>* sink) { warnings_ = sink; }
  // A warning about `key` as the deck gives it ("[matrix] k = v <problem>", "[matrix.spin] <problem>");
  // nothing where the deck does not set it.
  void warn(std::string_view key, const std::string& problem);
  // An integer in [min, max] or the one word `word` (e.g. per_rank = 4 or "domain"): returns the
  // integer, or nullopt when the deck gives the word.
  std::optional<std::int64_t> integer_or_word(std::string_view key, std::int64_t def, std::int64_t min,
                                              std::int64_t max, std::string_view word);
  double real(std::string_view key, double def, double min, double max);
  bool boolean(std::string_view key, bool def);
  std::string string(std::string_view key, const std::string& def);
  std::vector<std::int64_t> integer_list(std::string_view key, const std::vector<std::int64_t>& def,
                                         std::int64_t min, std::int64_t max);

  template <class E, std::size_t N>
  E choice(std::string_view key, E def, const EnumTable<E, N>& table) {
    const toml::node* n = lookup(key);
    E v = def;
    if (n) {
      const auto s = n->value<std::string>();
      const auto parsed = s ? parse_enum(table, *s) : std::nullopt;
      if (!parsed) fail_value(key, *n, "allowed: " + enum_choices(table));
      v = *parsed;
    }
    out_.insert_or_assign(std::string(key), std::string(enum_name(table, v)));
    return v;
  }

  // One of the words `allowed` (a list known only at run time, e.g. the registry's workloads).
  std::string word(std::string_view key, const std::string& def, const std::vector<std::string>& allowed);

  std::vector<double> real_list(std::string_view key, const std::vector<double>& def, std::size_t length);
  // An array of min_length to max_length finite numbers.
  std::vector<double> real_list(std::string_view key, const std::vector<double>& def, std::size_t min_length,
                                std::size_t max_length);

  // An array of exactly def.size() enum names, e.g. boundary = ["periodic", "periodic", "open"].
  template <class E, std::size_t N, std::size_t K>
  std::array<E, K> choice_list(std::string_view key, const std::array<E, K>& def, const EnumTable<E, N>& table) {
    const toml::node* n = lookup(key);
    std::array<E, K> v = def;
    if (n) {
      const std::string allowed = "allowed: an array of " + std::to_string(K) + " of " + enum_choices(table);
      const auto* a = n->as_array();
      if (!a || a->size() != K) fail_value(key, *n, allowed);
      for (std::size_t i = 0; i < K; ++i) {
        const auto s = a->get(i)->value<std::string>();
        const auto parsed = s ? parse_enum(table, *s) : std::nullopt;
        if (!parsed) fail_value(key, *n, allowed);
        v[i] = *parsed;
      }
    }
    toml::array out;
    for (auto e : v) out.push_back(std::string(enum_name(table, e)));
    out_.insert_or_assign(std::string(key), std::move(out));
    return v;
  }

  // A non-empty array of distinct enum names of any length, e.g. ops = ["bcast", "reduce"].
  template <class E, std::size_t N>
  std::vector<E> choice_vector(std::string_view key, const std::vector<E>& def, const EnumTable<E, N>& table) {
    const toml::node* n = lookup(key);
    std::vector<E> v = def;
    if (n) {
      const std::string allowed = "allowed: a non-empty array of distinct names from " + enum_choices(table);
      const auto* a = n->as_array();
      if (!a || a->empty()) fail_value(key, *n, allowed);
      v.clear();
      for (std::size_t i = 0; i < a->size(); ++i) {
        const auto s = a->get(i)->value<std::string>();
        const auto parsed = s ? parse_enum(table, *s) : std::nullopt;
        if (!parsed) fail_value(key, *n, allowed);
        for (E e : v)
          if (e == *parsed) fail_value(key, *n, allowed);
        v.push_back(*parsed);
      }
    }
    toml::array out;
    for (auto e : v) out.push_back(std::string(enum_name(table, e)));
    out_.insert_or_assign(std::string(key), std::move(out));
    return v;
  }

  // A nested table such as [matrix.spin]: marks `key` as known; null if absent.
  const toml::table* subtable(std::string_view key);
  // A reader for that nested table (absent: all defaults), resolving into out[key].
  TableReader nested(std::string_view key);

  bool has(std::string_view key) const;
  // Keys valid here that this reading did not ask for (e.g. another generator's table), for the
  // list an unknown key's message gives.
  void also_valid(std::initializer_list<std::string_view> keys) { known_.insert(known_.end(), keys.begin(), keys.end()); }
  SourcePos position(std::string_view key) const;

  // For checks that involve the value of `key` together with others.
  [[noreturn]] void fail(std::string_view key, const std::string& problem) const;

  // Throws if the table holds a key that no accessor asked for.
  void finish() const;

 private:
  const toml::node* lookup(std::string_view key);
  [[noreturn]] void fail_value(std::string_view key, const toml::node& n,
                               const std::string& allowed) const;

  const toml::table* in_;
  std::string name_;
  toml::table& out_;
  std::string deck_path_;
  std::vector<std::string> known_;
  std::vector<std::string>* warnings_ = nullptr;
};

}  // namespace desync
