"""`desync-view saturation FILE -o OUT.png`: the saturation curves b(N) per kernel with N_s and the
min(N b1, b_S) model (saturation_plot.py)."""

from ..h5file import open_output
from ..saturation_plot import analyse, draw
from ..json_out import dump_json
from .options import picture_path


def register(sub):
    p = sub.add_parser("saturation", help="saturation curves b(N) per kernel with N_s and the min(N b1, b_S) model (PNG)")
    p.add_argument("file", metavar="FILE")
    p.add_argument("-o", "--output", type=picture_path, required=True, metavar="OUT.png")
    p.add_argument("--json", metavar="OUT.json", help="also write b(N), N_s, b1, b_S and the model as JSON")
    p.set_defaults(func=run)


def run(args):
    with open_output(args.file) as f:
        r = analyse(f)
    print(format_text(args.file, r))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            dump_json(r, out)
        print("wrote %s" % args.json)
    title = "saturation: %s, tolerance %g (star: N_s; dashed: min(N b1, b_S))" % (args.file, r["tolerance"])
    fig = draw(r, title)
    fig.savefig(args.output)
    print("wrote %s (%d kernel(s), N = 1..%d)" % (args.output, len(r["kernels"]), len(r["n"])))
    return 0


def format_text(path, r):
    w = len(r["n"])
    out = ["saturation sweep of %s: mode %s, N = 1..%d, %s elements per array, tolerance %g"
           % (path, r["mode"], w, r["elements"], r["tolerance"])]
    out.append("  %5s" % "N" + "".join(" %16s" % ("%s [GB/s]" % k["kernel"]) for k in r["kernels"]))
    for i, n in enumerate(r["n"]):
        out.append("  %5d" % n + "".join(" %16.3f" % (1e-9 * k["bandwidth"][i]) for k in r["kernels"]))
    for k in r["kernels"]:
        out.append("  %-10s N_s = %d, b1 = %.3f GB/s, b_S = max b = %.3f GB/s, model knee b_S / b1 = %.2f"
                   % (k["kernel"], k["n_s"], 1e-9 * k["b1"], 1e-9 * k["b_max"], k["n_knee"]))
    if w < 3:
        out.append("  note: %d worker(s) cannot show saturation (N_s <= %d by construction); sweep a whole "
                   "contention domain (inputs/saturation/domain.toml)" % (w, w))
    t = r["stream_table"]
    if t:
        out.append("STREAM table (provenance, MB/s):")
        out.append("  %-12s" % "" + "".join(" %12s" % k.upper() for k in t["kernels"]))
        out.append("  %-12s" % "1 thread" + "".join(" %12.1f" % (1e-6 * v) for v in t["single_thread"]))
        out.append("  %-12s" % "node" + "".join(" %12.1f" % (1e-6 * v) for v in t["node"]))
    return "\n".join(out)
