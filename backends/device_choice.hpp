#pragma once
// Which GPU a rank takes (issue 32, item 5): the rule alone, a pure function, so it is tested on
// any build (tests/unit/test_device_choice.cpp). backends/device.hpp applies it.
//
// Under mpirun/mpiexec without a batch system's GPU binding every process sees every GPU of its
// node, and Kokkos would put them all on device 0. The rule: a rank whose launcher narrowed its
// view to one device (CUDA_VISIBLE_DEVICES per rank, Slurm's --gpus-per-task) takes that one;
// otherwise the node-local rank modulo the devices it sees, so ranks spread round-robin over the
// node's GPUs. More ranks than devices on a node is allowed (the papers' runs put several ranks
// on a socket; a GPU build may too) but shared devices are reported (record/topology.cpp).
#include <string>

namespace desync::backend {

struct DeviceChoice {
  int device = -1;   // index among the visible devices; -1: none (a host build, or none visible)
  std::string why;   // one line for the start-up report
};

inline DeviceChoice choose_device(int local_rank, int visible_devices) {
  DeviceChoice c;
  if (visible_devices <= 0) {
    c.why = "no GPU visible";
    return c;
  }
  if (visible_devices == 1) {
    c.device = 0;
    c.why = "the only visible GPU";
    return c;
  }
  c.device = (local_rank < 0 ? 0 : local_rank) % visible_devices;
  c.why = "node-local rank " + std::to_string(local_rank) + " modulo " + std::to_string(visible_devices) + " visible GPUs";
  return c;
}

}  // namespace desync::backend
