#!/usr/bin/env python3
"""eager_sweep: run one desync deck once per eager limit, setting the limit where the MPI library
in use reads it, and tabulate what each run recorded (the communication-imbalance study's
eager-limit sweeps, papers.md D.4 Figs. 13-15; docs/decks.md "Eager-limit sweeps").

    eager_sweep.py --limits 65536,131072,262144 [--library openmpi|mpich|intel]
                   [--transport vader|tcp|ucx] [--prefix OUT] [--dry-run]
                   -- mpiexec -n 64 desync run DECK [desync options]

The eager limit is a setting of the MPI library, not of desync: a process cannot change its own.
So each run gets the library's variable in its environment:

    openmpi, transport vader (shared memory)  OMPI_MCA_btl_vader_eager_limit=L
    openmpi, transport tcp                    OMPI_MCA_btl_tcp_eager_limit=L
    openmpi, transport ucx                    UCX_RNDV_THRESH=L
    mpich (ch4)                               MPIR_CVAR_CH4_EAGER_MAX_MSG_SIZE=L
    intel                                     I_MPI_EAGER_THRESHOLD=L

and `--set comm.eager_limit=L -o OUT_L.h5` on its command line, so the file records the limit the
experiment assumed (root attribute eager_limit_declared) next to what the library reports through
MPI_T (/provenance/mpi_eager); desync warns in the run when they disagree. After the sweep a table
lists per limit the total time, Gflop/s where the workload has them, and the library's own
eager-limit variables as recorded. --library defaults to openmpi when `ompi_info` is on the PATH,
mpich when `mpichversion` is, intel when I_MPI_ROOT is set. Exit status: 0 if every run exited 0,
the first non-zero exit status otherwise, 2 for usage errors.
"""

import argparse
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

VARIABLES = {
    ("openmpi", "vader"): "OMPI_MCA_btl_vader_eager_limit",
    ("openmpi", "tcp"): "OMPI_MCA_btl_tcp_eager_limit",
    ("openmpi", "ucx"): "UCX_RNDV_THRESH",
    ("mpich", None): "MPIR_CVAR_CH4_EAGER_MAX_MSG_SIZE",
    ("intel", None): "I_MPI_EAGER_THRESHOLD",
}


def detect_library():
    if shutil.which("ompi_info"):
        return "openmpi"
    if os.environ.get("I_MPI_ROOT"):
        return "intel"
    if shutil.which("mpichversion"):
        return "mpich"
    return None


def variable(library, transport):
    key = (library, transport if library == "openmpi" else None)
    if key not in VARIABLES:
        raise ValueError("no known eager-limit variable for library %r, transport %r; known: %s"
                         % (library, transport, ", ".join("%s/%s" % k for k in VARIABLES)))
    return VARIABLES[key]


def parse_limits(text):
    try:
        limits = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError("--limits wants integers in bytes, comma-separated: %r" % text)
    if not limits or any(x <= 0 for x in limits):
        raise argparse.ArgumentTypeError("--limits wants positive byte counts: %r" % text)
    if len(set(limits)) != len(limits):  # two runs would write one eager_<limit>.h5
        raise argparse.ArgumentTypeError("--limits names a limit twice: %r; give each once" % text)
    return limits


def plan_runs(command, limits, var, prefix):
    """[(limit, env additions, argv, output path)] for every limit."""
    runs = []
    for limit in limits:
        out = "%s_%d.h5" % (prefix, limit)
        argv = list(command) + ["--set", "comm.eager_limit=%d" % limit, "-o", out]
        runs.append((limit, {var: str(limit)}, argv, out))
    return runs


def own_options(command):
    """The first option of desync's in the run command that the sweep sets itself, or None: a
    second -o or comm.eager_limit would make desync refuse or one of the two silently win. Only
    what follows desync's `run` is desync's (the launcher's -output-filename or srun's -o are not)."""
    start = next((i + 1 for i, a in enumerate(command)
                  if a == "run" and i > 0 and os.path.basename(command[i - 1]).startswith("desync")), 0)
    for i, a in enumerate(command[start:], start):
        if a in ("-o", "--output") or a.startswith("--output=") or (a.startswith("-o") and not a.startswith("--")):
            return a
        value = command[i + 1] if a == "--set" and i + 1 < len(command) else (a[len("--set="):] if a.startswith("--set=") else None)
        if value is not None and value.replace(" ", "").startswith("comm.eager_limit="):
            return "--set " + value
    return None


