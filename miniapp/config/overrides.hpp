#pragma once
// Command-line overrides "--set table.key=value": merged into the parsed deck before validation,
// so they pass through exactly the same checks as deck values.
#include <toml++/toml.h>

#include <string>

namespace desync {

// `arg` is "table.key=value"; value is TOML ("100", "[1, -1]", "true", "\"x\"") or, if it does not
// parse as TOML, a bare string ("stream"). Throws DeckError.
void apply_override(toml::table& root, const std::string& arg);

}  // namespace desync
