"""The desync-calibrate command line (installed as `desync-calibrate` by `pip install ./tools`;
tools/calibrate_platform.py runs it in place): write a `desync simulate` platform file
(platforms/*.toml) for the machine this runs on, from desync's own measurements on one node.

    desync-calibrate [--desync PATH] [--mpiexec "mpiexec --oversubscribe"] [-o FILE]
                     [--quick] [--keep | --workdir DIR] [--inter-from intra|args ...]

What it runs (each a `desync run` of a deck it writes into the work directory, calibrate_measure.py):

  1. layout   `lscpu -p=CPU,CORE,SOCKET,NODE`: sockets, NUMA domains and cores per domain
              ([node]; count = 1).
  2. memory   the saturation workload, mode "ranks", kernel triad, one single-threaded rank per
              core of the first NUMA domain: b(n) for n = 1 .. cores_per_domain from
              /saturation/bandwidth, STREAM byte counting ([memory] table).
  3. network  the pingpong workload, 2 ranks on this node, sizes 8 B .. 4 MiB: one-way time
              t(s) = median round trip / 2, least-squares fit t(s) = L + s / B
              ([network] intra_node_latency, intra_node_bandwidth).
  4. eager    the MPI library's eager limits from the pingpong file's /provenance/mpi_eager
              (MPI_T), else from `ompi_info --param btl all --level 9`, else an estimate.
  5. core     the triad workload with kernel "divide", 1 rank, 1 thread: per-rank median compute
              phase (/summary/phase_stats) / (elements x divides) ([core] divide_time).

One node cannot measure the network between nodes: the inter_node_* values are copied from the
intra-node ones (--inter-from intra, the default, marked as estimates) or taken from
--inter-latency/--inter-bandwidth (--inter-from args). The pure steps (calibrate_fit.py:
parse_lscpu, fit_latency_bandwidth, parse_mpi_eager, parse_ompi_info; calibrate_toml.py:
build_platform_toml, check_platform) are functions that tools/tests/test_calibrate_platform.py
calls without MPI; calibrate_runner.py runs desync.

Exit status: 0 on success, 1 if a run failed or the result does not pass check_platform,
2 for usage errors and for a run's result file that is not a readable desync output with the
datasets it reads (one line naming the file and what is missing or wrong; no platform file is
written, the work directory is kept).
"""

import argparse
import datetime
import math
import os
import shutil
import socket
import sys
import tempfile
import time

from .calibrate_measure import measure_eager, measure_layout, measure_rounds
from .calibrate_runner import REPO, Runner, find_desync, launcher_kind, log, mpiexec_argv
from .calibrate_toml import build_platform_toml, check_platform, parse_toml, platform_from_measurements, toml_number
from .errors import DesyncError


def build_parser():
    ap = argparse.ArgumentParser(
        description="Measure this machine with desync (saturation, pingpong, divide runs) and write "
                    "a platform file for `desync simulate --platform`. Takes about a minute on a "
                    "small node; --quick takes seconds and gives numbers only fit for tests.",
        epilog="Inter-node values cannot be measured on one node: by default they are copied from "
               "the intra-node fit and marked '# estimate'. Example: %(prog)s "
               "--mpiexec \"mpiexec --oversubscribe\" -o platforms/this_machine.toml")
    ap.add_argument("--desync", metavar="PATH",
                    help="desync binary (default: $DESYNC_BIN, build/openmp-release/miniapp/desync "
                         "of this repository, or desync on the PATH)")
    ap.add_argument("--mpiexec", metavar="CMD",
                    help="launcher with its extra flags, one shell word list, e.g. \"mpiexec "
                         "--oversubscribe --allow-run-as-root\" (default: mpiexec plus "
                         "$DESYNC_MPIEXEC_PREFLAGS, ';'-separated)")
    ap.add_argument("--bind", choices=("auto", "openmpi", "none"), default="auto",
                    help="add Open MPI binding flags (--bind-to numa / core) to each run: auto = when "
                         "the launcher is Open MPI's (default); none = bind through --mpiexec yourself")
    ap.add_argument("-o", "--output", default=os.path.join(REPO or os.curdir, "platforms", "this_machine.toml"),
                    help="platform file to write (default: platforms/this_machine.toml of this "
                         "repository; installed: of the working directory)")
    ap.add_argument("--name", default="this_machine", help="[platform] name (default: this_machine)")
    ap.add_argument("--quick", action="store_true",
                    help="small sizes and few repetitions (seconds; for tests, not for use)")
    ap.add_argument("--keep", action="store_true",
                    help="keep the work directory (decks, .h5 files); default: a temporary one, deleted")
    ap.add_argument("--workdir", metavar="DIR", help="work directory to use and keep (implies --keep)")
    ap.add_argument("--repeat", type=int, default=3,
                    help="rounds, each one run of every measurement (memory sweep, pingpong, divide); "
                         "the best of the rounds is kept (default 3; --quick: 1)")
    ap.add_argument("--max-n", type=int, default=0,
                    help="largest n of the memory table (default 0: the cores of one NUMA domain)")
    ap.add_argument("--memory", choices=("table", "b1"), default="table",
                    help="write the measured b(n) table (default) or only b1 and b_saturated")
    ap.add_argument("--inter-from", choices=("intra", "args"), default="intra",
                    help="inter-node latency/bandwidth: copy the intra-node fit (default) or take "
                         "--inter-latency/--inter-bandwidth")
    ap.add_argument("--inter-latency", type=float, metavar="S", help="inter-node latency, s")
    ap.add_argument("--inter-bandwidth", type=float, metavar="B_PER_S", help="inter-node bandwidth, B/s")
    ap.add_argument("--inter-transport", default="tcp",
                    help="Open MPI BTL whose eager limit is eager_limit_inter (default tcp; ucx reads "
                         "UCX_RNDV_THRESH from the environment record)")
    return ap


