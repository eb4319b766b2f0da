#include "config/locate_key.hpp"

#include <toml++/toml.h>

#include "config/table_reader.hpp"
#include "core/log.hpp"

namespace desync {

std::string locate(const Config& cfg, std::string_view dotted_key) {
  const std::string prefix = std::string(dotted_key) + "=";
  for (auto o = cfg.overrides.rbegin(); o != cfg.overrides.rend(); ++o)
    if (o->rfind(prefix, 0) == 0) return "command line (--set " + log::printable(*o, 120) + ")";
  try {
    // The deck parsed once already; parsed again only on this error path.
    const toml::table root = toml::parse(cfg.deck_text, cfg.deck_path);
    if (const toml::node_view n = root.at_path(dotted_key)) return describe(n.node()->source(), cfg.deck_path);
  } catch (const toml::parse_error&) {
  }
  return cfg.deck_path;
}

}  // namespace desync
