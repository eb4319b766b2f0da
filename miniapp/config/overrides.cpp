#include "config/overrides.hpp"

#include <fmt/format.h>

#include "core/errors.hpp"
#include "core/log.hpp"

namespace desync {
namespace {

std::string quoted(const std::string& s) {
  std::string q = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') q += '\\';
    q += c;
  }
  return q + '"';
}

std::vector<std::string> split_path(const std::string& path) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (true) {
    const auto dot = path.find('.', start);
    parts.push_back(path.substr(start, dot - start));
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  return parts;
}

}  // namespace

void apply_override(toml::table& root, const std::string& arg) {
  const auto eq = arg.find('=');
  const std::string where = "command line (--set " + log::printable(arg, 120) + ")";
  // One override is one key and one value: a newline would smuggle in further keys.
  for (unsigned char c : arg)
    if (c < 0x20 || c == 0x7f)
      throw DeckError(where + ": error: control character in the argument; allowed: one line of printable text");
  if (eq == std::string::npos || eq == 0)
    throw DeckError(where + ": error: expected table.key=value");
  const std::string path = arg.substr(0, eq);
  const std::string value = arg.substr(eq + 1);
  const auto parts = split_path(path);
  for (const auto& p : parts)
    if (p.empty()) throw DeckError(where + ": error: empty key in '" + path + "'");
  if (parts.size() < 2)
    throw DeckError(where + ": error: '" + path + "' names no table; use table.key=value");

  const std::string source = "--set " + arg;
  toml::table parsed;
  try {
    parsed = toml::parse("v = " + value, source);
  } catch (const toml::parse_error&) {
    try {
      parsed = toml::parse("v = " + quoted(value), source);
    } catch (const toml::parse_error& e) {
      throw DeckError(where + ": error: the value is neither TOML nor a plain string: " + std::string(e.description()));
    }
  }

  toml::table* t = &root;
  for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
    toml::node* n = t->get(parts[i]);
    if (!n) {
      // A table the deck lacks, made with --set's source: an error about it names the command line.
      toml::table made = toml::parse("[t]\n", source);
      t->insert(parts[i], std::move(*made.get("t")->as_table()));
      n = t->get(parts[i]);
    }
    t = n->as_table();
    if (!t)
      throw DeckError(fmt::format("{}: error: '{}' is not a table; --set addresses keys of tables "
                                  "(arrays of tables such as [[inject]] are set in the deck)",
                                  where, parts[i]));
  }
  parsed.get("v")->visit([&](auto& v) { t->insert_or_assign(parts.back(), std::move(v)); });
}

}  // namespace desync
