#pragma once
// The message of the DeckError a deck raises, or its rank-dependent check for a rank count (a
// test failure if it raises none).
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

// The deck's DeckError names `what` (the message is shown where it does not).
inline void expect_deck_error_has(const std::string& text, const std::string& what) {
  const std::string m = deck_error(text);
  EXPECT_NE(m.find(what), std::string::npos) << m;
}

inline std::string rank_error(const Config& c, int ranks) {
  try {
    validate_for_ranks(c, ranks);
  } catch (const DeckError& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected a DeckError for " << ranks << " ranks";
  return {};
}

}  // namespace desync
