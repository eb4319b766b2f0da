#pragma once
// [comm] gpu_aware_mpi, resolved once per run (docs/decks.md, docs/method.md section 28): whether
// MPI is handed the buffers of the default memory space as they are ("direct") or copies staged
// through pinned host buffers ("staged", comm/staging.hpp).
//   auto  direct where the MPI library says it reads device memory (Open MPI:
//         MPIX_Query_cuda_support(); MPICH: MPIX_GPU_query_support(MPIX_GPU_SUPPORT_CUDA)) or
//         where the default memory space is host memory; staged otherwise;
//   on    direct; in a GPU build with a library that says it cannot, rank 0 warns;
//   off   staged; in a host build too, where the copies go to a second host buffer: the same
//         code path as on a GPU, so it is tested here (and costs two copies per message).
// The detection is per library and lives here, in the comm layer, as the eager-limit and
// thread-level handling does.
#include <string>

#include "config/config.hpp"
#include "record/gpu_aware_choice.hpp"

namespace desync {

// What this MPI library says about reading device memory of this build's backend: 1 yes, 0 no,
// -1 unknown (no query, or a host build); `how` gets the query and its answer.
int mpi_reads_device_memory(std::string& how);

GpuAwareChoice choose_gpu_aware_mpi(GpuAwareMpi requested);

}  // namespace desync
