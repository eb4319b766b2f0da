"""calibrate_measure: the measurements of tools/calibrate_platform.py (`desync-calibrate`), one
function per step, each a `desync run` of a deck written here (Runner, calibrate_runner.py) and
read back from its HDF5 file (docs/output.md):

  measure_layout   lscpu -p=CPU,CORE,SOCKET,NODE: sockets, NUMA domains, cores per domain
  measure_memory   saturation workload, mode "ranks", triad, n ranks of one domain: b(n), n = 1 .. max_n
  measure_network  pingpong workload, 2 ranks on this node: one-way times, t(s) = L + s / B fit
  measure_eager    the eager limits from /provenance/mpi_eager (MPI_T), else ompi_info
  measure_divide   triad workload, kernel "divide", 1 rank, 1 thread: time per divide
  measure_rounds   the three runs above in rounds (one of each per round; the calibration's order)

Each of memory, network and divide is one function per run (*_run) and one that keeps the best of
the runs (*_best).

Each logs what it ran and found; a failed run raises RuntimeError, a result file that is not a
readable desync output with the datasets read here DesyncError (one line naming the file and what
is missing or wrong: h5file.open_output, require)."""

import shutil
import subprocess

from .calibrate_fit import eager_limits, fit_latency_bandwidth, parse_lscpu, parse_mpi_eager, parse_ompi_info
from .calibrate_runner import log, tagged
from .calibrate_toml import parse_toml, toml_value
from .errors import DesyncError
from .h5file import open_output, read_attr, read_text, require, set_reader, to_scalar

PINGPONG_SIZES = [8, 64, 512, 4096, 32768, 262144, 1048576, 4194304]
PINGPONG_SIZES_QUICK = [8, 4096, 65536, 1048576]
TRIAD_CODE = 3  # /saturation/kernel code of "triad" (docs/output.md)


# --------------------------------------------------------------------------------------------
# Decks and result files
# --------------------------------------------------------------------------------------------

def saturation_deck(max_n, quick):
    """The saturation deck: triad, mode "ranks", n = 1 .. max_n ranks of one thread on the cores
    of one domain. Ranks, not threads of one rank: the simulated ranks are MPI processes, and on
    the development machine threads of one rank reached 25.5 GB/s at n = 2 where 2 ranks reached
    30.5 GB/s, as the 2-rank triad workload does (29 GB/s)."""
    return ("# written by tools/calibrate_platform.py: b(n) of the triad, n ranks of one domain\n"
            "[run]\nworkload = \"saturation\"\n\n[threads]\nper_rank = 1\n\n"
            "[saturation]\nkernels = [\"triad\"]\nmode = \"ranks\"\nmax_n = 0\nsize = %d\n"
            "repetitions = %d\ntolerance = 0.1\n") % ((1 << 21) if quick else 0, 2 if quick else 20)


def pingpong_sizes(quick):
    """The calibration's pingpong message sizes (--quick: four)."""
    return PINGPONG_SIZES_QUICK if quick else PINGPONG_SIZES


def pingpong_deck(sizes, quick):
    """The pingpong deck: 2 ranks, 1 thread each, message sizes `sizes`."""
    return ("# written by tools/calibrate_platform.py: intra-node latency and bandwidth\n"
            "[run]\nworkload = \"pingpong\"\niterations = %d\nwarmup = %d\n\n[threads]\nper_rank = 1\n\n"
            "[pingpong]\nmode = \"pingpong\"\nsizes = %s\n") % (
                20 if quick else 500, 2 if quick else 20, toml_value(sizes))


def divide_deck(quick):
    """The triad deck with kernel "divide": 1 rank, 1 thread. The time per divide depends on the
    chain length: below about 100 dependent divides per element the out-of-order core overlaps
    the chains of neighbouring elements (2.95 ns per divide at 64 here, 3.97 ns at 200), so the
    chain is as long as in the shipped core-bound decks (200-250): latency-bound."""
    return ("# written by tools/calibrate_platform.py: time per divide of the triad kernel \"divide\"\n"
            "[run]\nworkload = \"triad\"\niterations = %d\nwarmup = %d\n\n[threads]\nper_rank = 1\n\n"
            "[triad]\nkernel = \"divide\"\nsize_per_rank = %d\ndivides = %d\noffsets = [1]\n") % (
                5 if quick else 60, 1 if quick else 5, 5000 if quick else 20000, 16 if quick else 200)


def _text(v):
    return v.decode("ascii", "replace").rstrip("\0") if isinstance(v, bytes) else str(v)


