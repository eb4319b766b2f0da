#include "core/small_file.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace desync {

std::string read_input_file(const std::string& path, const std::string& what, const std::string& format,
                            std::size_t max_bytes, std::string& text) {
  std::error_code ec;
  const auto st = std::filesystem::status(path, ec);
  if (!std::filesystem::exists(st)) return path + ": error: cannot read the " + what + ": no such file";
  if (std::filesystem::is_directory(st)) return path + ": error: is a directory, not a " + what + " (" + format + ")";
  if (!std::filesystem::is_regular_file(st)) return path + ": error: not a regular file; a " + what + " is " + format;
  std::ifstream in(path, std::ios::binary);
  if (!in) return path + ": error: cannot read the " + what + ": " + std::strerror(errno);
  // As large as the file (up to the limit): a large limit must not cost a large buffer.
  const auto size = std::filesystem::file_size(path, ec);
  text.resize((ec ? max_bytes : std::min<std::size_t>(static_cast<std::size_t>(size), max_bytes)) + 1);
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<std::size_t>(in.gcount()));
  if (text.size() > max_bytes)
    return path + ": error: larger than " + std::to_string(max_bytes >> 20) + " MiB; a " + what + " is " + format +
           " of at most that";
  return {};
}

}  // namespace desync
