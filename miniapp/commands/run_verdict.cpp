#include "commands/run_verdict.hpp"

#include "core/mpi_util.hpp"

namespace desync {

std::string run_verdict(const WorkloadResult& r, const Timeline& tl, MPI_Comm comm, std::int64_t& total_errors) {
  // One reduction of everything the verdict needs, whatever each rank found, so that no rank's
  // own state picks a branch with other collectives than its peers'.
  std::int64_t e[8] = {r.element_errors, r.message_errors, r.parked ? 0 : timeline_disorder(tl), r.extra_verdict.empty() ? 0 : 1,
                       r.nonfinite, r.elements_checked + r.messages_checked, r.stop_signal != 0 ? 1 : 0,
                       r.verification_skipped.empty() ? 0 : 1};
  MPI_Allreduce(MPI_IN_PLACE, e, 8, MPI_INT64_T, MPI_SUM, comm);
  total_errors = e[0] + e[1] + e[2] + e[3] + e[4];
  // A workload that could not verify (a ChebFD filter stopped early, a run stopped before its last call)
  // still has what needs no reference checked: finite values, the timeline's order, messages.
  const std::string skipped = e[7] > 0 ? first_message(r.verification_skipped, comm) : std::string();
  if (total_errors == 0) {
    if (!skipped.empty()) return "not done: " + skipped;
    // A run stopped before any result was checked (a saturation sweep stopped before its first
    // N, collbench inside its first cell) passed nothing: said as such, not as "passed".
    if (e[6] > 0 && e[5] == 0) return "not done: the run stopped before any result was checked";
    // Nothing checked on any rank (a 0-byte ping-pong, toy messages shorter than their stamp): a
    // pass would claim what was never looked at.
    if (e[5] == 0) return "not done: nothing was checked (no result element or message of this run is one its check covers)";
    return "passed";
  }
  std::string why;
  if (e[3]) why += first_message(r.extra_verdict, comm) + "; ";  // the lowest failing rank's own reason
  if (e[0]) why += std::to_string(e[0]) + " vector elements wrong; ";
  if (e[1]) why += std::to_string(e[1]) + " messages from the wrong partner or iteration; ";
  if (e[2]) why += std::to_string(e[2]) + " timeline events missing or out of order; ";
  if (e[4]) why += std::to_string(e[4]) + " values of the result are not finite (Inf or NaN); ";
  why = why.substr(0, why.size() - 2);
  return "failed: " + why + (skipped.empty() ? "" : "; the rest not done: " + skipped);
}

}  // namespace desync
