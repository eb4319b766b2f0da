// ChebFD's kernels under the item mapping (a work item per row or SELL chunk: the host's) for
// double values, for the build's space, compiled here once (chebfd_element_kernels.hpp says why;
// the complex ones beside, so that both compile at once). On a GPU build only the tests and
// bench_chebfd call them.
#include "workloads/chebfd/chebfd_element_kernels.hpp"

namespace desync::chebfd {

DESYNC_CHEBFD_FOR_INIT(DESYNC_CHEBFD_SELL_REDUCTION, , double, SellMapping::chunk_per_item)
DESYNC_CHEBFD_FOR_INIT(DESYNC_CHEBFD_SELL_REDUCTION, , double, SellMapping::row_per_item)
DESYNC_CHEBFD_FOR_INIT(DESYNC_CHEBFD_DISPATCHERS, , double, BlockMapping::item_per_thread)

}  // namespace desync::chebfd
