#pragma once
// The accelerator a rank runs on, where the Kokkos backend has one (backends/cuda/); in a host
// build there is none and these say so. Nothing else in desync calls a GPU runtime directly.
#include <string>

namespace desync::backend {

// Devices this process sees (CUDA: cudaGetDeviceCount, which honours CUDA_VISIBLE_DEVICES); 0 in
// a host build or when the runtime finds none. Callable before Kokkos starts.
int visible_devices();

// The device this process's CUDA calls go to now (after Kokkos started: the one it chose); -1 in
// a host build.
int current_device();

// One line describing device `index` for the start-up report and /topology/device: name, PCI
// bus id, UUID, memory, CUDA runtime and driver versions. "" in a host build.
std::string describe_device(int index);

// The last-level cache of device `index` in bytes (CUDA: the L2); 0 in a host build. The
// code-balance model's window rule (bench/code_balance.hpp) asks it where vectors live on a GPU.
double device_l2_bytes(int index);

// The PCI bus id of device `index` ("" in a host build): what tells two ranks on one GPU apart
// from two ranks on two GPUs, whatever each one's visible numbering.
std::string device_bus_id(int index);

}  // namespace desync::backend
