#pragma once
// `[noise] kind = "file"`: delays replayed from a file instead of drawn, e.g. the noise measured on
// another machine (a fixed-work-quantum benchmark's per-iteration excess) or a schedule written
// by a script. Plain text: one line per iteration, one column per rank, seconds; numbers
// separated by blanks or commas; '#' starts a comment; blank lines are skipped.
#include <cstddef>
#include <string>
#include <vector>

#include "config/config.hpp"

namespace desync {

// The largest noise file read (every rank holds the table: 8 B per number).
inline constexpr std::size_t max_noise_file_bytes = std::size_t{256} << 20;
// The largest single delay, seconds (as [noise] mean's bound).
inline constexpr double max_noise_file_seconds = 10.0;

// Where the file named by `file` is: as given if absolute, else relative to the deck's directory.
std::string noise_file_path(const std::string& deck_path, const std::string& file);

// Parses a noise file's text. Throws DeckError "KEY: PATH:LINE:COLUMN: ..." (a number that is
// not one, negative, above max_noise_file_seconds or not finite; a row with another number of
// columns than the first; no row at all); `key` names the deck key that gave the file
// (noise_file_key), so that the message starts where every deck error starts.
NoiseTable parse_noise_file(const std::string& text, const std::string& path, const std::string& key);

// "deck.toml:20:8: error: [noise] file = \"n.txt\"": how messages about the file begin.
std::string noise_file_key(const NoiseConfig& noise);

// The iterations the noise window covers in a run: [max(begin, -warmup), min(end, iterations)).
std::int64_t noise_window_length(const Config& cfg);

// "# noise file PATH: L line(s) x C column(s) (one per rank), B bytes\n" for `desync check`; "" without one.
std::string noise_file_summary(const Config& cfg);

// Deck warnings about a parsed table against the run: fewer rows than noisy iterations (the rows
// repeat).
std::vector<std::string> noise_file_warnings(const Config& cfg);

}  // namespace desync
