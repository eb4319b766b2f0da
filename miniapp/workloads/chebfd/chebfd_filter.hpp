#pragma once
// The distributed ChebFD filter of one search space (matrices.md §7.3, papers.md A.3.4) for a
// scalar type T (double: SPIN, HHQ, stencil5; Complex: TOPI), with the three communication
// schemes. Every degree step p = 2..np is one timeline iteration: per block (block loop outside,
// NON-SPLIT and SPLIT-WAIT) or over all sub-blocks (PIPELINE, degree loop outside). The init
// (T_0, T_1, one product) is not on the timeline. The per-degree moments are summed locally and
// reduced once, after all loops, so the loops hold no collective but the experiment's sync.
#include <mpi.h>

#include <optional>
#include <string>
#include <vector>

#include "comm/halo_exchange.hpp"
#include "comm/halo_plan.hpp"
#include "config/config.hpp"
#include "workloads/chebfd/chebfd_config.hpp"
#include "matrix/local_matrix.hpp"
#include "matrix/sell_matrix.hpp"
#include "matrix/split_matrix.hpp"
#include "loop/experiment_loop.hpp"
#include "record/timeline.hpp"
#include "workloads/chebfd/chebfd_coefficients.hpp"
#include "workloads/chebfd/chebfd_element_kernels.hpp"
#include "workloads/chebfd/chebfd_kernels.hpp"

namespace desync::chebfd {

// Start block: element (g, j) of the search space (global row g, vector j), any rank count.
KOKKOS_INLINE_FUNCTION double start_re(std::int64_t g, std::int64_t j) {
  return static_cast<double>((static_cast<std::uint64_t>(g) * 2654435761ull + static_cast<std::uint64_t>(j) * 40503ull) % 1000u) / 1000.0 - 0.5;
}
KOKKOS_INLINE_FUNCTION double start_im(std::int64_t g, std::int64_t j) {
  return static_cast<double>((static_cast<std::uint64_t>(g) * 97ull + static_cast<std::uint64_t>(j) * 31ull + 7u) % 1000u) / 1000.0 - 0.5;
}

// A CRS matrix or part of one (matrix/split_matrix.hpp).
template <class T>
using Crs = CrsBlock<T>;

// Moments of one search space after the global reduction: eta[(b*np + p-1)*nb + k] = <T_{p-1}x, T_p x>
// and mu[...] = <T_{p-1}x, T_{p-1}x> of vector b*nb + k, p = 1..np (complex eta as re, im pairs).
struct Moments {
  int np = 0, nb = 0, blocks = 0;
  std::vector<double> eta_re, eta_im, mu;
};

std::vector<std::string> event_names(ChebfdScheme scheme);

template <class T>
class Filter {
 public:
  // sell: the kernels run on SELL-C-sigma ([matrix] format = "sell"); null: on CRS.
  Filter(LocalMatrix<T> m, const HaloPlan& plan, const ChebfdConfig& c, const Scaling& s,
         std::vector<double> gc, const Communicators& comms, const CommConfig& opt, const SellParams* sell = nullptr);

  std::int64_t iterations() const;  // timeline iterations of one run()
  // Fills x and moments inside `loop` (its delay slot and sync after every degree step); stops
  // early when the loop says so (moments then cover what ran). Returns the stop signal, 0 if none.
  // Each call starts from the start vectors: a second run computes the same x and moments.
  int run(Timeline& tl, ExperimentLoop& loop);

  Values<T> x;  // rows * ns: block b at b * rows * nb, row-major inside
  Moments moments;
  std::int32_t rows = 0, halo = 0;
  GlobalIndex first_row = 0;
  // The SELL-C-sigma matrix the kernels run on (the whole rows, or SPLIT-WAIT's local part), if any.
  const std::optional<SellMatrix<T>>& sell() const { return sell_; }

