"""`desync-view import TRACE -o FILE`: another program's trace (OTF2 archive or Chrome Trace Event
JSON) in desync's layout, so that every subcommand runs on it (trace_import.py; issue 29, item 1)."""

from ..errors import DesyncError
from ..trace_import import build, read_classes
from ..trace_output import contention_domains, write_imported
from ..trace_readers import read_trace


def register(sub):
    p = sub.add_parser("import", help="import an OTF2 archive or a Chrome trace into desync's layout")
    p.add_argument("trace", metavar="TRACE", help="an OTF2 anchor file (traces.otf2) or its folder, or a Chrome JSON file")
    p.add_argument("-o", "--output", required=True, metavar="FILE", help="the desync file to write (.h5)")
    p.add_argument("--force", action="store_true", help="replace FILE if it exists")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--iteration-region", metavar="NAME", help="each Enter of this region starts an iteration")
    g.add_argument("--iteration-call", metavar="ROUTINE", help="the end of every k-th call of ROUTINE ends an iteration "
                   "(with neither option: every call of the MPI routine every rank calls equally often, regularly, least)")
    p.add_argument("--every", type=int, default=1, metavar="K", help="with --iteration-call: calls per iteration (1)")
    p.add_argument("--classes", metavar="FILE", help="lines `ROUTINE CLASS` overriding the MPI routine classes "
                   "(post, wait, sync, communication, work)")
    p.add_argument("--domains", metavar="N|FILE", help="contention domains (a trace has hosts, not memory domains): "
                   "N consecutive ranks of a host per domain, or a file of one domain number per rank "
                   "(default: one domain per host)")
    p.add_argument("--cores", type=int, metavar="C", help="cores per host (a trace does not say): each rank's "
                   "/topology/process_cpuset becomes its host's C cores, which the idle-wave contention model needs")
    p.set_defaults(func=run)


def run(args):
    if args.cores is not None and args.cores < 1:
        raise DesyncError("--cores %d: a host has at least 1 core" % args.cores)
    trace = read_trace(args.trace)
    domains = contention_domains(list(trace.hostnames), args.domains, trace.hosts_known)  # refused before the work
    classes = read_classes(args.classes) if args.classes else None
    built = build(trace, args.iteration_region, args.iteration_call, args.every, classes, release=True)
    opts = " ".join(x for x in (args.trace, "-o " + args.output,
                                "--iteration-region " + args.iteration_region if args.iteration_region else "",
                                "--iteration-call %s --every %d" % (args.iteration_call, args.every)
                                if args.iteration_call else "",
                                "--domains " + args.domains if args.domains else "",
                                "--cores %d" % args.cores if args.cores is not None else "") if x)
    out = write_imported(trace, built, args.output, args.trace, args.force, opts, domains, args.cores)
    p, n, _ = built["events"].shape
    print("wrote %s: %d ranks x %d iterations from %s; phases %s; %d message events"
          % (out, p, n, trace.source, ", ".join(s for s, _ in built["slots"]), len(trace.messages)))
    print("contention domains: %d, %s" % (len(set(domains[0].tolist())), domains[1]))
    if built["misaligned"]:
        print("note: %d of %d rank-iterations differ from the most common phase sequence (aligned to it; %d segments "
              "merged into an earlier phase): /import/misaligned" % (built["misaligned"], p * n, built["merged"]))
    if built["detected"]:
        print("note: iterations detected: every call of %s ends one (give --iteration-region or --iteration-call to "
              "choose)" % built["detected"])
    if len(set(built["iterations"])) > 1:
        print("note: the ranks have %d to %d iterations; the file keeps the first %d of each"
              % (min(built["iterations"]), max(built["iterations"]), n))
    return 0
