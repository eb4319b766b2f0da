#pragma once
// The [symmsquarecube] table of a deck as the symmsquarecube workload reads it (symmsquarecube_deck.cpp; docs/decks.md).
#include <cstdint>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "core/enum_table.hpp"

namespace desync {

enum class SscAlgorithm { original, baseline, optimized, twofive };
inline constexpr EnumTable<SscAlgorithm, 4> ssc_algorithm_names{{{SscAlgorithm::original, "original"},
                                                                 {SscAlgorithm::baseline, "baseline"},
                                                                 {SscAlgorithm::optimized, "optimized"},
                                                                 {SscAlgorithm::twofive, "2.5d"}}};

enum class SscInput { random, purification };
inline constexpr EnumTable<SscInput, 2> ssc_input_names{
    {{SscInput::random, "random"}, {SscInput::purification, "purification"}}};

// SymmSquareCube, D^2 and D^3 of a symmetric matrix (symmsquarecube/, papers.md E.2 Alg. 3-6).
struct SymmSquareCubeConfig {
  std::int64_t n = 1000;  // matrix dimension N
  SscAlgorithm algorithm = SscAlgorithm::optimized;
  std::int64_t replication = 2;  // "2.5d": c, mesh sqrt(P/c) x sqrt(P/c) x c
  SscInput input = SscInput::random;
  std::int64_t verify_n = 1024;  // N up to this: D^2, D^3 checked against a serial product; above: by projection
  SourcePos replication_pos;
};

}  // namespace desync
