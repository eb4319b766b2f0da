"""The improvement of one run over a paired run (`desync-view compare BASE OTHER`,
view_commands/compare.py).

The communication-imbalance study words its gains two ways (papers.md D.5); desync defines both
once (docs/method.md, section 3) and prints both:

    improvement = T_base / T_other - 1        (speed-up minus one: 0.25 = 25 % faster)
    reduction   = 1 - T_other / T_base        (share of the base time saved)

T is /metrics/total_time (the measured loop's wall time). Where both files have /metrics/gflops
the same two numbers are given for performance (P_other / P_base - 1). The two runs should do
the same work (same workload, iterations and problem size); differences are listed as warnings.
"""

from .errors import DesyncError
from .h5file import attr_int, open_output, read, require, root_attributes

# What must match for a fair comparison (root attributes; the problem size is the user's care).
SAME_ATTRIBUTES = ("workload", "ranks", "iterations")


def improvement(t_base, t_other):
    """(improvement, reduction) of a run taking t_other over one taking t_base."""
    if not (t_base > 0 and t_other > 0):
        raise DesyncError("total times must be positive to compare (%r, %r)" % (t_base, t_other))
    return t_base / t_other - 1.0, 1.0 - t_other / t_base


def compare_files(base, other):
    """The comparison of run files base and other: {"base", "other": {"path", "total_time",
    "gflops"}, "improvement", "reduction", "gflops_change" (None without two Gflop/s),
    "warnings": [text]}."""
    with open_output(base, note_incomplete=False) as fb, open_output(other, note_incomplete=False) as fo:
        ab, ao = root_attributes(fb), root_attributes(fo)
        warnings = ["%s differs: %r (base) vs %r (other)" % (k, ab.get(k), ao.get(k))
                    for k in SAME_ATTRIBUTES if ab.get(k) != ao.get(k)]
        for f, name, path in ((fb, "base", base), (fo, "other", other)):
            if attr_int(root_attributes(f), "complete", 1) != 1:
                warnings.append("%s (%s) is an incomplete run (stopped early)" % (name, path))
        tb, to = (float(require(f, "metrics/total_time", kind="number", ndim=0)) for f in (fb, fo))
        gb, go = (read(f, "metrics/gflops", kind="number", ndim=0) for f in (fb, fo))
    imp, red = improvement(tb, to)
    change = None
    if gb is not None and go is not None and float(gb) > 0:
        change = float(go) / float(gb) - 1
    return {"base": {"path": base, "total_time": tb, "gflops": None if gb is None else float(gb)},
            "other": {"path": other, "total_time": to, "gflops": None if go is None else float(go)},
            "improvement": imp, "reduction": red, "gflops_change": change, "warnings": warnings}
