#pragma once
// Error types that map to the program's exit codes (see docs/decks.md, "Exit codes").
#include <stdexcept>
#include <string>

namespace desync {

enum ExitCode : int {
  exit_ok = 0,
  exit_runtime_error = 1,
  exit_deck_error = 2,
  exit_verification_failed = 3,
};

// A bad deck, a bad --set override or a bad command-line value. The message is complete
// (location, key, value, what is allowed) and is printed once by rank 0.
class DeckError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace desync
