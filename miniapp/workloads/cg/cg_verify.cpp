#include "workloads/cg/cg_verify.hpp"

#include <Kokkos_Core.hpp>

namespace desync::cg {

HostRows host_rows(const LocalMatrix<double>& m) {
  HostRows h;
  h.first = m.first_row;
  h.rows = m.rows;
  h.halo_columns = m.halo_columns;
  h.row_ptr = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), m.row_ptr);
  h.col = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), m.col);
  h.val = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), m.val);
  return h;
}

}  // namespace desync::cg