def _root_text(f, names):
    """Root attributes names as text; DesyncError naming the first that is absent."""
    missing = [k for k in names if k not in f.attrs]
    if missing:
        raise DesyncError("root attribute %s is missing" % missing[0])
    return {k: _text(to_scalar(f.attrs[k])) for k in names}


def read_saturation(path, median=False):
    """(b(n) of the triad, n, elements per array, file attributes) of a saturation file; b(n) from
    the shortest sweep (as STREAM), or with `median` from the median sweep (time_median)."""
    import numpy as np
    with open_output(path, note_incomplete=False) as f:
        set_reader("calibrate")
        kernels = [int(k) for k in require(f, "saturation/kernel", "number", 1)]
        if TRIAD_CODE not in kernels:
            raise DesyncError("/saturation/kernel holds %s, no triad (code %d)" % (kernels, TRIAD_CODE))
        row = kernels.index(TRIAD_CODE)
        n = [int(x) for x in require(f, "saturation/n", "number", 1)]
        shape = (len(kernels), len(n))
        b = np.asarray(require(f, "saturation/bandwidth", "number", 2, len(kernels), "kernel"), dtype=float)
        if median:
            t = np.asarray(require(f, "saturation/time", "number", 2, len(kernels), "kernel"), dtype=float)
            t_med = np.asarray(require(f, "saturation/time_median", "number", 2, len(kernels), "kernel"), dtype=float)
            if t.shape != shape or t_med.shape != shape:
                raise DesyncError("/saturation/time or time_median is not %s (kernels x values of N)" % (shape,))
            b = b * t / t_med
        if b.shape != shape:
            raise DesyncError("/saturation/bandwidth has shape %s, expected %s" % (b.shape, shape))
        b = b[row]
        elements = int(require(f, "saturation/elements", "number", 0))
        attrs = _root_text(f, ("desync_version", "git_revision", "mpi_library_version"))
    if not np.all(np.isfinite(b)) or np.any(b <= 0):
        raise RuntimeError("saturation file %s has missing bandwidths: %s" % (path, b))
    return [float(x) for x in b], [int(x) for x in n], elements, attrs


def read_pingpong(path):
    """(sizes, one-way times = median round trip / 2 of the first pair, /provenance/mpi_eager)."""
    import numpy as np
    with open_output(path, note_incomplete=False) as f:
        set_reader("calibrate")
        sizes = [int(x) for x in require(f, "pingpong/bytes", "number", 1)]
        rt = np.asarray(require(f, "pingpong/round_trip_median", "number", 2, len(sizes), "size"), dtype=float)
        if rt.shape[1] < 1:
            raise DesyncError("/pingpong/round_trip_median has no pair (shape %s)" % (rt.shape,))
        eager = read_text(f, "provenance/mpi_eager", "")
    return sizes, [float(x) / 2.0 for x in rt[:, 0]], eager


def read_divide(path):
    """(median over ranks of each rank's median compute phase, elements per rank, divides) of a
    divide run's file (one rank in the calibration: its median)."""
    import numpy as np
    with open_output(path, note_incomplete=False) as f:
        set_reader("calibrate")
        stats = np.asarray(require(f, "summary/phase_stats", "number", 3), dtype=float)
        names = read_attr(f, "summary/phase_stats", "phase_names")
        if not isinstance(names, list) or "compute" not in names or len(names) != stats.shape[1] or stats.shape[2] < 2:
            raise DesyncError("/summary/phase_stats: shape %s, phase_names %s: no median of phase compute"
                              % (stats.shape, repr(names)[:60]))
        median = float(np.median(stats[:, names.index("compute"), 1]))
        resolved = parse_toml(require(f, "config/resolved", "text", 0))
        try:
            triad = resolved["triad"]
            return median, int(triad["size_per_rank"]), int(triad["divides"])
        except (KeyError, TypeError, ValueError):
            raise DesyncError("/config/resolved has no [triad] size_per_rank and divides")


