#include "comm/communicators.hpp"

namespace desync {

Communicators::Communicators(MPI_Comm comm, int n) : comms_{comm} {
  for (int k = 1; k < n; ++k) MPI_Comm_dup(comm, &comms_.emplace_back());
}

Communicators::Communicators(MPI_Comm comm, const CommConfig& opt) : Communicators(comm, static_cast<int>(opt.communicators)) {
  if (opt.record_messages) log_ = std::make_shared<MessageLog>(opt.record_messages_max);
  gpu_aware_ = choose_gpu_aware_mpi(opt.gpu_aware_mpi);
}

Communicators::~Communicators() {
  for (std::size_t k = 1; k < comms_.size(); ++k) MPI_Comm_free(&comms_[k]);
}

}  // namespace desync
