#pragma once
// Whether MPI gave MPI_THREAD_MULTIPLE (tests/test_main.cpp asks for it): the tests of the
// progress thread and of parallel sends skip those variants when it did not.
#include <mpi.h>

namespace desync {

inline bool thread_multiple() {
  int provided = 0;
  MPI_Query_thread(&provided);
  return provided >= MPI_THREAD_MULTIPLE;
}

}  // namespace desync
