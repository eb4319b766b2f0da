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
  exit_output_failed = 4,  // the run finished but its file could not be written (no file left)
  exit_interrupted = 5,    // stopped early by a signal; the file holds what ran, marked incomplete
};

// A bad deck, a bad --set override or a bad command-line value. The message is complete
// (location, key, value, what is allowed) and is printed once by rank 0.
class DeckError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The result file could not be written; thrown on every rank with the same message.
class OutputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace desync
