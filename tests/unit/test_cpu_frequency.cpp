// The cpufreq line of /topology/cpu_frequency (record/cpu_frequency.hpp) on made-up sysfs trees:
// Intel's pstate driver with turbo on, CPUs that differ, acpi-cpufreq's boost switch, and none.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "record/cpu_frequency.hpp"

namespace desync {
namespace {

namespace fs = std::filesystem;

struct FakeSysfs {
  fs::path root;
  FakeSysfs() {
    root = fs::temp_directory_path() / ("desync_cpufreq_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root);
    fs::create_directories(root);
  }
  ~FakeSysfs() { fs::remove_all(root); }
  void put(const std::string& rel, const std::string& text) const {
    fs::create_directories((root / rel).parent_path());
    std::ofstream(root / rel) << text << "\n";
  }
  void cpu(int i, const std::string& driver, const std::string& governor, long lo, long hi, long now) const {
    const std::string d = "cpu" + std::to_string(i) + "/cpufreq/";
    put(d + "scaling_driver", driver);
    put(d + "scaling_governor", governor);
    put(d + "scaling_min_freq", std::to_string(lo));
    put(d + "scaling_max_freq", std::to_string(hi));
    put(d + "scaling_cur_freq", std::to_string(now));
  }
};

TEST(CpuFrequency, IntelPstateWithTurbo) {
  FakeSysfs s;
  for (int i = 0; i < 4; ++i) s.cpu(i, "intel_pstate", "performance", 800000, 3500000, 3300000 + 100000 * (i % 3));
  s.put("intel_pstate/no_turbo", "0");
  EXPECT_EQ(cpu_frequency_state({0, 1, 2, 3}, s.root.string()),
            "driver intel_pstate, governor performance, range 800-3500 MHz, now 3375 MHz (mean of 4 CPUs, 3300-3500), "
            "turbo on");
  EXPECT_EQ(cpu_frequency_state({2}, s.root.string()),
            "driver intel_pstate, governor performance, range 800-3500 MHz, now 3500 MHz (mean of 1 CPU), turbo on");
}

TEST(CpuFrequency, CpusThatDifferAndTheBoostSwitch) {
  FakeSysfs s;
  s.cpu(0, "acpi-cpufreq", "performance", 1500000, 2600000, 2600000);
  s.cpu(1, "acpi-cpufreq", "powersave", 1500000, 2000000, 1500000);
  s.put("cpufreq/boost", "0");
  EXPECT_EQ(cpu_frequency_state({0, 1}, s.root.string()),
            "driver acpi-cpufreq, governor performance/powersave, range 1500-2000 MHz/1500-2600 MHz, now 2050 MHz "
            "(mean of 2 CPUs, 1500-2600), turbo off");
}

TEST(CpuFrequency, NothingReadable) {
  FakeSysfs s;
  s.put("cpu0/cpufreq/scaling_cur_freq", "garbage");
  EXPECT_EQ(cpu_frequency_state({0, 1}, s.root.string()),
            "not readable (no cpufreq under " + s.root.string() + ": a container or VM, or a kernel without it)");
}

}  // namespace
}  // namespace desync
