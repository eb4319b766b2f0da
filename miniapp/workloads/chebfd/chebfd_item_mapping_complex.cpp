// ChebFD's kernels under the item mapping (a work item per row or SELL chunk: the host's) for
// complex values, for the build's space, compiled here once (chebfd_element_kernels.hpp says why;
// the double ones beside, so that both compile at once). On a GPU build only the tests and
// bench_chebfd call them.
#include "workloads/chebfd/chebfd_element_kernels.hpp"

namespace desync::chebfd {

DESYNC_CHEBFD_FOR_INIT(DESYNC_CHEBFD_SELL_REDUCTION, , Complex, SellMapping::chunk_per_item)
DESYNC_CHEBFD_FOR_INIT(DESYNC_CHEBFD_SELL_REDUCTION, , Complex, SellMapping::row_per_item)
DESYNC_CHEBFD_FOR_INIT(DESYNC_CHEBFD_DISPATCHERS, , Complex, BlockMapping::item_per_thread)

}  // namespace desync::chebfd
