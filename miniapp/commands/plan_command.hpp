#pragma once
// `desync plan DECK --ranks P ...`: prints the partition and halo plan of the deck's matrix.
#include <string>

#include "config/config.hpp"
#include "plan/plan.hpp"

namespace desync {


// Throws DeckError for a deck without [matrix] (symmsquarecube decks need none) or options that
// contradict it. Returns the text.
std::string plan_command(const Config& cfg, const PlanOptions& opt, const std::string& format,
                         const PlanModelOptions& model = {});

}  // namespace desync
