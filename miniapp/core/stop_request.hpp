#pragma once
// Stop requests from the batch system or the user: SIGTERM, SIGINT and SIGUSR1 (what Slurm's
// --signal sends ahead of a job's time limit, or Ctrl-C). The first such signal only records
// itself; the experiment loop notices it at its next agreement point, every rank stops after the
// same iteration and the file is written with what was recorded, marked incomplete. A second
// signal ends the process at once (default action), after removing the half-written output file
// named by set_pending_output(). Only async-signal-safe work happens in the handler.
#include <string>

namespace desync {

// Installs the handlers (once; `desync run` only: other commands keep the default action).
void install_stop_handlers();
// The signal number of the first stop request, 0 if none.
int stop_signal();
// "SIGTERM", "SIGINT", "SIGUSR1" or "signal N".
std::string signal_name(int signo);
// The file a second signal removes before the process dies (empty: none).
void set_pending_output(const std::string& path);

}  // namespace desync
