// desync with one more workload, "ring", registered through the same entry as the built-in ones
// (workloads/registry.hpp): the whole program otherwise unchanged.
#include "app/desync_main.hpp"
#include "ring_module.hpp"
#include "workloads/registry.hpp"

int main(int argc, char** argv) {
  desync::register_workload(desync::ring_module());
  return desync::desync_main(argc, argv);
}
