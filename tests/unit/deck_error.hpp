#pragma once
// The message of the DeckError a deck raises (a test failure if it raises none).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/errors.hpp"
#include "workloads/registry.hpp"

namespace desync {

inline std::string deck_error(const std::string& text, const std::vector<std::string>& overrides = {}) {
  try {
    load_deck(text, "deck.toml", overrides);
  } catch (const DeckError& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected a DeckError for:\n" << text;
  return {};
}

}  // namespace desync
