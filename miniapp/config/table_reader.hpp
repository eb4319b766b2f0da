#pragma once
// Reads one TOML table of a deck with defaults and range checks, records every key with its final
// value into the resolved configuration, and rejects keys nobody asked for. Every error names the
// location (file:line:column, or the --set argument), the key, the value and what is allowed.
#include <toml++/toml.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "config/config.hpp"
#include "config/enum_table.hpp"
#include "core/errors.hpp"

namespace desync {

// "deck.toml:3:1" or "command line (--set run.iterations=x)".
std::string describe(const toml::source_region& where, const std::string& fallback);

class TableReader {
 public:
  // `in` may be null (table absent: every key takes its default). `name` is how errors show the
  // table ("run", "inject[1]"); `out` receives the resolved values.
  TableReader(const toml::table* in, std::string name, toml::table& out, std::string deck_path);

  std::int64_t integer(std::string_view key, std::int64_t def, std::int64_t min, std::int64_t max);
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

  bool has(std::string_view key) const;
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
};

}  // namespace desync
