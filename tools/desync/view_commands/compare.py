"""`desync-view compare BASE OTHER`: the improvement of run OTHER over the paired run BASE
(compare.py)."""

import sys

from ..compare import compare_files


def register(sub):
    p = sub.add_parser("compare", help="improvement of one run over a paired run")
    p.add_argument("base", metavar="BASE")
    p.add_argument("other", metavar="OTHER")
    p.set_defaults(func=run)


def run(args):
    r = compare_files(args.base, args.other)
    for w in r["warnings"]:  # first, on stderr: the numbers below may not compare like with like
        print("warning: " + w, file=sys.stderr)
    print("base   %s: total time %.6g s" % (args.base, r["base"]["total_time"]))
    print("other  %s: total time %.6g s" % (args.other, r["other"]["total_time"]))
    print("improvement (T_base / T_other - 1)   %+.2f %%" % (100 * r["improvement"]))
    print("reduction   (1 - T_other / T_base)   %+.2f %%" % (100 * r["reduction"]))
    if r["gflops_change"] is not None:
        print("performance (P_other / P_base - 1)   %+.2f %% (%.4g vs %.4g Gflop/s)"
              % (100 * r["gflops_change"], r["other"]["gflops"], r["base"]["gflops"]))
    return 0
