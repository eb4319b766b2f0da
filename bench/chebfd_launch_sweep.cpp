#include "chebfd_launch_sweep.hpp"

#include <stdexcept>
#include <string>
#include <vector>

#include "bench_util.hpp"
#include "workloads/chebfd/chebfd_element_kernels.hpp"

namespace desync::bench {
namespace {

template <int Depth, int Columns>
LaunchPoint time_shape(const chebfd::Fused<double, false>& f, chebfd::ElementLaunch launch, int reps) {
  LaunchPoint p;
  p.team_threads = launch.team_threads;
  p.waves = launch.waves;
  p.depth = Depth;
  p.columns = Columns;
  chebfd::ColumnSums<ExecSpace, Depth, Columns> cs;
  try {
    cs = chebfd::ColumnSums<ExecSpace, Depth, Columns>(f.nb, chebfd::Traits<double>::R, launch);
  } catch (const std::invalid_argument& e) {
    p.refused = e.what();
    return p;  // seconds 0
  }
  p.team = cs.team_size();
  p.teams = cs.teams();
  const Kokkos::View<double*, ExecSpace::memory_space> sums("desync::bench::sums", f.value_count);  // where the kernels leave them
  const auto rows = static_cast<std::int64_t>(f.row_ptr.extent(0)) - 1;
  try {
    p.seconds = best_time(reps, [&] {
      cs.template reduce<chebfd::Traits<double>::R>("desync::chebfd::fused_shape", 0, rows, chebfd::FusedElement<double, false>{f},
                                                    sums.data(), nullptr);
      Kokkos::fence();
    });
  } catch (const std::runtime_error& e) {
    // ColumnSums checks the team against what the space allows any team kernel; the launch
    // checks it against this kernel's registers (Kokkos throws: "requested too large team
    // size"), e.g. a 1024-thread team of a kernel needing more than 64 registers per thread.
    p.seconds = 0;
    const std::string what = e.what();
    p.refused = what.substr(0, what.find('\n'));  // Kokkos' message may carry a backtrace
  }
  return p;
}

}  // namespace

std::vector<LaunchPoint> sweep_launch_shapes(const chebfd::Fused<double, false>& f, int reps) {
  constexpr bool device = chebfd::block_mapping_for<ExecSpace> == chebfd::BlockMapping::element_per_thread;
  std::vector<LaunchPoint> out;
  out.push_back(time_shape<2, 1>(f, {}, reps));  // the workload's shape
  const std::vector<int> teams = device ? std::vector<int>{128, 256, 512, 1024} : std::vector<int>{0};
  for (int team : teams)
    for (int waves : {1, 2, 4, 8}) {
      const chebfd::ElementLaunch launch{team, waves};
      out.push_back(time_shape<1, 1>(f, launch, reps));
      out.push_back(time_shape<2, 1>(f, launch, reps));
      out.push_back(time_shape<4, 1>(f, launch, reps));
      out.push_back(time_shape<1, 2>(f, launch, reps));
      out.push_back(time_shape<2, 2>(f, launch, reps));
      out.push_back(time_shape<4, 2>(f, launch, reps));
      out.push_back(time_shape<1, 4>(f, launch, reps));
      out.push_back(time_shape<2, 4>(f, launch, reps));
    }
  return out;
}

}  // namespace desync::bench
