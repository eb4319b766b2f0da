"""`desync-view plan-plot PLAN.json -o OUT.png`: the spy density and the rank x rank communication
volume of `desync plan DECK --ranks P --format json` (plan_plot.py)."""

from ..plan_plot import analyse, draw_plan, read_plan
from ..json_out import dump_json
from .options import picture_path


def register(sub):
    p = sub.add_parser("plan-plot", help="spy density and rank x rank communication volume of `desync plan --format json`")
    p.add_argument("plan", metavar="PLAN.json")
    p.add_argument("-o", "--output", type=picture_path, required=True, metavar="OUT.png")
    p.add_argument("--json", metavar="OUT.json", help="also write the volumes (intra/inter-node) as JSON")
    p.set_defaults(func=run)


def run(args):
    plan = read_plan(args.plan)
    a = analyse(plan)
    spy, result = a["spy"], a["result"]
    lines = ["plan %s: %s, nr %d, nnz %d, bandwidth %d, %d ranks (%s per node)"
             % (args.plan, plan.get("generator", "?"), plan["nr"], plan["nnz"], plan["bandwidth"], plan["ranks_total"],
                plan["ranks_per_node"] or "all")]
    if spy is None:
        lines.append("  no spy_grid in the plan: only the communication map is drawn")
    else:
        total = result["spy_grid_sum"]
        lines.append("  spy grid %d x %d blocks, %d of them with nonzeros, sum %d%s"
                     % (len(spy[0]), len(spy[0]), result["spy_grid_nonzero_blocks"], total,
                        " = nnz" if total == plan["nnz"] else " (nnz %d: the plan scanned some ranks only)" % plan["nnz"]))
    lines.append("  per exchange: intra-node %d B in %d messages, inter-node %d B in %d messages"
                 % (result["intra_node_bytes"], result["intra_node_messages"], result["inter_node_bytes"],
                    result["inter_node_messages"]))
    print("\n".join(lines))
    title = "desync plan: %s, %d ranks%s" % (plan.get("generator", "?"), plan["ranks_total"],
                                            ", %d per node" % plan["ranks_per_node"] if plan["ranks_per_node"] else "")
    fig = draw_plan(plan, spy, a["volume"], title)
    fig.savefig(args.output)
    print("wrote %s" % args.output)
    if args.json:
        with open(args.json, "w") as f:
            dump_json(result, f, indent=1)
        print("wrote %s" % args.json)
    return 0
