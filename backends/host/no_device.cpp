// backends/device.hpp in a build without a GPU backend: no device.
#include "device.hpp"

namespace desync::backend {

int visible_devices() { return 0; }
int current_device() { return -1; }
double device_l2_bytes(int) { return 0.0; }
std::string describe_device(int) { return {}; }
std::string device_bus_id(int) { return {}; }

}  // namespace desync::backend