def measurements(args, layout, memory, network, eager, divide, runner, repeat, keep):
    """The dict platform_from_measurements takes, with the header (host, layout, the commands run)
    and the description and per-table sources the file's comments name."""
    host = socket.gethostname()
    date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    attrs, psizes, resid = memory["attrs"], network["sizes"], network["resid"]
    elems, divides, runs_b = divide["elements"], divide["divides"], memory["runs"]
    version = "desync %s (git %s)" % (attrs["desync_version"], attrs["git_revision"])
    files = ("kept in %s" % runner.workdir) if keep else "deleted (rerun with --keep)"
    mpi_lib = attrs["mpi_library_version"].split(",")[0]
    best = "" if repeat == 1 else ", best of %d runs each" % repeat
    description = ("Calibrated by tools/calibrate_platform.py%s on host %s, %s, with %s, %s: "
                   "saturation (triad, ranks, %d elements), pingpong (2 ranks, %d sizes), "
                   "triad divide (1 rank)%s; decks and .h5 files %s." % (
                       " --quick (TEST NUMBERS, NOT FOR USE)" if args.quick else "", host, date,
                       version, mpi_lib, memory["elements"], len(psizes), best, files))
    header = ["%s -- host %s: %d node, %d socket(s), %d memory domain(s) x %d cores, as measured by" % (
                  os.path.basename(args.output), host, 1, layout["sockets"], layout["domains"],
                  layout["cores_per_domain"]),
              "tools/calibrate_platform.py. Measured values name their run; '# estimate' marks what one",
              "node cannot measure: calibrate those on the target machine before quantitative use.",
              "Commands (decks in the work directory%s):" % ("" if repeat == 1 else "; each run %d times" % repeat)]
    seen = set()
    for tag, shown in runner.commands:
        base = tag.rsplit("_", 1)[0] if repeat > 1 else tag
        if base not in seen:
            seen.add(base)
            header.append("  " + shown)
    limits, eager_note = eager
    return {
        "layout": layout, "b": memory["b"], "latency": network["latency"], "bandwidth": network["bandwidth"],
        "eager": limits, "eager_note": eager_note, "divide_time": divide["divide_time"],
        "description": description, "header": header, "memory_model": args.memory,
        "memory_source": "saturation.h5 /saturation/bandwidth (triad)%s" % (
            "" if repeat == 1 else ", best of %d; b(1) ranged %s-%s" % (
                repeat, toml_number(min(r[0] for r in runs_b)), toml_number(max(r[0] for r in runs_b)))),
        "network_source": "pingpong.h5 fit t = L + s/B over %d-%d B%s (rms %.0f %%)" % (
            min(psizes), max(psizes), "" if repeat == 1 else ", fastest of %d per size" % repeat,
            100.0 * math.sqrt(sum(r * r for r in resid) / len(resid))),
        "divide_source": "divide.h5 median compute / (%d x %d)%s" % (
            elems, divides, "" if repeat == 1 else ", fastest of %d (slowest %s)" % (
                repeat, toml_number(max(divide["medians"]) / (elems * divides)))),
    }