 private:
  // The moments' sums of every block and degree, where this build's mapping writes them (device
  // memory on a GPU: copied to the host once, after the loops), and their host copy.
  using Sums = Kokkos::View<double*, SumsMemory<ExecSpace, block_mapping_for<ExecSpace>>>;
  void start(const Values<T>& u, int b);
  // One product step of block b at degree p (p = 1: the init): the scheme's, chosen at
  // construction (product_whole: NON-SPLIT, and PIPELINE's init; product_split: SPLIT-WAIT).
  void product(const Values<T>& u, const Values<T>& w, int b, int p, Timeline* tl, std::int64_t it) {
    (this->*product_)(u, w, b, p, tl, it);
  }
  Step step_of(int p) const;
  void post_halo(const Values<T>& u, Timeline* tl, std::int64_t it);
  void product_whole(const Values<T>& u, const Values<T>& w, int b, int p, Timeline* tl, std::int64_t it);
  void product_split(const Values<T>& u, const Values<T>& w, int b, int p, Timeline* tl, std::int64_t it);
  // The two loop shapes, each on loop (its delay slot and sync after every degree step):
  // blocks one after the other (NON-SPLIT, SPLIT-WAIT), or all blocks per degree step (PIPELINE).
  int run_blocks(Timeline& tl, ExperimentLoop& loop);
  int run_pipeline(Timeline& tl, ExperimentLoop& loop);
  void reduce_moments();  // the run's one global reduction, after the loop
  // Work items of the kernels that overlap an exchange: rows, or SELL chunks.
  std::int64_t items() const { return items_; }
  // The fused step (Init: the init; Sell: on sell_, else on full_) over items [b0, e0), sums
  // added into `out`. The format is chosen once: fused_fn_[Init] points at the instantiation.
  template <bool Init, bool Sell>
  void fused(const Values<T>& u, const Values<T>& w, std::size_t x_off, const Step& st, std::int64_t b0, std::int64_t e0,
             double* out);
  // SPLIT-WAIT's local part over items [b0, e0): w = a (H_local u) + b u [- w]; local_fn_[Init].
  template <bool Init, bool Sell>
  void local_part(const Values<T>& u, const Values<T>& w, const Step& st, std::int64_t b0, std::int64_t e0);
  using ProductFn = void (Filter::*)(const Values<T>&, const Values<T>&, int, int, Timeline*, std::int64_t);
  using FusedFn = void (Filter::*)(const Values<T>&, const Values<T>&, std::size_t, const Step&, std::int64_t,
                                   std::int64_t, double*);
  using LocalFn = void (Filter::*)(const Values<T>&, const Values<T>&, const Step&, std::int64_t, std::int64_t);
  ProductFn product_ = nullptr;
  FusedFn fused_fn_[2] = {nullptr, nullptr};  // [Init]
  LocalFn local_fn_[2] = {nullptr, nullptr};  // [Init]
  std::int64_t items_ = 0;
  // Block b's sums of degree p: where the kernels write them (Sums' memory), and in the host copy.
  std::size_t slot_offset(int b, int p) const { return (static_cast<std::size_t>(b) * np_ + p - 1) * value_count_; }
  double* slot(int b, int p) { return sums_.data() + slot_offset(b, p); }
  const double* host_slot(int b, int p) const { return sums_host_.data() + slot_offset(b, p); }

  const ChebfdConfig& c_;
  Scaling s_;
  std::vector<double> gc_;
  MPI_Comm comm_;
  int nb_, np_, blocks_;
  unsigned value_count_;
  Crs<T> full_, local_, remote_;  // full: NON-SPLIT, PIPELINE; local + remote: SPLIT-WAIT
  std::optional<SellMatrix<T>> sell_;  // replaces full_ or local_ (remote_ stays CRS)
  HaloExchange<Values<T>> halo_ex_;
  Sums sums_;
  std::vector<double> sums_host_;
  std::vector<double> partial_;  // one chunk's sums (PIPELINE with progress = "test"; the item mapping's)
  ColumnSums<ExecSpace> col_sums_;  // the element mapping's workspace (a GPU build's kernels)
};

extern template class Filter<double>;
extern template class Filter<Complex>;

}  // namespace desync::chebfd
