#pragma once
// "Did you mean" for misspelled deck keys.
#include <string>
#include <string_view>
#include <vector>

namespace desync {

std::size_t edit_distance(std::string_view a, std::string_view b);

// The candidate closest to `word` (Damerau-free Levenshtein, ties: first listed); empty if none.
std::string closest(std::string_view word, const std::vector<std::string>& candidates);

// "; did you mean 'x'?" where a candidate is near enough to be a misspelling of `word` (at most a
// third of its letters changed, at least 2 allowed) or to be a misspelt part of a compound name
// (barier for compare_barrier); "" otherwise (no far-fetched guesses).
std::string did_you_mean(std::string_view word, const std::vector<std::string>& candidates);

}  // namespace desync
