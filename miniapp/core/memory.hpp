#pragma once
// Memory estimates made before anything large is allocated, and what a node has to give.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace desync {

// Bytes one rank will hold at its peak, by what holds them.
struct MemoryEstimate {
  std::vector<std::pair<std::string, double>> parts;
  std::string knobs;  // the deck keys that set the size, for messages: "[table] size = 1000000"
  void add(std::string what, double bytes) { parts.emplace_back(std::move(what), bytes); }
  double total() const {
    double t = 0;
    for (const auto& p : parts) t += p.second;
    return t;
  }
  // "1.2 GiB (matrix 0.9 GiB, vectors 0.3 GiB)"
  std::string describe() const;
};

// "12.0 MiB", "3.25 GiB".
std::string format_bytes(double bytes);

// What this node can give a new job: MemAvailable from /proc/meminfo, lowered to the cgroup's
// memory.max - memory.current where a cgroup limit exists; 0 if unknown.
double node_available_bytes();

// This process's resident set now (VmRSS) and at its peak so far (VmHWM), from /proc/self/status;
// 0 where the system has no such file.
double resident_bytes();
double peak_resident_bytes();

}  // namespace desync
