#pragma once
// The halo exchange of a distributed vector, for the SpMV and ChebFD schemes: pack the entries
// partners need (a labelled kernel, fenced before MPI_Isend), post all receives first, straight
// into the halo part of the vector, then the sends; wait() completes both. Buffers and requests
// are allocated once; post() and wait() allocate nothing.
#include <mpi.h>

#include <vector>

#include "comm/halo_plan.hpp"
#include "core/types.hpp"

namespace desync {

class HaloExchange {
 public:
  HaloExchange(const HaloPlan& plan, std::int32_t rows, MPI_Comm comm);

  void pack(const Vector& x);
  void post(const Vector& x);  // receives into x(rows + offset ...)
  void wait();

  const HaloPlan& plan() const { return plan_; }

 private:
  const HaloPlan& plan_;
  std::int32_t rows_;
  MPI_Comm comm_;
  Vector send_;
  std::vector<MPI_Request> requests_;
};

}  // namespace desync
