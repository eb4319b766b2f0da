// ChebFD's GPU mapping (workloads/chebfd/chebfd_element_kernels.hpp: a thread per element (row,
// column), column sums per team) against the host's (a thread per row or chunk), forced on this
// build's space so a host build runs the GPU's code path too: w and x bitwise the same, the dots
// equal up to rounding, for the fused step (CRS and SELL-C-sigma, init and degree step, one launch
// and two), and SPLIT-WAIT's local and remote parts. On a GPU build the element mapping is the
// space's own and the comparison is against its item mapping on the same device.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "matrix/local_matrix.hpp"
#include "matrix/row_partition.hpp"
#include "matrix/sell_matrix.hpp"
#include "matrix/spin_chain.hpp"
#include "matrix/split_matrix.hpp"
#include "matrix/topological_insulator.hpp"
#include "workloads/chebfd/chebfd_element_kernels.hpp"
#include "filled_views.hpp"

namespace desync {
namespace {
using chebfd::BlockMapping;
constexpr BlockMapping item = BlockMapping::item_per_thread, element = BlockMapping::element_per_thread;

using test::filled;
using test::host;

// The widest block the element mapping runs with on this space (teams of nb threads at least).
int widest_block() {
  for (int nb = 64; nb > 1; nb /= 2) {
    try {
      chebfd::ColumnSums<ExecSpace>(nb, 1);
      return nb;
    } catch (const std::invalid_argument&) {
    }
  }
  return 1;
}

std::vector<int> widths() {
  std::vector<int> out;
  for (int nb : {1, 2, 3, 4, 8, 32})
    if (nb <= widest_block()) out.push_back(nb);
  return out;
}

// One kernel run under both mappings from the same u, w, x: fills w, x and the sums of each.
struct Outcome {
  std::vector<double> sums;
  std::vector<double> w, x;  // as doubles (re, im for complex)
};

template <class T>
std::vector<double> flat(const Values<T>& v) {
  std::vector<double> out;
  for (const T& e : host(v)) {
    if constexpr (std::is_same_v<T, double>) out.push_back(e);
    else out.insert(out.end(), {e.real(), e.imag()});
  }
  return out;
}

void expect_same(const Outcome& a, const Outcome& b, const std::string& what) {
  EXPECT_EQ(a.w, b.w) << what;
  EXPECT_EQ(a.x, b.x) << what;
  ASSERT_EQ(a.sums.size(), b.sums.size()) << what;
  for (std::size_t k = 0; k < a.sums.size(); ++k)
    EXPECT_NEAR(a.sums[k], b.sums[k], 1e-12 * (1.0 + std::fabs(a.sums[k]))) << what << ", slot " << k;
}

// Runs f(u, w, x, sums, out, scratch) of mapping M on fresh copies of the same data; sums: the
// element mapping's workspace (run: the workload's launch shape); out where M's kernels write
// the sums (device memory for the element mapping on a GPU), copied back after f.
template <BlockMapping M, class T, class Sums, class F>
Outcome run_with(const LocalMatrix<T>& m, int nb, const Sums& sums, F&& f) {
  constexpr int R = chebfd::Traits<T>::R;
  const std::size_t rows = static_cast<std::size_t>(m.rows), cols = rows + static_cast<std::size_t>(m.halo());
  const Values<T> u = filled<Values<T>>("u", cols * nb, 2.0);
  const Values<T> w = filled<Values<T>>("w", rows * nb, 3.0);
  const Values<T> x = filled<Values<T>>("x", rows * nb, 4.0);
  Outcome o;
  o.sums.assign(static_cast<std::size_t>((R + 1) * nb), 0.0);
  std::vector<double> scratch(o.sums.size());
  // NaN before the kernels: a first launch (begin 0) must write its sums, not add to what is there.
  const Kokkos::View<double*, chebfd::SumsMemory<ExecSpace, M>> out("out", o.sums.size());
  Kokkos::deep_copy(out, std::numeric_limits<double>::quiet_NaN());
  f(u, w, x, sums, out.data(), scratch.data());
  Kokkos::fence();
  Kokkos::deep_copy(Kokkos::View<double*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(o.sums.data(), o.sums.size()), out);
  o.w = flat(w);
  o.x = flat(x);
  return o;
}

template <BlockMapping M, class T, class F>
Outcome run(const LocalMatrix<T>& m, int nb, F&& f) {
  return run_with<M>(m, nb, chebfd::ColumnSums<ExecSpace>(nb, chebfd::Traits<T>::R), std::forward<F>(f));
}

template <class T, bool Init>
void fused_crs_agrees(const LocalMatrix<T>& m, int nb) {
  const unsigned vc = static_cast<unsigned>((chebfd::Traits<T>::R + 1) * nb);
  const chebfd::Step st{0.7, -0.2, 0.3, 0.1};
  const std::int64_t rows = m.rows, half = rows / 2;
  auto step = [&](auto mapping, bool two_launches) {
    constexpr BlockMapping M = decltype(mapping)::value;
    return run<M>(m, nb, [&](auto u, auto w, auto x, const auto& sums, double* out, double* scratch) {
      const chebfd::Fused<T, Init> f{vc, m.row_ptr, m.col, m.val, u, w, x, 0, nb, st};
      if (two_launches) {  // PIPELINE's chunks: the second adds into out
        chebfd::fused_rows<ExecSpace, M>("test", 0, half, f, sums, out, scratch);
        chebfd::fused_rows<ExecSpace, M>("test", half, rows, f, sums, out, scratch);
      } else {
        chebfd::fused_rows<ExecSpace, M>("test", 0, rows, f, sums, out, scratch);
      }
    });
  };
  const std::string what = "CRS fused, nb = " + std::to_string(nb) + (Init ? ", init" : ", step");
  const Outcome ref = step(std::integral_constant<BlockMapping, item>{}, false);
  expect_same(ref, step(std::integral_constant<BlockMapping, element>{}, false), what);
  expect_same(ref, step(std::integral_constant<BlockMapping, element>{}, true), what + ", two launches");
}

template <class T, bool Init>
void fused_sell_agrees(const LocalMatrix<T>& m, int nb, int c, int sigma) {
  const unsigned vc = static_cast<unsigned>((chebfd::Traits<T>::R + 1) * nb);
  const chebfd::Step st{0.7, -0.2, 0.3, 0.1};
  const SellMatrix<T> s = make_sell(m.row_ptr, m.col, m.val, m.rows, c, sigma, "test");
  auto step = [&](auto mapping) {
    constexpr BlockMapping M = decltype(mapping)::value;
    return run<M>(m, nb, [&](auto u, auto w, auto x, const auto& sums, double* out, double* scratch) {
      chebfd::fused_chunks<T, Init, ExecSpace, M>("test", 0, s.chunks, s, vc, u, w, x, 0, nb, st, sums, out,
                                                                         scratch);
    });
  };
  expect_same(step(std::integral_constant<BlockMapping, item>{}), step(std::integral_constant<BlockMapping, element>{}),
              "SELL-" + std::to_string(c) + "-" + std::to_string(sigma) + " fused, nb = " + std::to_string(nb));
}

// SPLIT-WAIT: local part, then remote part and tail; CRS or SELL for the local part.
template <class T, bool Init>
void split_agrees(const LocalMatrix<T>& m, int nb, bool sell) {
  const unsigned vc = static_cast<unsigned>((chebfd::Traits<T>::R + 1) * nb);
  const chebfd::Step st{0.7, -0.2, 0.3, 0.1};
  const LocalRemote<T> parts = split_local_remote(m, "test");
  const SellMatrix<T> s = make_sell(parts.local.row_ptr, parts.local.col, parts.local.val, m.rows, 8, 16, "test");
  const std::size_t h = static_cast<std::size_t>(m.rows) * nb;
  auto step = [&](auto mapping) {
    constexpr BlockMapping M = decltype(mapping)::value;
    return run<M>(m, nb, [&](auto u, auto w, auto x, const auto& sums, double* out, double* scratch) {
      if (sell)
        chebfd::local_chunks<T, Init, ExecSpace, M>(0, s.chunks, s, u, w, nb, st);
      else
        chebfd::local_rows<ExecSpace, M>(0, m.rows, chebfd::LocalPart<T, Init>{parts.local.row_ptr, parts.local.col, parts.local.val, u, w, nb, st});
      chebfd::remote_rows<ExecSpace, M>(
          "test", 0, m.rows,
          chebfd::RemoteTail<T, Init>{vc, parts.remote.row_ptr, parts.remote.col, parts.remote.val, u, w, x, 0, h, nb, st}, sums, out,
          scratch);
    });
  };
  expect_same(step(std::integral_constant<BlockMapping, item>{}), step(std::integral_constant<BlockMapping, element>{}),
              std::string("SPLIT-WAIT ") + (sell ? "SELL" : "CRS") + ", nb = " + std::to_string(nb));
}

struct Matrices {
  LocalMatrix<double> spin;   // the middle rank of 3: a halo on both sides
  LocalMatrix<Complex> topi;  // the last rank of 2
  Matrices() {
    SpinParams sp;
    sp.sites = 10;
    sp.up = 5;
    const SpinChain chain(sp);
    spin = build_local_matrix<double>(chain, partition_by_rows(chain.rows(), 3), 1);
    TopiParams tp;
    tp.block = {3, 2, 4};
    tp.disorder = 0.5;
    const TopologicalInsulator ti(tp);
    topi = build_local_matrix<Complex>(ti, partition_by_rows(ti.rows(), 2), 1);
  }
};

TEST(ChebfdElements, TeamsFitEveryTestedWidth) {
  // Registered with 4 host threads (tests/CMakeLists.txt): teams of up to 4 on the host; a GPU's
  // teams reach 1024.
  const int widest = widest_block();
  std::printf("element mapping: block widths up to %d on %s\n", widest, ExecSpace::name());
  EXPECT_GE(widest, std::min(4, ExecSpace().concurrency()));
  EXPECT_THROW(chebfd::ColumnSums<ExecSpace>(4096, 1), std::invalid_argument);  // no space has teams of 4096
}

TEST(ChebfdElements, FusedStepMatchesItemMapping) {
  const Matrices mx;
  for (int nb : widths()) {
    fused_crs_agrees<double, false>(mx.spin, nb);
    fused_crs_agrees<double, true>(mx.spin, nb);
    fused_crs_agrees<Complex, false>(mx.topi, nb);
    fused_crs_agrees<Complex, true>(mx.topi, nb);
    for (auto [c, sigma] : std::vector<std::pair<int, int>>{{4, 16}, {32, 64}}) {
      fused_sell_agrees<double, false>(mx.spin, nb, c, sigma);
      fused_sell_agrees<Complex, true>(mx.topi, nb, c, sigma);
    }
  }
}

TEST(ChebfdElements, SplitWaitPartsMatchItemMapping) {
  const Matrices mx;
  for (int nb : widths())
    for (bool sell : {false, true}) {
      split_agrees<double, false>(mx.spin, nb, sell);
      split_agrees<double, true>(mx.spin, nb, sell);
      split_agrees<Complex, false>(mx.topi, nb, sell);
    }
}

// The item mapping's compile-time block widths (with_fixed_width: nb = 1, 2, 4, 8 on a host
// space) give the runtime-width functors' bits, sums included, on CRS and on SELL's chunks: the
// same products summed in the same order; so do SELL's two loop orders at one width (rows one
// after the other, or columns). Not bounded by a team's size (widths()): the item mapping has no
// teams.
template <class T, bool Init>
void fixed_widths_agree(const LocalMatrix<T>& m, int nb) {
  const unsigned vc = static_cast<unsigned>((chebfd::Traits<T>::R + 1) * nb);
  const chebfd::Step st{0.7, -0.2, 0.3, 0.1};
  const LocalRemote<T> parts = split_local_remote(m, "test");
  const std::size_t h = static_cast<std::size_t>(m.rows) * nb;
  using Policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int32_t>>;
  const std::int32_t rows = static_cast<std::int32_t>(m.rows);
  // fixed: through the dispatchers (with_fixed_width); else the runtime-width functors as they are.
  auto both = [&](bool fixed) {
    // No element-mapping workspace (its teams bound nb): the item mapping does not use one.
    return run_with<item>(m, nb, chebfd::ColumnSums<ExecSpace>(), [&](auto u, auto w, auto x, const auto& sums, double* out, double* scratch) {
      const chebfd::Fused<T, Init> f{vc, m.row_ptr, m.col, m.val, u, w, x, 0, nb, st};
      const chebfd::LocalPart<T, Init> local{parts.local.row_ptr, parts.local.col, parts.local.val, u, w, nb, st};
      const chebfd::RemoteTail<T, Init> remote{vc, parts.remote.row_ptr, parts.remote.col, parts.remote.val, u, w, x, 0, h, nb, st};
      std::vector<double> fused_sums(vc);
      if (fixed) {
        chebfd::fused_rows<ExecSpace, item>("test", 0, m.rows, f, sums, fused_sums.data(), scratch);
        chebfd::local_rows<ExecSpace, item>(0, m.rows, local);
        chebfd::remote_rows<ExecSpace, item>("test", 0, m.rows, remote, sums, out, scratch);
      } else {
        chebfd::reduce_rows<ExecSpace>("test", 0, m.rows, f, fused_sums.data(), scratch);
        Kokkos::parallel_for("test", Policy(0, rows), local);
        chebfd::reduce_rows<ExecSpace>("test", 0, m.rows, remote, out, scratch);
      }
      for (unsigned k = 0; k < vc; ++k) out[k] += 0.5 * fused_sums[k];  // both kernels' sums compared
    });
  };
  const Outcome a = both(true), b = both(false);
  const std::string what = "fixed width, nb = " + std::to_string(nb) + (Init ? ", init" : ", step");
  EXPECT_EQ(a.w, b.w) << what;
  EXPECT_EQ(a.x, b.x) << what;
  EXPECT_EQ(a.sums, b.sums) << what;

  // SELL-C-sigma's chunk kernels (the host's mapping), each on its own (the local part's Init
  // overwrites what the fused step wrote): through their launchers (fixed widths where the
  // dispatch has them), the runtime-width functor (the same loop order, rows one after the other,
  // with constant or runtime counts), and the runtime-width functor forced to walk the columns
  // (Widest = 1, the order of nb = 1 and of blocks wider than sell_rows_widest): every element's
  // product adds its row's entries in the same order and every sum slot its chunk's lanes in the
  // same order under both walks, so the bits agree. C = 8 and 32 (32: padding lanes in both test
  // matrices).
  constexpr SellMapping chunks = SellMapping::chunk_per_item;
  using Chunks = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  enum class Sell { launcher, row_walk, column_walk };
  auto sell = [&](auto height, Sell how, bool local_part) {
    constexpr int C = decltype(height)::value;
    const SellMatrix<T> full = make_sell(m.row_ptr, m.col, m.val, m.rows, C, 2 * C, "test");
    const SellMatrix<T> local = make_sell(parts.local.row_ptr, parts.local.col, parts.local.val, m.rows, C, 2 * C, "test");
    return run_with<item>(m, nb, chebfd::ColumnSums<ExecSpace>(), [&](auto u, auto w, auto x, const auto&, double* out, double* scratch) {
      const chebfd::SellLocalPart<T, Init, C> lr{local.chunk_ptr, local.row_of, local.col, local.val, u, w, nb, st};
      const chebfd::SellLocalPart<T, Init, C, chunks, 0, 1> lc{local.chunk_ptr, local.row_of, local.col, local.val, u, w, nb, st};
      const chebfd::SellFused<T, Init, C> fr{vc, full.chunk_ptr, full.row_of, full.col, full.val, u, w, x, 0, nb, st};
      const chebfd::SellFused<T, Init, C, 0, chunks, 1> fc{vc, full.chunk_ptr, full.row_of, full.col, full.val, u, w, x, 0, nb, st};
      const Kokkos::View<double*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> sums(out, vc);
      if (local_part) {
        std::fill_n(out, vc, 0.0);  // no sums (the item mapping's are host memory)
        if (how == Sell::launcher) chebfd::sell_local_part<T, Init, chunks>(0, local.chunks, local, u, w, nb, st);
        else if (how == Sell::row_walk) Kokkos::parallel_for("test", Chunks(0, local.chunks), lr);
        else Kokkos::parallel_for("test", Chunks(0, local.chunks), lc);
      } else if (how == Sell::launcher) {
        chebfd::reduce_sell_fused<T, Init, ExecSpace, chunks>("test", 0, full.chunks, full, vc, u, w, x, 0, nb, st, out, scratch);
      } else if (how == Sell::row_walk) {
        Kokkos::parallel_reduce("test", Chunks(0, full.chunks), fr, sums);
      } else {
        Kokkos::parallel_reduce("test", Chunks(0, full.chunks), fc, sums);
      }
    });
  };
  auto compare = [&](auto height) {
    for (bool local_part : {false, true}) {
      const Outcome f = sell(height, Sell::launcher, local_part), r = sell(height, Sell::row_walk, local_part),
                    c = sell(height, Sell::column_walk, local_part);
      const std::string sw = what + ", SELL-" + std::to_string(decltype(height)::value) + (local_part ? " local part" : " fused");
      EXPECT_EQ(f.w, r.w) << sw;
      EXPECT_EQ(f.x, r.x) << sw;
      EXPECT_EQ(f.sums, r.sums) << sw;
      EXPECT_EQ(r.w, c.w) << sw << ", rows against columns";
      EXPECT_EQ(r.x, c.x) << sw << ", rows against columns";
      EXPECT_EQ(r.sums, c.sums) << sw << ", rows against columns";
    }
  };
  compare(std::integral_constant<int, 8>{});
  compare(std::integral_constant<int, 32>{});
}

TEST(ChebfdElements, FixedWidthsGiveTheRuntimeWidthsBits) {
  const Matrices mx;
  for (int nb : {1, 2, 3, 4, 8, 11}) {  // 11: register groups and a part group at a runtime width
    fixed_widths_agree<double, false>(mx.spin, nb);
    fixed_widths_agree<double, true>(mx.spin, nb);
    fixed_widths_agree<Complex, false>(mx.topi, nb);
    fixed_widths_agree<Complex, true>(mx.topi, nb);
  }
}

// The launch shapes bench_chebfd --launch-sweep times: rows in flight and block columns per
// thread change no bit when the teams keep their rows (each column's sum adds the same rows in the
// same order); team size and waves change only how the dots are split, so they agree with the item
// mapping as any shape does.
template <int Depth, int Columns>
Outcome fused_shape(const LocalMatrix<Complex>& m, int nb, chebfd::ElementLaunch launch, int* rows_per_team = nullptr) {
  constexpr int R = chebfd::Traits<Complex>::R;
  const chebfd::ColumnSums<ExecSpace, Depth, Columns> sums(nb, R, launch);
  if (rows_per_team) *rows_per_team = sums.rows_per_team();
  return run_with<element>(m, nb, sums, [&](auto u, auto w, auto x, const auto& s, double* out, double* scratch) {
    const chebfd::Fused<Complex, false> f{static_cast<unsigned>((R + 1) * nb), m.row_ptr, m.col, m.val, u, w, x, 0, nb,
                                          chebfd::Step{0.7, -0.2, 0.3, 0.1}};
    s.template reduce<R>("test", 0, m.rows, chebfd::FusedElement<Complex, false>{f}, out, scratch);
  });
}

TEST(ChebfdElements, LaunchShapesAgree) {
  const Matrices mx;
  for (int nb : widths()) {
    const std::string what = "launch shapes, nb = " + std::to_string(nb);
    const Outcome by_item = run<item>(mx.topi, nb, [&](auto u, auto w, auto x, const auto& sums, double* out, double* scratch) {
      const chebfd::Fused<Complex, false> f{static_cast<unsigned>(3 * nb), mx.topi.row_ptr, mx.topi.col, mx.topi.val, u, w, x, 0, nb,
                                            chebfd::Step{0.7, -0.2, 0.3, 0.1}};
      chebfd::fused_rows<ExecSpace, BlockMapping::item_per_thread>("test", 0, mx.topi.rows, f, sums, out, scratch);
    });
    for (int waves : {4, 8}) {
      // One row per team (teams of nb / Columns threads) and waves / Columns waves: every Columns
      // keeps the teams' rows.
      const Outcome two = fused_shape<2, 1>(mx.topi, nb, {nb, waves});
      const std::string shape = what + ", waves " + std::to_string(waves);
      expect_same(by_item, two, shape);
      EXPECT_EQ((fused_shape<1, 1>(mx.topi, nb, {nb, waves}).sums), two.sums) << shape << ", depth 1";
      EXPECT_EQ((fused_shape<4, 1>(mx.topi, nb, {nb, waves}).sums), two.sums) << shape << ", depth 4";
      expect_same(two, fused_shape<4, 1>(mx.topi, nb, {nb, waves}), shape + ", depth 4");
      if (nb % 2 == 0) {
        const Outcome c2 = fused_shape<2, 2>(mx.topi, nb, {nb / 2, waves / 2});
        EXPECT_EQ(c2.sums, two.sums) << shape << ", 2 columns per thread";
        expect_same(two, c2, shape + ", 2 columns per thread");
      }
      if (nb % 4 == 0) {
        const Outcome c4 = fused_shape<1, 4>(mx.topi, nb, {nb / 4, waves / 4});
        EXPECT_EQ(c4.sums, two.sums) << shape << ", 4 columns per thread";
        expect_same(two, c4, shape + ", 4 columns per thread");
      }
    }
    // The default team (its width's most rows) against the item mapping, with 2 columns per thread.
    int m1 = 0, m2 = 0;
    expect_same(by_item, fused_shape<2, 1>(mx.topi, nb, {}, &m1), what + ", default team");
    if (nb % 2 == 0) {
      expect_same(by_item, fused_shape<2, 2>(mx.topi, nb, {}, &m2), what + ", default team, 2 columns per thread");
      EXPECT_GE(m2, m1) << what;  // half the threads per row: at least as many rows per team
    }
  }
  EXPECT_THROW(chebfd::ColumnSums<ExecSpace>(4, 1, {0, 0}), std::invalid_argument);  // no teams at all
  EXPECT_THROW((chebfd::ColumnSums<ExecSpace, 2, 4>(6, 1)), std::invalid_argument);  // 6 columns are not 4 per thread
}
}  // namespace
}  // namespace desync
