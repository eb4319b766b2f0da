#pragma once
// The platform a deck is simulated on: the platform file, then what the deck says of the modelled
// nodes ([threads] per_rank, [placement] ranks_per_node), then the command line's --pset, so that
// a --pset still wins. An error the platform's rules find in a value the deck gave names the
// deck's key and line, not a --pset the user never typed.
#include <string>
#include <vector>

#include "config/config.hpp"
#include "sim_model/platform_file.hpp"

namespace desync::sim {

Platform platform_for_deck(const Config& cfg, const std::string& platform_path, const std::vector<std::string>& platform_sets);

}  // namespace desync::sim
