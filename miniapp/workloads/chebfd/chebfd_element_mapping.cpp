// ChebFD's kernels under the element mapping (a thread per element (row, column): the GPU's), for
// the build's space, compiled here once (chebfd_element_kernels.hpp says why). On a host build
// only the tests and bench_chebfd call them.
#include "workloads/chebfd/chebfd_element_kernels.hpp"

namespace desync::chebfd {

DESYNC_CHEBFD_FOR_INIT(DESYNC_CHEBFD_DISPATCHERS, , double, BlockMapping::element_per_thread)
DESYNC_CHEBFD_FOR_INIT(DESYNC_CHEBFD_DISPATCHERS, , Complex, BlockMapping::element_per_thread)

}  // namespace desync::chebfd
