#pragma once
// The flush hook of `desync run` (loop/flush_hook.hpp): at a flush point it copies what the
// workload's result holds of the iterations done, takes it through the same steps as the final
// write (commands/run_record.hpp) and writes it as the next generation of OUT.partial
// (io/output_generations.hpp). The run's own result is not touched.
#include <mpi.h>

#include <cstdint>
#include <string>

#include "commands/run_record.hpp"
#include "io/output_generations.hpp"
#include "loop/flush_hook.hpp"

namespace desync {

class RunFlusher : public FlushHook {
 public:
  // Installs itself as the run's hook when [record] flush_seconds > 0; uninstalls on destruction.
  RunFlusher(const RunContext& ctx, const std::string& output);
  ~RunFlusher() override;
  RunFlusher(const RunFlusher&) = delete;
  RunFlusher& operator=(const RunFlusher&) = delete;

  double flush(const WorkloadResult& result, std::int64_t iterations_done) override;
  MPI_Comm comm() const override { return ctx_.comm; }
  // [record] flush_seconds as given; the default grows to keep each flush under flush_share of the
  // time between two (a file rewritten whole grows with the run: docs/method.md).
  double first_interval() const override { return ctx_.cfg.record.flush_seconds; }
  double next_interval(double took) const override;
  static constexpr double flush_share = 0.01;

  // After the final file is committed: the generations are no longer needed.
  void remove_generations() { generations_.remove(); }
  std::int64_t flushes() const { return generations_.flushes(); }
  const std::string& link() const { return generations_.link(); }

 private:
  const RunContext& ctx_;
  OutputGenerations generations_;
  bool failed_ = false;  // a flush failed: warned once, no more tried
};

}  // namespace desync
