"""`desync_view.py compare BASE OTHER`: the improvement of one run over a paired run.

The communication-imbalance study words its gains two ways (papers.md D.5); desync defines both
once (docs/method.md, section 3) and prints both:

    improvement = T_base / T_other - 1        (speed-up minus one: 0.25 = 25 % faster)
    reduction   = 1 - T_other / T_base        (share of the base time saved)

T is /metrics/total_time (the measured loop's wall time). Where both files have /metrics/gflops
the same two numbers are given for performance (P_other / P_base - 1). The two runs should do
the same work (same workload, iterations and problem size); differences are listed as warnings.
"""

from desync.errors import DesyncError
from desync.h5file import open_output, read, root_attributes

# What must match for a fair comparison (root attributes; the problem size is the user's care).
SAME_ATTRIBUTES = ("workload", "ranks", "iterations")


def improvement(t_base, t_other):
    """(improvement, reduction) of a run taking t_other over one taking t_base."""
    if not (t_base > 0 and t_other > 0):
        raise DesyncError("total times must be positive to compare (%r, %r)" % (t_base, t_other))
    return t_base / t_other - 1.0, 1.0 - t_other / t_base


def cmd_compare(args):
    with open_output(args.base) as fb, open_output(args.other) as fo:
        ab, ao = root_attributes(fb), root_attributes(fo)
        warnings = ["%s differs: %r (base) vs %r (other)" % (k, ab.get(k), ao.get(k))
                    for k in SAME_ATTRIBUTES if ab.get(k) != ao.get(k)]
        for f, name, path in ((fb, "base", args.base), (fo, "other", args.other)):
            if int(root_attributes(f).get("complete", 1)) != 1:
                warnings.append("%s (%s) is an incomplete run (stopped early)" % (name, path))
        tb, to = float(read(fb, "metrics/total_time")), float(read(fo, "metrics/total_time"))
        gb, go = read(fb, "metrics/gflops"), read(fo, "metrics/gflops")
    imp, red = improvement(tb, to)
    print("base   %s: total time %.6g s" % (args.base, tb))
    print("other  %s: total time %.6g s" % (args.other, to))
    print("improvement (T_base / T_other - 1)   %+.2f %%" % (100 * imp))
    print("reduction   (1 - T_other / T_base)   %+.2f %%" % (100 * red))
    if gb is not None and go is not None and float(gb) > 0:
        print("performance (P_other / P_base - 1)   %+.2f %% (%.4g vs %.4g Gflop/s)"
              % (100 * (float(go) / float(gb) - 1), float(go), float(gb)))
    for w in warnings:
        print("warning: " + w)
    return 0
