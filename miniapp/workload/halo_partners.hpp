#pragma once
// A halo plan as the /comm partner list: the plan's partners with the bytes one exchange moves
// (entries x scalar bytes x block width), for the matrix workloads (SpMV, ChebFD, CG).
#include "comm/halo_plan.hpp"
#include "record/workload_result.hpp"

namespace desync {

inline PartnerList halo_partners(const HaloPlan& plan, int scalar_bytes, int nb) {
  PartnerList l;
  for (const auto& p : plan.recv) {
    l.recv_rank.push_back(p.rank);
    l.recv_bytes.push_back(HaloPlan::bytes(p, scalar_bytes, nb));
  }
  for (const auto& p : plan.send) {
    l.send_rank.push_back(p.rank);
    l.send_bytes.push_back(HaloPlan::bytes(p, scalar_bytes, nb));
  }
  return l;
}

}  // namespace desync