def main(argv=None):
    ap = build_parser()
    args = ap.parse_args(argv)

    if args.inter_from == "args" and (args.inter_latency is None or args.inter_bandwidth is None):
        ap.error("--inter-from args needs --inter-latency and --inter-bandwidth")
    if args.inter_from == "intra" and (args.inter_latency is not None or args.inter_bandwidth is not None):
        ap.error("--inter-latency/--inter-bandwidth need --inter-from args")
    if args.max_n < 0:
        ap.error("--max-n must be >= 0")
    if args.repeat < 1:
        ap.error("--repeat must be >= 1")
    # Everything the platform file will say is checked before a minute of measuring.
    if args.inter_latency is not None and not (math.isfinite(args.inter_latency) and 0 <= args.inter_latency <= 1):
        ap.error("--inter-latency %s: allowed: seconds in [0, 1]" % args.inter_latency)
    if args.inter_bandwidth is not None and not (math.isfinite(args.inter_bandwidth) and args.inter_bandwidth >= 1):
        ap.error("--inter-bandwidth %s: allowed: a finite number of B/s >= 1" % args.inter_bandwidth)
    if not args.name or any(c in args.name for c in " \t\n/"):
        ap.error("--name %r: allowed: a non-empty word without blanks or '/' (it names the simulated hosts)" % args.name)
    if args.mpiexec is not None and not args.mpiexec.split():
        ap.error("--mpiexec is empty; give the launcher, e.g. \"mpiexec --oversubscribe\"")
    if os.path.isdir(args.output):
        ap.error("-o %s is a folder; give the platform file to write" % args.output)
    out_parent = os.path.dirname(os.path.abspath(args.output))
    if os.path.exists(out_parent) and not os.path.isdir(out_parent):
        ap.error("-o %s: %s is not a folder" % (args.output, out_parent))

    try:
        layout = measure_layout()
    except (RuntimeError, ValueError, KeyError, OSError) as exc:
        print("calibrate_platform: %s" % exc, file=sys.stderr)
        return 1
    max_n = args.max_n or layout["cores_per_domain"]
    if max_n > layout["cores_per_domain"]:
        ap.error("--max-n %d exceeds the cores of one NUMA domain here (%d)" % (max_n, layout["cores_per_domain"]))

    t_start = time.time()
    desync = os.path.abspath(find_desync(args.desync))
    if not os.access(desync, os.X_OK):
        ap.error("desync binary not executable: %s" % desync)
    mpiexec = mpiexec_argv(args.mpiexec)
    if not shutil.which(mpiexec[0]):
        ap.error("launcher not found: %s" % mpiexec[0])
    bind = launcher_kind(mpiexec) if args.bind == "auto" else args.bind
    bind = "openmpi" if bind == "openmpi" else "none"
    keep = args.keep or args.workdir is not None
    workdir = os.path.abspath(args.workdir) if args.workdir else tempfile.mkdtemp(prefix="desync_calibrate.")
    os.makedirs(workdir, exist_ok=True)
    log("desync %s, launcher %s (binding: %s), work directory %s"
        % (desync, " ".join(mpiexec), bind, workdir))
    if bind == "none":
        log("note: no binding flags added; bind ranks and threads through --mpiexec for real numbers")
    runner = Runner(desync, mpiexec, bind, workdir)
    repeat = 1 if args.quick else args.repeat

    try:
        memory, network, divide = measure_rounds(runner, max_n, args.quick, repeat)
        eager = measure_eager(network["eager_text"], args.inter_transport)
    except DesyncError as exc:  # a run's result file is not what desync writes: one line naming it
        print("calibrate_platform: error: %s" % " ".join(str(exc).split()), file=sys.stderr)
        if not keep:
            log("work directory kept for inspection: " + workdir)
        return 2
    except (RuntimeError, ValueError, KeyError, OSError) as exc:
        print("calibrate_platform: %s" % exc, file=sys.stderr)
        if not keep:
            log("work directory kept for inspection: " + workdir)
        return 1

    meas = measurements(args, layout, memory, network, eager, divide, runner, repeat, keep)
    inter = None if args.inter_from == "intra" else {"latency": args.inter_latency,
                                                     "bandwidth": args.inter_bandwidth}
    text = build_platform_toml(platform_from_measurements(meas, args.name, inter))
    if not keep:
        shutil.rmtree(workdir, ignore_errors=True)
    parsed = parse_toml(text)
    problems = check_platform(parsed) if parsed is not None else []
    if problems:  # not written: a platform file desync simulate would refuse helps nobody
        print(text, end="")
        for p in problems:
            print("calibrate_platform: check: " + p, file=sys.stderr)
        print("calibrate_platform: %s not written (the platform above fails its check)" % args.output, file=sys.stderr)
        return 1
    out_dir = os.path.dirname(os.path.abspath(args.output))
    os.makedirs(out_dir, exist_ok=True)
    with open(args.output, "w") as fh:
        fh.write(text)
    log("wrote %s in %.0f s total" % (args.output, time.time() - t_start))
    print(text, end="")
    return 0
