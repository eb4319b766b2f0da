#pragma once
// Kokkos::deep_copy(view, value) runs a kernel Kokkos names itself ("Kokkos::ViewFill-1D" in
// 3.4, without the View's label), so a Kokkos Tool cannot place it beside desync's phases
// (tests/unit/test_labels.cpp). labelled_fill is the same fill as one kernel of desync's label
// over the View's span, in the View's execution space, fenced after as deep_copy is (MPI may
// receive into the View next: a GPU-aware receive must not race a fill still running, e.g. the
// NaN poison of a checked iteration). The label is taken as deck code takes
// every label inside a loop: a std::string built once by the caller (a literal would be a new
// string per launch).
#include <Kokkos_Core.hpp>

#include <cstdint>
#include <stdexcept>
#include <string>

namespace desync::compat {

template <class View>
void labelled_fill(const std::string& label, const View& v, const typename View::non_const_value_type& value) {
  using Space = typename View::execution_space;
  // A strided subview has gaps its span would cover: every View filled here is contiguous.
  if (!v.span_is_contiguous()) throw std::logic_error("labelled_fill: " + label + " is not contiguous");
  typename View::pointer_type p = v.data();
  const typename View::non_const_value_type x = value;
  Kokkos::parallel_for(label, Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>(0, static_cast<std::int64_t>(v.span())),
                       KOKKOS_LAMBDA(std::int64_t i) { p[i] = x; });
  Space().fence();
}

}  // namespace desync::compat
