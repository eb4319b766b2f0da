#pragma once
// The clock frequency state of a rank's CPUs, from Linux cpufreq in sysfs (users' ask: provenance
// with "frequency/turbo state if readable", peers.md 2.7): the driver and governor, the range the
// governor may scale in, the frequency each CPU ran at when probed, and whether turbo (boost) is
// allowed. A fixed governor and turbo off are what reproducible timings want; a powersave
// governor or a low cap explain a slow run.
#include <string>
#include <vector>

namespace desync {

// One line for CPUs `cpus` (OS indices) under `sysfs` (normally /sys/devices/system/cpu):
//   "driver intel_pstate, governor performance, range 800-3500 MHz, now 3392 MHz (mean of 4 CPUs,
//    3300-3500), turbo on"
// Values that differ between the CPUs are listed ("governor performance/powersave"); what cannot
// be read is left out, and "not readable (...)" when nothing can (a container or VM without
// cpufreq).
std::string cpu_frequency_state(const std::vector<int>& cpus, const std::string& sysfs = "/sys/devices/system/cpu");

}  // namespace desync
