#pragma once
// The halo exchange of a block of nb vectors stored row-major (element (i, k) at i*nb + k), for
// the ChebFD schemes: HaloExchange's scheme (pack kernel fenced before the sends, receives posted
// first, straight into the halo rows of the block) with nb values of type T per halo row, so a
// message carries count * nb * sizeof(T) bytes. Buffers and requests are allocated once.
#include <mpi.h>

#include <vector>

#include "comm/exchange.hpp"
#include "comm/halo_plan.hpp"
#include "core/types.hpp"

namespace desync {

template <class T>
class BlockHalo {
 public:
  BlockHalo(const HaloPlan& plan, std::int32_t rows, int nb, const Communicators& comms, const CommConfig& opt);

  // u: the block's storage ((rows + halo) * nb values of T).
  void pack(const Values<T>& u);
  void post(const Values<T>& u);
  void wait();
  Exchange& exchange() { return exchange_; }  // for computation that overlaps it (comm/overlap.hpp)

 private:
  const HaloPlan& plan_;
  std::int32_t rows_;
  int nb_;
  Values<T> send_;
  Exchange exchange_;
};

extern template class BlockHalo<double>;
extern template class BlockHalo<Complex>;

}  // namespace desync
