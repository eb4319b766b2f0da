#pragma once
// The one place a [matrix] generator name becomes a generator object.
#include <memory>

#include "matrix/matrix_config.hpp"
#include "matrix/generator.hpp"

namespace desync {

std::unique_ptr<MatrixGenerator> make_generator(const MatrixConfig& cfg);

}  // namespace desync