def ompi_info_eager():
    """The eager and rendezvous parameters `ompi_info` reports ({} without Open MPI's ompi_info)."""
    if not shutil.which("ompi_info"):
        return {}
    try:
        out = subprocess.run(["ompi_info", "--param", "btl", "all", "--level", "9"],
                             capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return {}
    return parse_ompi_info(out.stdout)


# --------------------------------------------------------------------------------------------
# The steps
# --------------------------------------------------------------------------------------------

def measure_layout():
    """Step 1: the node layout (parse_lscpu's dict) of `lscpu -p=CPU,CORE,SOCKET,NODE`."""
    lscpu = subprocess.run(["lscpu", "-p=CPU,CORE,SOCKET,NODE"], capture_output=True, text=True)
    if lscpu.returncode != 0:
        raise RuntimeError("lscpu -p failed: " + lscpu.stderr)
    layout = parse_lscpu(lscpu.stdout)
    log("layout: %(sockets)d socket(s), %(domains)d NUMA domain(s) x %(cores_per_domain)d cores, "
        "%(cpus)d CPU(s)" % layout)
    for w in layout["warnings"]:
        log("warning: " + w)
    return layout


def memory_run(runner, max_n, quick, k, repeat, median=False):
    """Run k of `repeat` of step 2: b(n), n = 1 .. max_n ranks on consecutive cores (the first NUMA
    domain). Returns (b(n) list, elements, the file's attrs). `median`: b(n) from the run's median
    sweep, not its shortest (read_saturation)."""
    sat = runner.run(tagged("saturation", k, repeat), saturation_deck(max_n, quick), max_n, 1,
                     ["--map-by", "core", "--bind-to", "core"])
    b_k, n, elements, attrs = read_saturation(sat, median)
    log("  b(n) [GB/s]: " + ", ".join("%d: %.2f" % (i, v / 1e9) for i, v in zip(n, b_k)))
    return b_k, elements, attrs


def memory_best(runs, max_n):
    """Step 2's result from its runs (memory_run's tuples): the best b(n) per n, as STREAM takes
    the best sweep. Returns {"b", "runs" (b(n) of every run), "elements", "attrs" (the file's
    desync_version, git_revision, mpi_library_version)}."""
    runs_b = [r[0] for r in runs]
    b = [max(col) for col in zip(*runs_b)]
    if len(b) != max_n:
        log("warning: the sweep measured n = 1..%d, not 1..%d (binding?)" % (len(b), max_n))
    return {"b": b, "runs": runs_b, "elements": runs[-1][1], "attrs": runs[-1][2]}


def measure_memory(runner, max_n, quick, repeat, median=False):
    """Step 2, its `repeat` runs in a row: memory_best of memory_run k = 0 .. repeat - 1."""
    log("memory: saturation sweep, triad, n = 1..%d ranks of one domain, %d run(s)" % (max_n, repeat))
    return memory_best([memory_run(runner, max_n, quick, k, repeat, median) for k in range(repeat)], max_n)


def network_run(runner, quick, k, repeat):
    """Run k of `repeat` of step 3: a pingpong of 2 ranks on this node. Returns (sizes, one-way
    times, /provenance/mpi_eager)."""
    pp = runner.run(tagged("pingpong", k, repeat), pingpong_deck(pingpong_sizes(quick), quick), 2, 1,
                    ["--map-by", "core", "--bind-to", "core"])
    return read_pingpong(pp)


def network_best(runs):
    """Step 3's result from its runs (network_run's tuples): per size the fastest one-way time of
    the runs, and the fit t(s) = L + s / B. Returns {"sizes", "one_way", "runs" (one-way times of
    every run), "latency", "bandwidth", "resid" (relative residuals), "eager_text"
    (/provenance/mpi_eager)}."""
    psizes, eager_text = runs[-1][0], runs[-1][2]
    runs_t = [r[1] for r in runs]
    one_way = [min(col) for col in zip(*runs_t)]
    lat, bw, resid = fit_latency_bandwidth(psizes, one_way)
    for s_, t, r, col in zip(psizes, one_way, resid, zip(*runs_t)):
        log("  %9d B  one-way %10.3f us (runs up to %10.3f)  model %+6.1f %%"
            % (s_, t * 1e6, max(col) * 1e6, -100.0 * r))
    log("  fit: L = %.3f us, B = %.3f GB/s" % (lat * 1e6, bw / 1e9))
    if lat <= 0:
        log("  warning: fitted latency <= 0; using the smallest one-way time instead")
        lat = min(one_way)
    return {"sizes": psizes, "one_way": one_way, "runs": runs_t, "latency": lat, "bandwidth": bw,
            "resid": resid, "eager_text": eager_text}


def measure_network(runner, quick, repeat):
    """Step 3, its `repeat` runs in a row: network_best of network_run k = 0 .. repeat - 1."""
    log("network: pingpong, 2 ranks on this node, %d sizes, %d run(s)" % (len(pingpong_sizes(quick)), repeat))
    return network_best([network_run(runner, quick, k, repeat) for k in range(repeat)])


def measure_eager(eager_text, inter_transport):
    """Step 4: ((intra, intra source, inter, inter source), note) of the MPI library's eager limits:
    from the pingpong file's /provenance/mpi_eager (MPI_T), else from ompi_info; None if neither."""
    variables = parse_mpi_eager(eager_text)
    intra_e, isrc, inter_e, osrc = eager_limits(variables, inter_transport)
    if intra_e is None or inter_e is None:
        more = ompi_info_eager()
        i2, is2, o2, os2 = eager_limits(more, inter_transport)
        if intra_e is None and i2 is not None:
            intra_e, isrc = i2, is2 + " (ompi_info)"
        if inter_e is None and o2 is not None:
            inter_e, osrc = o2, os2 + " (ompi_info)"
    if isrc and "(ompi_info)" not in isrc:
        isrc += " (MPI_T)"
    if osrc and "(ompi_info)" not in osrc:
        osrc += " (MPI_T)"
    log("eager limits: intra %s (%s), inter %s (%s)" % (intra_e, isrc, inter_e, osrc))
    eager_note = ""
    if isrc and "btl_" in isrc:
        eager_note = "; Open MPI counts its header in this limit"
    return (intra_e, isrc, inter_e, osrc), eager_note


def divide_run(runner, quick, k, repeat, ranks=1):
    """Run k of `repeat` of step 5: the triad kernel "divide" on `ranks` ranks, 1 thread each.
    Returns (median compute phase, elements, divides) (read_divide)."""
    dv = runner.run(tagged("divide", k, repeat), divide_deck(quick), ranks, 1,
                    ["--map-by", "core", "--bind-to", "core"] if ranks > 1 else ["--bind-to", "core"])
    median_k, elems, divides = read_divide(dv)
    log("  median compute %.3f ms / (%d x %d) = %.3f ns per divide" % (
        median_k * 1e3, elems, divides, median_k / (elems * divides) * 1e9))
    return median_k, elems, divides


def divide_best(runs):
    """Step 5's result from its runs (divide_run's tuples): the fastest median compute phase /
    (elements x divides). Returns {"divide_time", "medians" (of every run), "elements", "divides"}."""
    medians = [r[0] for r in runs]
    elems, divides = runs[-1][1], runs[-1][2]
    return {"divide_time": min(medians) / (elems * divides), "medians": medians, "elements": elems,
            "divides": divides}


def measure_divide(runner, quick, repeat, ranks=1):
    """Step 5, its `repeat` runs in a row: the time per divide of the triad kernel "divide" on 1
    rank, 1 thread (divide_best of divide_run k = 0 .. repeat - 1). ranks > 1 runs that many ranks
    at once, one per core, and takes the median over them: a core's speed with its neighbours busy
    too (clock boost and shared hardware threads differ from one core busy alone)."""
    log("core: triad kernel \"divide\", %d rank(s), 1 thread each" % ranks)
    return divide_best([divide_run(runner, quick, k, repeat, ranks) for k in range(repeat)])


def measure_rounds(runner, max_n, quick, repeat):
    """Steps 2, 3 and 5 in `repeat` rounds, each round one run of each step: (memory, network,
    divide) as measure_memory, measure_network and measure_divide return them. Why rounds: on a
    shared or virtual machine the speed changes for seconds at a time (another tenant, the host's
    scheduler: the pingpong here ran 2-3 x slower for a few seconds at a time, issue 30), and the
    best of runs made in a row can all fall into one slow spell; spread over the whole
    calibration, one of them is far more likely to see the machine as it is when quiet."""
    log("%d round(s), each: saturation sweep (triad, n = 1..%d ranks of one domain), pingpong (2 ranks "
        "on this node, %d sizes), triad kernel \"divide\" (1 rank)" % (repeat, max_n, len(pingpong_sizes(quick))))
    mem, net, div = [], [], []
    for k in range(repeat):
        log("round %d of %d" % (k + 1, repeat))
        mem.append(memory_run(runner, max_n, quick, k, repeat))
        net.append(network_run(runner, quick, k, repeat))
        div.append(divide_run(runner, quick, k, repeat))
    log("memory: best b(n) of %d run(s)" % repeat)
    memory = memory_best(mem, max_n)
    log("network: fastest one-way time per size of %d run(s)" % repeat)
    network = network_best(net)
    divide = divide_best(div)
    log("core: fastest of %d run(s): %.3f ns per divide" % (repeat, divide["divide_time"] * 1e9))
    return memory, network, divide
