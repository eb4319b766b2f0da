#pragma once
// What one SpMV iteration works on: the split matrix, the halo exchange, the product's kernels
// (chosen once, when the state is made: [spmv] kernel and [matrix] format) and the two vectors
// that swap roles after every product.
#include <mpi.h>

#include <string>
#include <vector>

#include "comm/halo_exchange.hpp"
#include "config/config.hpp"
#include "workloads/spmv/spmv_config.hpp"
#include "matrix/sell_matrix.hpp"
#include "record/timeline.hpp"
#include "workloads/spmv/spmv_matrix.hpp"

namespace desync {

struct SpmvState {
  // kernel: "desync" or "kokkoskernels"; sell non-null: the local part is SELL-C-sigma.
  SpmvState(const SplitMatrix& a, HaloExchange<Vector>& halo, SpmvKernel kernel, const SellMatrix<double>* sell, Vector x, Vector y);

  const SplitMatrix& a;
  HaloExchange<Vector>& halo;
  const SellMatrix<double>* sell;
  Vector x, y;  // x: rows + halo entries (input); y: output, the same size so they can swap

  void local() { local_(*this); }    // y = A_local x, fenced
  void remote() { remote_(*this); }  // y += A_remote x_halo, fenced (nothing when the rank has no halo)
  void swap() { std::swap(x, y); }
  // Before the checked (last) iteration: the product's rows and the input's halo at NaN. Once the
  // iterates reach a fixed point (x = A x bitwise, e.g. stochastic values on a small matrix) a
  // product that wrote nothing, or a halo that did not arrive, would leave the earlier, equal
  // values and pass the check x = A y.
  void poison_for_check();

 private:
  void (*local_)(SpmvState&);
  void (*remote_)(SpmvState&);
};

// The events of one iteration, in the order each scheme takes them (docs/output.md).
std::vector<std::string> spmv_event_names(SpmvScheme scheme);

// NON-SPLIT: post, wait, then local and remote part (no overlap inside the rank).
void nonsplit_iteration(SpmvState& s, Timeline& tl, std::int64_t it);
// SPLIT-WAIT: post, local part, wait, remote part (communication overlaps the local part).
void split_wait_iteration(SpmvState& s, Timeline& tl, std::int64_t it);
// The tests' fault injection (loop/fault_injection.hpp): the scheme's iteration without its
// exchange (no pack, post, wait or unpack), every event marked in its place, the product computed
// from the halo as the poisoned start left it.
void nonsplit_iteration_without_exchange(SpmvState& s, Timeline& tl, std::int64_t it);
void split_wait_iteration_without_exchange(SpmvState& s, Timeline& tl, std::int64_t it);

}  // namespace desync
