#pragma once
// Reading a text input (a deck, a platform file, a noise file) without trusting its path: a
// directory, a device (/dev/zero) or a FIFO is refused before reading, and reading stops at the
// size limit, so a wrong path gives one clear line instead of a hang or an exhausted memory.
#include <cstddef>
#include <string>

namespace desync {

inline constexpr std::size_t max_small_file_bytes = std::size_t{1} << 20;

// The file's bytes into `text`; returns "" or the error line "PATH: error: ...", naming the
// input as `what` ("noise file") and its format as `format` ("a text file of numbers"); at most
// max_bytes.
std::string read_input_file(const std::string& path, const std::string& what, const std::string& format,
                            std::size_t max_bytes, std::string& text);

// A TOML input (deck, platform file) of at most max_small_file_bytes.
inline std::string read_small_file(const std::string& path, const std::string& what, std::string& text) {
  return read_input_file(path, what, "a small TOML file", max_small_file_bytes, text);
}

}  // namespace desync
