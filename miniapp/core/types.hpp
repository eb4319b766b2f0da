#pragma once
// View and policy aliases used by every kernel: one place to change layouts or index types.
#include <Kokkos_Core.hpp>

#include <cstdint>

namespace desync {

using ExecSpace = Kokkos::DefaultExecutionSpace;
using MemSpace = ExecSpace::memory_space;
using HostSpace = Kokkos::HostSpace;

using Vector = Kokkos::View<double*, Kokkos::LayoutLeft, MemSpace>;  // LayoutLeft: what KokkosKernels instantiates
using HostVector = Vector::HostMirror;
using ByteBuffer = Kokkos::View<unsigned char*, HostSpace>;

// 64-bit index type everywhere a global or per-rank element count can exceed 2^31.
using Index = std::int64_t;

// Distributed sparse matrices: 64-bit row offsets, 32-bit local column indices (local columns
// first, then halo columns), values real or complex.
using RowOffsets = Kokkos::View<std::size_t*, MemSpace>;
using LocalColumns = Kokkos::View<std::int32_t*, MemSpace>;
template <class T>
using Values = Kokkos::View<T*, MemSpace>;
using Complex = Kokkos::complex<double>;
// A dense column-major block (LayoutLeft, what BLAS expects) over a caller's buffer: the
// dense blocks live in flat buffers whose parts the collectives move.
using DenseBlock = Kokkos::View<double**, Kokkos::LayoutLeft, MemSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
using ConstDenseBlock = Kokkos::View<const double**, Kokkos::LayoutLeft, MemSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
using RangePolicy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<Index>>;

}  // namespace desync
