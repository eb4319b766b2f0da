#include "workloads/spmv/spmv_verify.hpp"

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cmath>

#include "matrix/row_stream.hpp"

namespace desync::spmv {

std::int64_t count_wrong_rows(const MatrixGenerator& g, GlobalIndex first, std::int32_t rows,
                              const std::vector<GlobalIndex>& halo_columns, bool stochastic, const Vector& result,
                              const Vector& previous, const std::vector<double>& owners) {
  auto res = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), result);
  auto prev = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), previous);
  // Where column col sits in previous: an owned row, or its place among the halo columns.
  const auto received_index = [&](GlobalIndex col) {
    if (col >= first && col < first + rows) return static_cast<std::size_t>(col - first);
    return static_cast<std::size_t>(rows) +
           static_cast<std::size_t>(std::lower_bound(halo_columns.begin(), halo_columns.end(), col) - halo_columns.begin());
  };
  std::vector<std::int64_t> wrong(static_cast<std::size_t>(chunk_count(first, first + rows)), 0);
  for_each_row(g, first, first + rows, "desync::spmv::verify",
               [&](GlobalIndex c, GlobalIndex r, const GlobalIndex* cols, const Scalar* vals, int n) {
                 double abs_sum = 0.0;
                 for (int k = 0; k < n; ++k) abs_sum += std::abs(vals[k]);
                 double ref = 0.0, scale = 0.0;
                 for (int k = 0; k < n; ++k) {
                   const GlobalIndex col = cols[k];
                   const double v = stochastic ? std::abs(vals[k]) / abs_sum : vals[k].real();
                   const double p = owners.empty() ? prev(received_index(col)) : owners[static_cast<std::size_t>(col)];
                   ref += v * p;
                   scale += std::fabs(v * p);
                 }
                 const double got = res(static_cast<std::size_t>(r - first));
                 if (!(std::fabs(got - ref) <= 1e-12 * scale + 1e-300)) ++wrong[static_cast<std::size_t>(c)];
               });
  std::int64_t total = 0;
  for (auto w : wrong) total += w;
  return total;
}

}  // namespace desync::spmv
