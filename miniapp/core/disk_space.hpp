#pragma once
// Where a file goes and how much room its file system has: for the checks before a run and
// before its file is written.
#include <sys/statvfs.h>

#include <filesystem>
#include <string>

namespace desync {

// The directory a path names a file in ("." for a bare file name).
inline std::string directory_of(const std::string& path) {
  const std::filesystem::path p(path);
  return p.has_parent_path() ? p.parent_path().string() : ".";
}

// Bytes an unprivileged writer may still use on the file system holding `dir`; -1 if unknown.
inline double free_bytes(const std::string& dir) {
  struct statvfs sv {};
  if (::statvfs(dir.c_str(), &sv) != 0) return -1.0;
  return static_cast<double>(sv.f_bavail) * static_cast<double>(sv.f_frsize);
}

}  // namespace desync
