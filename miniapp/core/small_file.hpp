#pragma once
// Reading a small text input (a deck, a platform file) without trusting its path: a directory, a
// device (/dev/zero) or a FIFO is refused before reading, and reading stops at the size limit,
// so a wrong path gives one clear line instead of a hang or an exhausted memory.
#include <cstddef>
#include <string>

namespace desync {

inline constexpr std::size_t max_small_file_bytes = std::size_t{1} << 20;

// The file's bytes into `text`; returns "" or the error line "PATH: error: ...", naming the
// input as `what` ("deck", "platform file").
std::string read_small_file(const std::string& path, const std::string& what, std::string& text);

}  // namespace desync
