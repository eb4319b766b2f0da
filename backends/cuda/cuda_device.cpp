// backends/device.hpp on Kokkos' Cuda backend: the CUDA runtime's view of the node's GPUs.
#include <cuda_runtime_api.h>
#include <fmt/format.h>

#include "device.hpp"

namespace desync::backend {

int visible_devices() {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    cudaGetLastError();  // a node without a driver or device: clear the sticky error, report none
    return 0;
  }
  return n;
}

int current_device() {
  int d = -1;
  if (cudaGetDevice(&d) != cudaSuccess) {
    cudaGetLastError();
    return -1;
  }
  return d;
}

double device_l2_bytes(int index) {
  int bytes = 0;
  if (cudaDeviceGetAttribute(&bytes, cudaDevAttrL2CacheSize, index) != cudaSuccess) {
    cudaGetLastError();
    return 0.0;
  }
  return static_cast<double>(bytes);
}

std::string device_bus_id(int index) {
  char bus[32] = {};
  if (cudaDeviceGetPCIBusId(bus, sizeof bus, index) != cudaSuccess) return {};
  return bus;
}

std::string describe_device(int index) {
  cudaDeviceProp p{};
  if (cudaGetDeviceProperties(&p, index) != cudaSuccess) return fmt::format("device {}: properties unavailable", index);
  std::string uuid = "GPU-";
  for (int i = 0; i < 16; ++i) {
    uuid += fmt::format("{:02x}", static_cast<unsigned char>(p.uuid.bytes[i]));
    if (i == 3 || i == 5 || i == 7 || i == 9) uuid += '-';
  }
  int runtime = 0, driver = 0;
  cudaRuntimeGetVersion(&runtime);
  cudaDriverGetVersion(&driver);
  return fmt::format("{} (sm_{}{}, {} SMs, {:.1f} GiB, bus {}, {}), CUDA runtime {}.{}, driver API {}.{}", p.name, p.major,
                     p.minor, p.multiProcessorCount, static_cast<double>(p.totalGlobalMem) / (1024.0 * 1024.0 * 1024.0),
                     device_bus_id(index), uuid, runtime / 1000, (runtime % 1000) / 10, driver / 1000, (driver % 1000) / 10);
}

}  // namespace desync::backend
