#pragma once
// Rank-0 console output. Every rank may call these; only rank 0 prints.
#include <fmt/core.h>

#include <mpi.h>

#include <cstdio>
#include <string>

namespace desync::log {

void set_rank(int rank);
bool is_root();

template <class... Args>
void info(fmt::format_string<Args...> f, Args&&... args) {
  if (is_root()) {
    fmt::print(stdout, f, std::forward<Args>(args)...);
    std::fflush(stdout);
  }
}

template <class... Args>
void warn(fmt::format_string<Args...> f, Args&&... args) {
  if (is_root()) {
    // One write (stderr is unbuffered): a launcher tagging lines (mpiexec --tag-output) or another
    // process's output cannot land between the prefix and the message.
    const std::string line = "desync: warning: " + fmt::format(f, std::forward<Args>(args)...);
    std::fwrite(line.data(), 1, line.size(), stderr);
    std::fflush(stderr);
  }
}

// Prints `message` on one line: control characters (a newline inside a deck string, an escape
// sequence) are shown escaped, so an error is always exactly one line and never drives the terminal.
void error(const std::string& message);

// `s` with control characters escaped (\n, \t, \xNN) and cut to at most `max` characters.
std::string printable(const std::string& s, std::size_t max = std::string::npos);

// Collective: every rank's `text` (may be empty) reaches rank 0, which prints each distinct text
// once on standard error under `heading`, with the ranks that produced it ("ranks 0-15").
void gathered(MPI_Comm comm, const std::string& text, const std::string& heading);

}  // namespace desync::log
