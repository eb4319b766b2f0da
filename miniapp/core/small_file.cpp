#include "core/small_file.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace desync {

std::string read_small_file(const std::string& path, const std::string& what, std::string& text) {
  std::error_code ec;
  const auto st = std::filesystem::status(path, ec);
  if (!std::filesystem::exists(st)) return path + ": error: cannot read the " + what + ": no such file";
  if (std::filesystem::is_directory(st)) return path + ": error: is a directory, not a " + what + " (TOML)";
  if (!std::filesystem::is_regular_file(st)) return path + ": error: not a regular file; a " + what + " is a TOML file";
  std::ifstream in(path, std::ios::binary);
  if (!in) return path + ": error: cannot read the " + what + ": " + std::strerror(errno);
  text.resize(max_small_file_bytes + 1);
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<std::size_t>(in.gcount()));
  if (text.size() > max_small_file_bytes)
    return path + ": error: larger than " + std::to_string(max_small_file_bytes >> 20) + " MiB; a " + what +
           " is a small TOML file";
  return {};
}

}  // namespace desync
