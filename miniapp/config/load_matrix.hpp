#pragma once
// Reads [matrix] and its generator sub-tables ([matrix.spin], [matrix.hhq], [matrix.topi],
// [matrix.stencil5]) with the same rules as every other table.
#include "matrix/matrix_config.hpp"
#include "config/table_reader.hpp"

namespace desync {

MatrixConfig read_matrix(TableReader r);

}  // namespace desync
