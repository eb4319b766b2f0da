#pragma once
// `desync plan DECK --ranks P ...`: prints the partition and halo plan of the deck's matrix.
#include <string>

#include "config/config.hpp"
#include "plan/plan.hpp"

namespace desync {

// The communication model of `desync plan` for symmsquarecube decks (workloads/symmsquarecube/ssc_plan.hpp):
// bandwidth in MiB/s (2^20 B/s, the study's MB/s), latency in microseconds; bandwidth 0: volumes only.
struct PlanModelOptions {
  double bandwidth_MiBps = 0.0;
  double latency_us = 0.0;
};

// Throws DeckError for a deck without [matrix] (symmsquarecube decks need none) or options that
// contradict it. Returns the text.
std::string plan_command(const Config& cfg, const PlanOptions& opt, const std::string& format,
                         const PlanModelOptions& model = {});

}  // namespace desync
