#include "record/cpu_frequency.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <set>

namespace desync {
namespace {

// The first line of a sysfs file, without its newline; "" if it cannot be read.
std::string first_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  if (!in || !std::getline(in, line)) return {};
  while (!line.empty() && (line.back() == '\n' || line.back() == '\r' || line.back() == ' ')) line.pop_back();
  return line;
}

// kHz as sysfs writes it -> MHz; -1 if absent or not a number.
long mhz(const std::string& khz) {
  try {
    std::size_t used = 0;
    const long v = std::stol(khz, &used);
    return used == khz.size() && v > 0 ? (v + 500) / 1000 : -1;
  } catch (...) {
    return -1;
  }
}

std::string joined(const std::set<std::string>& values) {
  std::string out;
  for (const auto& v : values) out += (out.empty() ? "" : "/") + v;
  return out;
}

}  // namespace

std::string cpu_frequency_state(const std::vector<int>& cpus, const std::string& sysfs) {
  std::set<std::string> drivers, governors, ranges;
  std::vector<long> now;
  for (int cpu : cpus) {
    const std::string dir = fmt::format("{}/cpu{}/cpufreq/", sysfs, cpu);
    if (std::string d = first_line(dir + "scaling_driver"); !d.empty()) drivers.insert(d);
    if (std::string g = first_line(dir + "scaling_governor"); !g.empty()) governors.insert(g);
    const long lo = mhz(first_line(dir + "scaling_min_freq")), hi = mhz(first_line(dir + "scaling_max_freq"));
    if (lo > 0 && hi > 0) ranges.insert(fmt::format("{}-{} MHz", lo, hi));
    if (const long f = mhz(first_line(dir + "scaling_cur_freq")); f > 0) now.push_back(f);
  }
  std::vector<std::string> parts;
  if (!drivers.empty()) parts.push_back("driver " + joined(drivers));
  if (!governors.empty()) parts.push_back("governor " + joined(governors));
  if (!ranges.empty()) parts.push_back("range " + joined(ranges));
  if (!now.empty()) {
    long sum = 0;
    for (long f : now) sum += f;
    const auto [lo, hi] = std::minmax_element(now.begin(), now.end());
    parts.push_back(fmt::format("now {} MHz (mean of {} CPU{}{})", (sum + static_cast<long>(now.size()) / 2) / static_cast<long>(now.size()),
                                now.size(), now.size() == 1 ? "" : "s", *lo == *hi ? "" : fmt::format(", {}-{}", *lo, *hi)));
  }
  // Turbo: intel_pstate says "no_turbo" (1: off); acpi-cpufreq and amd-pstate "boost" (1: on).
  if (const std::string no_turbo = first_line(sysfs + "/intel_pstate/no_turbo"); no_turbo == "0" || no_turbo == "1")
    parts.push_back(no_turbo == "0" ? "turbo on" : "turbo off");
  else if (const std::string boost = first_line(sysfs + "/cpufreq/boost"); boost == "0" || boost == "1")
    parts.push_back(boost == "1" ? "turbo on" : "turbo off");
  if (parts.empty())
    return fmt::format("not readable (no cpufreq under {}: a container or VM, or a kernel without it)", sysfs);
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : ", ") + p;
  return out;
}

}  // namespace desync