def recorded(path, var):
    """(total time, gflops or None, the recorded lines about the swept variable) from a file."""
    from desync.h5file import open_output, read
    with open_output(path) as f:
        total = read(f, "metrics/total_time")
        gflops = read(f, "metrics/gflops")
        eager = read(f, "provenance/mpi_eager", "") or ""
    # Open MPI's MPI_T name is the MCA name without OMPI_MCA_ (btl_vader_eager_limit); the others
    # report under the variable's own name.
    key = var.lower().replace("ompi_mca_", "")
    lines = [l for l in str(eager).splitlines() if key in l.lower()]
    return total, gflops, lines


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    p = argparse.ArgumentParser(prog="eager_sweep.py", usage="%(prog)s --limits L1,L2,... [options] -- RUN COMMAND", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--limits", type=parse_limits, required=True, help="eager limits in bytes, comma-separated")
    p.add_argument("--library", choices=["openmpi", "mpich", "intel"], help="default: detected")
    p.add_argument("--transport", choices=["vader", "tcp", "ucx"],
                   help="Open MPI's transport whose limit to set (default vader: one node); Open MPI only")
    p.add_argument("--prefix", default="eager", help="output files PREFIX_L.h5 (default eager)")
    p.add_argument("--dry-run", action="store_true", help="print the runs, do not start them")
    p.add_argument("--force", action="store_true",
                   help="replace existing PREFIX_L.h5 files (desync run --force); without it they are an error")
    if "--" not in argv:
        if "-h" in argv or "--help" in argv:
            p.print_help()
            return 0
        p.print_usage(sys.stderr)
        print("eager_sweep.py: error: give the run command after -- (e.g. -- mpiexec -n 4 desync run DECK)", file=sys.stderr)
        return 2
    split = argv.index("--")
    args = p.parse_args(argv[:split])
    command = argv[split + 1:]
    if not command:
        p.error("the run command after -- is empty")
    library = args.library or detect_library()
    if library is None:
        p.error("cannot tell the MPI library (no ompi_info, mpichversion or I_MPI_ROOT); give --library")
    if args.transport is not None and library != "openmpi":
        p.error("--transport %s: the transport is Open MPI's choice; %s has one eager-limit variable (%s); "
                "leave --transport out" % (args.transport, library, variable(library, None)))
    bad = own_options(command)
    if bad:
        p.error("the run command gives %s; the sweep sets it per run (-o PREFIX_L.h5, --set "
                "comm.eager_limit=L): leave it out, use --prefix for the file names" % bad)
    try:
        var = variable(library, args.transport or "vader")
    except ValueError as exc:
        p.error(str(exc))
    runs = plan_runs(command + (["--force"] if args.force else []), args.limits, var, args.prefix)
    existing = [out for _, _, _, out in runs if os.path.exists(out)]
    if existing and not args.force and not args.dry_run:
        p.error("%s exists (an earlier sweep?); give --force to replace, or another --prefix" % existing[0])
    status = 0
    for limit, env_add, run_argv, out in runs:
        print("%s=%s %s" % (var, env_add[var], " ".join(run_argv)), flush=True)
        if args.dry_run:
            continue
        code = subprocess.call(run_argv, env=dict(os.environ, **env_add))
        if code != 0 and status == 0:
            status = code
    if args.dry_run:
        return 0
    print("\n%12s %14s %10s  %s" % ("eager limit", "total time", "Gflop/s", "library reports"))
    from desync.errors import DesyncError
    for limit, _, _, out in runs:
        if not os.path.exists(out):
            print("%12d %14s %10s  (no output file)" % (limit, "-", "-"))
            continue
        try:
            total, gflops, lines = recorded(out, var)
        except (DesyncError, OSError, KeyError) as exc:
            print("%12d %14s %10s  (unreadable: %s)" % (limit, "-", "-", exc))
            continue
        print("%12d %12.6g s %10s  %s" % (limit, float(total), "%.4g" % float(gflops) if gflops is not None else "-",
                                           "; ".join(lines) if lines else "(nothing via MPI_T)"))
    return status


if __name__ == "__main__":
    sys.exit(main())
