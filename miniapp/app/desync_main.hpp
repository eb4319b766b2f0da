#pragma once
// The whole `desync` program (MPI_Init to MPI_Finalize) for the workloads of the registry: main()
// is this call; a binary that registers more workloads first (workloads/registry.hpp,
// register_workload) calls it too.
namespace desync {

int desync_main(int argc, char** argv);

}  // namespace desync
