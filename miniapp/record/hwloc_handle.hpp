#pragma once
// RAII for the hwloc objects desync's topology code uses: a loaded topology of this machine and
// bitmaps (cpusets). Header-only; record/ is the one layer that talks to hwloc.
#include <hwloc.h>

#include <memory>

namespace desync::hwloc {

struct Topology {
  hwloc_topology_t topo = nullptr;
  Topology() {
    hwloc_topology_init(&topo);
    hwloc_topology_load(topo);
  }
  ~Topology() { hwloc_topology_destroy(topo); }
  Topology(const Topology&) = delete;
  Topology& operator=(const Topology&) = delete;
};

using Bitmap = std::unique_ptr<hwloc_bitmap_s, decltype(&hwloc_bitmap_free)>;
inline Bitmap make_bitmap() { return Bitmap(hwloc_bitmap_alloc(), &hwloc_bitmap_free); }

}  // namespace desync::hwloc
