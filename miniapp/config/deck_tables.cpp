#include "config/deck_tables.hpp"

#include <fmt/format.h>
#include <toml++/toml.h>

#include <algorithm>

#include "config/config.hpp"
#include "config/suggest.hpp"
#include "config/table_reader.hpp"
#include "core/errors.hpp"

namespace desync {
namespace {

using Catalog = std::vector<const WorkloadDeck*>;

// Tables a deck may hold: every table some workload of the catalog reads, in catalog order.
std::vector<std::string> known_tables_list(const Catalog& catalog) {
  std::vector<std::string> v;
  for (const WorkloadDeck* w : catalog)
    for (const auto& t : w->tables)
      if (std::find(v.begin(), v.end(), t) == v.end()) v.push_back(t);
  return v;
}

// The tables that hold a key named `key` in some workload's resolved defaults (only on the
// error path: every workload's minimal deck is parsed, with a [matrix] where it needs one).
std::vector<std::string> tables_holding(const std::string& key, const Catalog& catalog) {
  std::vector<std::string> found;
  for (const WorkloadDeck* w : catalog) {
    for (const char* matrix : {"", "[matrix]\n", "[matrix]\ngenerator = \"stencil5\"\n"}) {
      toml::table resolved;
      try {
        const std::string deck = fmt::format("[run]\nworkload = \"{}\"\n{}", w->name, matrix);
        resolved = toml::parse(parse_deck(deck, "defaults", {}, catalog).resolved_toml);
      } catch (const std::exception&) {
        continue;
      }
      for (const auto& [t, node] : resolved) {
        const toml::table* tab = node.as_table();
        if (tab && tab->contains(key) && std::find(found.begin(), found.end(), std::string(t.str())) == found.end())
          found.emplace_back(t.str());
      }
      break;
    }
  }
  return found;
}

// Where a top-level table or key came from: its deck line, or the --set that created it (a table
// made by --set has no position in the deck).
std::string origin(const toml::key& k, const toml::node& node, const std::string& deck, const std::vector<std::string>& overrides) {
  std::string where = describe(k.source(), describe(node.source(), deck));
  for (const auto& o : overrides)
    if (o.rfind(std::string(k.str()) + ".", 0) == 0) where = "command line (--set " + o + ")";
  return where;
}

}  // namespace

void reject_unknown_tables(const toml::table& root, const std::string& deck,
                           const std::vector<std::string>& overrides, const Catalog& catalog) {
  const std::vector<std::string> known = known_tables_list(catalog);
  // desync's other TOML files, given where a deck belongs: said as such, not as an unknown table.
  const auto is_table = [&](const char* name) { return root.contains(name) && root.get(name)->is_table(); };
  if (is_table("campaign") && !root.contains("run"))
    throw DeckError(deck + ": error: a campaign file ([campaign], [axes]), not a deck: run it with desync-campaign "
                           "(tools/desync_campaign.py); its [campaign] deck names the deck");
  if (is_table("platform") && (is_table("node") || is_table("network")) && !root.contains("run"))
    throw DeckError(deck + ": error: a platform file of desync simulate, not a deck: give it with --platform");
  // The unknown key that comes first in the file (toml++ keeps a table's keys sorted by name).
  std::vector<std::pair<const toml::key*, const toml::node*>> unknown;
  for (const auto& [k, node] : root)
    if (std::find(known.begin(), known.end(), k.str()) == known.end()) unknown.emplace_back(&k, &node);
  std::stable_sort(unknown.begin(), unknown.end(), [](const auto& a, const auto& b) {
    const auto& x = a.first->source().begin;
    const auto& y = b.first->source().begin;
    return x.line != y.line ? x.line < y.line : x.column < y.column;
  });
  for (const auto& [key, value] : unknown) {
    const toml::key& k = *key;
    const toml::node& node = *value;
    std::string valid;
    for (const auto& t : known) valid += (valid.empty() ? "" : ", ") + t;
    const std::string where = origin(k, node, deck, overrides);
    // A key written above every table header (iterations = 5 on the first line): say which
    // tables hold a key of that name.
    const std::vector<std::string> holders = node.is_table() ? std::vector<std::string>{} : tables_holding(std::string(k.str()), catalog);
    if (!holders.empty()) {
      std::string list;
      for (const auto& t : holders) list += (list.empty() ? "[" : " or [") + t + "]";
      throw DeckError(fmt::format("{}: error: '{}' stands outside any table; it is a key of {}: write it below that "
                                  "table's header",
                                  where, k.str(), list));
    }
    throw DeckError(fmt::format("{}: error: unknown table or key '{}' at the top level{} (valid tables: {})", where,
                                k.str(), did_you_mean(k.str(), known), valid));
  }
}

// A table the chosen workload does not read would be silently ignored: refuse it, naming where
// it came from and what the workload reads.
void reject_foreign_tables(const toml::table& root, const WorkloadDeck& w, const std::string& deck,
                           const std::vector<std::string>& overrides) {
  const auto& allowed = w.tables;
  for (const auto& [k, node] : root) {
    if (std::find(allowed.begin(), allowed.end(), k.str()) != allowed.end()) continue;
    const std::string where = origin(k, node, deck, overrides);
    std::string list;
    for (const auto& t : allowed) list += (list.empty() ? "[" : ", [") + t + "]";
    throw DeckError(fmt::format("{}: error: table [{}] is not used by workload \"{}\" (it reads {}); remove it, "
                                "or choose the workload that uses it with [run] workload",
                                where, k.str(), w.name, list));
  }
}

}  // namespace desync
