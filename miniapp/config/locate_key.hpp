#pragma once
// Where a deck value came from, for errors found after the deck is loaded (checks that need the
// rank count, a node layout, or several keys at once): such an error points at the key the user
// would change, as every error of the deck reader does.
#include <string>
#include <string_view>

#include "config/config.hpp"

namespace desync {

// "command line (--set table.key=v)" for the last --set of `dotted_key` ("matrix.stencil5.weights"),
// else "deck.toml:LINE:COLUMN" where the deck sets it, else the deck's path (the key took its
// default).
std::string locate(const Config& cfg, std::string_view dotted_key);

}  // namespace desync
