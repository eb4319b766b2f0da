#include "simulate/sim_deck_platform.hpp"

#include <fmt/format.h>

#include "config/locate_key.hpp"
#include "core/errors.hpp"

namespace desync::sim {

Platform platform_for_deck(const Config& cfg, const std::string& platform_path, const std::vector<std::string>& platform_sets) {
  if (cfg.threads.per_domain)
    throw DeckError(locate(cfg, "threads.per_rank") + ": error: [threads] per_rank = \"domain\": not modelled by desync simulate; give "
                    "the threads per rank as a number, or with --pset placement.threads_per_rank=N");
  std::vector<std::string> psets;
  // Each deck value's --pset and deck key, for an error the platform's rules find in it.
  struct FromDeck {
    std::string pset, key, shown;
  };
  std::vector<FromDeck> from_deck;
  // The deck's [threads] per_rank is the rank's thread count on the modelled nodes too.
  if (cfg.threads.per_rank > 0) {
    psets.push_back("placement.threads_per_rank=" + std::to_string(cfg.threads.per_rank));
    from_deck.push_back({psets.back(), "threads.per_rank",
                         fmt::format("[threads] per_rank = {}, the platform's placement.threads_per_rank", cfg.threads.per_rank)});
  }
  // The deck's [placement] ranks_per_node counts consecutive ranks as one node in a real run; in
  // a simulation it places that many on each modelled node.
  if (cfg.placement.ranks_per_node > 0) {
    psets.push_back("placement.ranks_per_node=" + std::to_string(cfg.placement.ranks_per_node));
    from_deck.push_back({psets.back(), "placement.ranks_per_node",
                         fmt::format("[placement] ranks_per_node = {}, the platform's placement.ranks_per_node",
                                     cfg.placement.ranks_per_node)});
  }
  psets.insert(psets.end(), platform_sets.begin(), platform_sets.end());
  try {
    return load_platform(platform_path, psets);
  } catch (const DeckError& e) {
    const std::string what = e.what();
    for (const FromDeck& d : from_deck) {
      const std::string blamed = "command line (--pset " + d.pset + ")";
      if (what.rfind(blamed, 0) == 0) throw DeckError(locate(cfg, d.key) + " (" + d.shown + ")" + what.substr(blamed.size()));
    }
    throw;
  }
}

}  // namespace desync::sim
