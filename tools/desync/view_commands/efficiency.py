"""`desync-view efficiency FILE`: the POP efficiencies (load balance, communication and parallel
efficiency) and the ideal-network replay's serialization and transfer efficiency (efficiency.py)."""

from ..efficiency import analyse
from ..errors import DesyncError
from ..h5file import open_output
from ..phase_classes import work_phases
from ..json_out import dump_json


def register(sub):
    p = sub.add_parser("efficiency", help="POP efficiencies: load balance, communication and parallel efficiency")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--json", metavar="OUT.json", help="also write the result as JSON")
    p.set_defaults(func=run)


def run(args):
    with open_output(args.file) as f:
        result = analyse(f)
        work = work_phases(f)
    if result is None:
        raise DesyncError("no work phase in this file (looked for %s)" % (", ".join(work) or "a phase of class work"))
    print(report(result, args.file))
    if args.json:
        with open(args.json, "w") as out:
            dump_json(result, out, indent=1)
        print("wrote %s" % args.json)
    return 0


def report(result, path):
    lines = ["POP efficiencies of %s (useful = %s; span %.4g s):"
             % (path, "+".join(result["work_phases"]), result["span_s"]),
             "  load balance              %.3f" % result["load_balance"],
             "  communication efficiency  %.3f" % result["communication_efficiency"]]
    if "serialization_efficiency" in result:
        r = result["replay"]
        lines += ["    serialization efficiency  %.3f  (ideal-network replay: %.4g s; partners: %s; "
                  "%d of %d iterations end globally)"
                  % (result["serialization_efficiency"], result["ideal_time_s"], r["dependencies"],
                     r["global_iterations"], r["iterations"]),
                  "    transfer efficiency       %.3f" % result["transfer_efficiency"]]
    lines.append("  parallel efficiency       %.3f" % result["parallel_efficiency"])
    return "\n".join(lines)
