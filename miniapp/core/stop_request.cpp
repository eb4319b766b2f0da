#include "core/stop_request.hpp"

#include <unistd.h>

#include <csignal>
#include <cstring>

namespace desync {
namespace {

volatile std::sig_atomic_t g_signal = 0;
// A fixed buffer: the handler may not touch std::string. Paths longer than this are not removed
// by a second signal (the .tmp then stays; it is never mistaken for a result).
char g_pending[4096] = {};

extern "C" void on_stop_signal(int signo) {
  if (g_signal == 0) {
    g_signal = signo;
    return;
  }
  if (g_pending[0] != '\0') ::unlink(g_pending);
  std::signal(signo, SIG_DFL);
  std::raise(signo);
}

}  // namespace

void install_stop_handlers() {
  struct sigaction sa {};
  sa.sa_handler = on_stop_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;  // MPI and file calls go on; the loop polls the flag
  for (int s : {SIGTERM, SIGINT, SIGUSR1}) sigaction(s, &sa, nullptr);
}

int stop_signal() { return g_signal; }

std::string signal_name(int signo) {
  switch (signo) {
    case SIGTERM: return "SIGTERM";
    case SIGINT: return "SIGINT";
    case SIGUSR1: return "SIGUSR1";
    default: return "signal " + std::to_string(signo);
  }
}

void set_pending_output(const std::string& path) {
  // Not atomic with respect to the handler, but a torn path only means a .tmp is not removed.
  if (path.size() >= sizeof g_pending) {
    g_pending[0] = '\0';
    return;
  }
  std::memcpy(g_pending, path.c_str(), path.size() + 1);
}

}  // namespace desync
