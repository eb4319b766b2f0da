"""`desync-view ppam FILE`: the PPAM'22 analysis set, z-scored idle times, histograms per domain,
correlation, phase space, PCA + k-means (ppam.py); -o draws the panels."""


import numpy as np

from ..h5file import open_output, root_attributes
from ..ppam import analyse, draw_panels
from ..window import select_window
from ..json_out import dump_json
from .options import add_window_args, picture_path, positive_int


def register(sub):
    p = sub.add_parser("ppam", help="PPAM'22 set: z-scored idle times, histograms per domain, correlation, "
                                    "phase space, PCA + k-means (panels PNG)")
    p.add_argument("file", metavar="FILE")
    p.add_argument("-o", "--output", type=picture_path, metavar="PANELS.png", help="draw the panels")
    p.add_argument("--json", metavar="OUT.json", help="also write the result as JSON")
    add_window_args(p)
    p.add_argument("--k", type=positive_int, metavar="K", help="clusters for k-means (default: sockets of the window's ranks, "
                                                      "else contention domains)")
    p.set_defaults(func=run)


def run(args):
    with open_output(args.file) as f:
        window = select_window(f, args.ranks, args.iterations, args.include_warmup)
        result = analyse(f, window, args.k)
        workload = root_attributes(f).get("workload", "?")
    print(report(result, args.file))
    if args.output:
        fig = draw_panels(result, "PPAM'22 set: %s, %s (%d ranks x %d iterations)"
                          % (workload, args.file, len(result["ranks"]), len(result["iterations"])))
        fig.savefig(args.output)
        print("wrote %s" % args.output)
    if args.json:
        with open(args.json, "w") as out:
            dump_json(result, out)
        print("wrote %s" % args.json)
    return 0


def report(result, path):
    c = result["clustering"]
    ps = result["phase_space"]
    n_r, n_i = len(result["ranks"]), len(result["iterations"])
    fmt = lambda v: "-" if v is None or not np.isfinite(v) else "%.3f" % v  # noqa: E731
    lines = ["PPAM'22 set of %s: %d ranks x %d iterations (idle = %s; MPI = %s)"
             % (path, n_r, n_i, "+".join(result["idle_phases"]), "+".join(result["mpi_phases"]))]
    mpi = np.asarray(result["mpi_s"])
    for d, counts in result["histograms"]["mpi"]["domains"].items():
        sel = np.asarray(result["contention_domain"]) == int(d)
        lines.append("  domain %s (%d ranks): MPI time per iteration median %.4g ms, max %.4g ms"
                     % (d, sel.sum(), np.median(mpi[sel]) * 1e3, mpi[sel].max() * 1e3))
    lines.append("  idle-time correlation: mean off-diagonal %s%s"
                 % (fmt(result["correlation_mean_offdiagonal"]),
                    "; constant (no correlation): ranks %s" % result["constant_idle_ranks"] if result["constant_idle_ranks"] else ""))
    lines.append("  phase space M(n) vs M(n+1): lag-1 autocorrelation overall %s, per rank %s"
                 % (fmt(ps["lag1_overall"]), " ".join(fmt(v) for v in ps["lag1_per_rank"][:16])
                    + (" ..." if n_r > 16 else "")))
    if ps.get("note"):
        lines.append("    (%s)" % ps["note"])
    ev = [v for v in c["explained_variance_ratio"][:3] if v is not None]
    lines.append("  PCA of the z-scored idle times: explained variance %s"
                 % (", ".join("%.3f" % v for v in ev) or "undefined (every rank's idle time is constant)"))
    lines.append("  k-means on PC1, PC2: k = %d (%s), silhouette %s, %s rank(s) with negative silhouette"
                 % (c["k"], result["k_source"], fmt(c["silhouette"]),
                    "-" if c["negative_silhouette_ranks"] is None else c["negative_silhouette_ranks"]))
    if c["silhouette_by_k"]:
        lines.append("  silhouette by k: " + ", ".join("%s: %s" % (kk, fmt(v)) for kk, v in c["silhouette_by_k"].items()))
    lines.append("  cluster of each rank: %s" % " ".join(str(v) for v in c["labels"][:64]) + (" ..." if n_r > 64 else ""))
    if c["k"] == 1:
        lines.append("  one cluster: nothing to match with the contention domains (the silhouette by k says how "
                     "well k >= 2 would separate the ranks)")
    else:
        lines.append("  match with the contention domains: adjusted Rand index %.3f%s"
                     % (c["ari_domains"], "; with the sockets %.3f" % c["ari_sockets"] if "ari_sockets" in c else ""))
    return "\n".join(lines)
