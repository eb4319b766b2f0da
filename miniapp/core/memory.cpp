#include "core/memory.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <sstream>

namespace desync {

std::string format_bytes(double b) {
  const char* unit[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  int u = 0;
  while (b >= 1024.0 && u < 6) {
    b /= 1024.0;
    ++u;
  }
  return u == 0 ? fmt::format("{:.0f} B", b) : fmt::format("{:.3g} {}", b, unit[u]);
}

std::string MemoryEstimate::describe() const {
  std::string s = format_bytes(total()) + " (";
  bool first = true;
  for (const auto& [what, bytes] : parts) {
    if (bytes < 1.0) continue;
    s += (first ? "" : ", ") + what + " " + format_bytes(bytes);
    first = false;
  }
  return s + ")";
}

namespace {
double read_number(const std::string& path) {
  std::ifstream in(path);
  std::string v;
  if (!(in >> v) || v == "max") return 0.0;
  try {
    return std::stod(v);
  } catch (...) {
    return 0.0;
  }
}
// A "Key:   123 kB" line of a /proc file (meminfo, self/status), in bytes; 0 if absent.
double kib_field_bytes(const char* path, const char* key) {
  std::ifstream in(path);
  std::string line;
  const std::string k = std::string(key) + ":";
  while (std::getline(in, line))
    if (line.rfind(k, 0) == 0) {
      std::istringstream is(line.substr(k.size()));
      double kib = 0;
      is >> kib;
      return kib * 1024.0;
    }
  return 0.0;
}
}  // namespace

double resident_bytes() { return kib_field_bytes("/proc/self/status", "VmRSS"); }
double peak_resident_bytes() { return kib_field_bytes("/proc/self/status", "VmHWM"); }

double node_available_bytes() {
  double avail = kib_field_bytes("/proc/meminfo", "MemAvailable");
  // cgroup v2 (containers, Slurm's task/cgroup): the limit of this process's group.
  const double max = read_number("/sys/fs/cgroup/memory.max");
  if (max > 0) {
    const double left = std::max(0.0, max - read_number("/sys/fs/cgroup/memory.current"));
    avail = avail > 0 ? std::min(avail, left) : left;
  }
  return avail;
}

}  // namespace desync
