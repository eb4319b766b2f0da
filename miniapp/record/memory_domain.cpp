#include "record/memory_domain.hpp"

#include "record/hwloc_handle.hpp"

#include <hwloc.h>

#include <algorithm>
#include <initializer_list>
#include <memory>

namespace desync {
namespace {

using Hwloc = hwloc::Topology;
using hwloc::Bitmap;
using hwloc::make_bitmap;

int cores_in(hwloc_topology_t topo, hwloc_const_bitmap_t set) {
  return std::max(1, hwloc_get_nbobjs_inside_cpuset_by_type(topo, set, HWLOC_OBJ_CORE));
}

}  // namespace

MemoryDomain this_process_memory_domain() {
  Hwloc hw;
  hwloc_const_bitmap_t allowed = hwloc_topology_get_allowed_cpuset(hw.topo);
  Bitmap proc = make_bitmap(), domain = make_bitmap(), own = make_bitmap();
  if (hwloc_get_cpubind(hw.topo, proc.get(), HWLOC_CPUBIND_PROCESS) != 0) hwloc_bitmap_copy(proc.get(), allowed);
  MemoryDomain d;
  hwloc_bitmap_copy(domain.get(), allowed);
  const int numas = hwloc_get_nbobjs_by_type(hw.topo, HWLOC_OBJ_NUMANODE);
  for (int i = 0; i < numas; ++i) {
    hwloc_obj_t o = hwloc_get_obj_by_type(hw.topo, HWLOC_OBJ_NUMANODE, static_cast<unsigned>(i));
    if (o && o->cpuset && !hwloc_bitmap_iszero(proc.get()) && hwloc_bitmap_isincluded(proc.get(), o->cpuset)) {
      d.numa = static_cast<int>(o->logical_index);
      hwloc_bitmap_and(domain.get(), o->cpuset, allowed);
      break;
    }
  }
  d.cores = cores_in(hw.topo, domain.get());
  hwloc_bitmap_and(own.get(), proc.get(), allowed);
  d.bound_cores = hwloc_bitmap_iszero(own.get()) ? d.cores : cores_in(hw.topo, own.get());
  return d;
}

double node_llc_bytes() {
  Hwloc hw;
  for (hwloc_obj_type_t type : {HWLOC_OBJ_L3CACHE, HWLOC_OBJ_L2CACHE}) {
    double sum = 0;
    for (hwloc_obj_t o = hwloc_get_next_obj_by_type(hw.topo, type, nullptr); o; o = hwloc_get_next_obj_by_type(hw.topo, type, o))
      sum += static_cast<double>(o->attr->cache.size);
    if (sum > 0) return sum;
  }
  return 0;
}

double core_l2_bytes() {
  Hwloc hw;
  const hwloc_obj_t o = hwloc_get_next_obj_by_type(hw.topo, HWLOC_OBJ_L2CACHE, nullptr);
  return o ? static_cast<double>(o->attr->cache.size) : 0.0;
}

}  // namespace desync
