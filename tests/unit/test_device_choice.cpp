// The rule by which a rank picks its GPU (backends/device_choice.hpp), without a GPU: a function of
// the node-local rank and the devices the process sees.
#include <gtest/gtest.h>

#include "device.hpp"
#include "device_choice.hpp"

namespace {
using desync::backend::choose_device;

TEST(DeviceChoice, NoDeviceVisibleMeansNone) {
  EXPECT_EQ(choose_device(0, 0).device, -1);
  EXPECT_EQ(choose_device(3, 0).device, -1);
  EXPECT_EQ(choose_device(0, -1).device, -1);  // a runtime error reads as none
}

TEST(DeviceChoice, LauncherNarrowedToOneDevice) {
  // CUDA_VISIBLE_DEVICES per rank, Slurm --gpus-per-task=1: whatever the local rank, device 0.
  for (int local = 0; local < 8; ++local) EXPECT_EQ(choose_device(local, 1).device, 0) << local;
}

TEST(DeviceChoice, RoundRobinOverTheNodesDevices) {
  // 4 GPUs, 8 ranks per node: ranks 0-3 on 0-3, ranks 4-7 again on 0-3.
  const int expect[8] = {0, 1, 2, 3, 0, 1, 2, 3};
  for (int local = 0; local < 8; ++local) EXPECT_EQ(choose_device(local, 4).device, expect[local]) << local;
  // as many ranks as GPUs: each its own
  for (int local = 0; local < 2; ++local) EXPECT_EQ(choose_device(local, 2).device, local);
  EXPECT_NE(choose_device(2, 4).why.find("modulo 4"), std::string::npos);
}

TEST(DeviceChoice, ThisBuildsDevices) {
  // A host build (or a GPU build on a machine without a GPU) sees none and has no current
  // device; a GPU build on a GPU node describes the device Kokkos runs on.
  const int n = desync::backend::visible_devices();
  ASSERT_GE(n, 0);
  if (n == 0) {
    EXPECT_EQ(desync::backend::current_device(), -1);
  } else {
    const int d = desync::backend::current_device();
    ASSERT_GE(d, 0);
    EXPECT_LT(d, n);
    EXPECT_NE(desync::backend::describe_device(d).find("bus "), std::string::npos);
    EXPECT_FALSE(desync::backend::device_bus_id(d).empty());
  }
}

}  // namespace
