#include "commands/run_verdict.hpp"

#include "core/mpi_util.hpp"

namespace desync {

std::string run_verdict(const WorkloadResult& r, const Timeline& tl, MPI_Comm comm, std::int64_t& total_errors) {
  // Skipped by one rank means skipped by all (the reason is collective: a stop, a size).
  // A workload that could not verify (a ChebFD filter stopped early) is still checked for
  // non-finite values: that check needs no reference. The skip reason is collective.
  if (!r.verification_skipped.empty()) {
    std::int64_t bad = r.nonfinite;
    MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT64_T, MPI_SUM, comm);
    total_errors = bad;
    if (bad == 0) return "not done: " + r.verification_skipped;
    return "failed: " + std::to_string(bad) + " values of the result are not finite (Inf or NaN); the rest not done: " +
           r.verification_skipped;
  }
  std::int64_t e[5] = {r.element_errors, r.message_errors, r.parked ? 0 : timeline_disorder(tl), r.extra_verdict.empty() ? 0 : 1,
                       r.nonfinite};
  MPI_Allreduce(MPI_IN_PLACE, e, 5, MPI_INT64_T, MPI_SUM, comm);
  total_errors = e[0] + e[1] + e[2] + e[3] + e[4];
  // A run stopped before any result was checked (a saturation sweep stopped before its first N,
  // collbench inside its first cell) passed nothing: said as such, not as "passed".
  std::int64_t c[2] = {r.elements_checked + r.messages_checked, r.stop_signal != 0 ? 1 : 0};
  MPI_Allreduce(MPI_IN_PLACE, c, 2, MPI_INT64_T, MPI_SUM, comm);
  if (total_errors == 0 && c[1] > 0 && c[0] == 0) return "not done: the run stopped before any result was checked";
  if (total_errors == 0) return "passed";
  std::string why;
  if (e[3]) why += first_message(r.extra_verdict, comm) + "; ";  // the lowest failing rank's own reason
  if (e[0]) why += std::to_string(e[0]) + " vector elements wrong; ";
  if (e[1]) why += std::to_string(e[1]) + " messages from the wrong partner or iteration; ";
  if (e[2]) why += std::to_string(e[2]) + " timeline events missing or out of order; ";
  if (e[4]) why += std::to_string(e[4]) + " values of the result are not finite (Inf or NaN); ";
  return "failed: " + why.substr(0, why.size() - 2);
}

}  // namespace desync
