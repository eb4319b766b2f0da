// desync: one binary for every workload of the registry (workloads/registry.hpp).
#include "app/desync_main.hpp"

int main(int argc, char** argv) { return desync::desync_main(argc, argv); }
