#include "matrix/make_generator.hpp"

#include "matrix/holstein_hubbard.hpp"
#include "matrix/spin_chain.hpp"
#include "matrix/minife.hpp"
#include "matrix/stencil5.hpp"
#include "matrix/topological_insulator.hpp"

namespace desync {

std::unique_ptr<MatrixGenerator> make_generator(const MatrixConfig& cfg) {
  switch (cfg.generator) {
    case GeneratorKind::spin: return std::make_unique<SpinChain>(cfg.spin);
    case GeneratorKind::hhq: return std::make_unique<HolsteinHubbard>(cfg.hhq);
    case GeneratorKind::topi: return std::make_unique<TopologicalInsulator>(cfg.topi);
    case GeneratorKind::stencil5: return std::make_unique<Stencil5>(cfg.stencil5);
    case GeneratorKind::minife: return std::make_unique<Minife>(cfg.minife);
  }
  return nullptr;
}

}  // namespace desync
