#include "workload/active_subset.hpp"

#include <algorithm>


namespace desync {

int active_rank_count(const NodeLayout& l, int active_ppn) {
  std::vector<int> per(static_cast<std::size_t>(l.nodes), 0);
  for (int n : l.node_of) ++per[static_cast<std::size_t>(n)];
  int count = 0;
  for (int k : per) count += active_ppn > 0 ? std::min(k, active_ppn) : k;
  return count;
}

void finish_active_subset(WorkloadResult& r, MPI_Comm world, ActiveRanks& act, const NodeLayout& l, int active_ppn,
                          const ParkRecord& park) {
  if (act.active()) act.release();
  Timeline& tl = r.timeline;
  std::int64_t agreed[2] = {tl.iterations(), r.stop_signal};
  MPI_Bcast(agreed, 2, MPI_INT64_T, 0, world);
  if (!act.active()) {
    tl.truncate(std::min(agreed[0], tl.iterations()));
    r.stop_signal = static_cast<int>(agreed[1]);
    r.parked = true;
  }
  const auto one = [](double v) { return std::vector<double>{v}; };
  r.datasets.push_back({"placement", "node", "1", {}, one(l.node), true, true});
  r.datasets.push_back({"placement", "local", "1", {}, one(l.local), true, true});
  r.datasets.push_back({"placement", "active", "1", {}, one(act.active() ? 1 : 0), true, true});
  r.datasets.push_back({"placement", "parked_time", "s", {}, one(park.wall), true, false});
  r.datasets.push_back({"placement", "parked_cpu_time", "s", {}, one(park.cpu), true, false});
  r.metrics.push_back(count_value("nodes", l.nodes));
  r.metrics.push_back(count_value("active_ranks", act.active_count()));
  r.metrics.push_back(count_value("active_ppn", active_ppn > 0 ? std::min(active_ppn, l.ppn_max) : l.ppn_max));
  r.metrics.push_back(count_value("natural_placement", l.natural ? 1 : 0));
  // The parked ranks' CPU use while asleep, over their wall time: the study's claim that sleeping
  // ranks cost (almost) nothing, measured. 0 when every rank is active.
  double cw[2] = {park.cpu, park.wall};
  MPI_Allreduce(MPI_IN_PLACE, cw, 2, MPI_DOUBLE, MPI_SUM, world);
  r.metrics.push_back({"parked_cpu_share", cw[1] > 0 ? cw[0] / cw[1] : 0.0, "1"});
}

}  // namespace desync
