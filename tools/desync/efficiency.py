"""POP efficiencies from the timelines (peers.md section 4.1; the POP CoE's definitions):
useful time u_r = rank r's time in work phases (wavefronts.WORK_PHASES: user code, not waiting,
communicating or injected delay) over the measured iterations of the window; T = the window's
span (first event of any rank to the last event of any rank):
  load balance                LB    = mean_r u_r / max_r u_r
  communication efficiency    CommE = max_r u_r / T
  parallel efficiency         PE    = LB x CommE = mean_r u_r / T
CommE's split into serialization and transfer efficiency needs a replay on an ideal network
(Dimemas in the POP methodology); it is not computed here."""

import numpy as np

from .phases import phase_intervals, valid
from .timeline import read_timeline
from .wavefronts import WORK_PHASES
from .window import select_window


def pop(intervals, t_span, work=WORK_PHASES):
    """{LB, CommE, PE, useful per rank} from phase intervals (begin, end [p, n]) and the span."""
    useful = None
    for p in work:
        if p not in intervals:
            continue
        b, e = intervals[p]
        d = np.where(valid(b, e), e - b, 0.0).sum(axis=1)
        useful = d if useful is None else useful + d
    if useful is None or useful.max() <= 0 or t_span <= 0:
        return None
    lb = float(useful.mean() / useful.max())
    comm = float(useful.max() / t_span)
    return {"load_balance": lb, "communication_efficiency": comm, "parallel_efficiency": lb * comm,
            "useful_s": [float(x) for x in useful], "span_s": float(t_span)}


def analyse(f):
    tl = read_timeline(f, select_window(f))
    intervals = phase_intervals(tl)
    span = float(np.nanmax(tl.events) - np.nanmin(tl.events))
    result = pop(intervals, span)
    if result is not None:
        result["work_phases"] = [p for p in WORK_PHASES if p in intervals]
    return result


def cmd_efficiency(args):
    import json

    from .errors import DesyncError
    from .h5file import open_output

    with open_output(args.file) as f:
        result = analyse(f)
    if result is None:
        raise DesyncError("no work phase in this file (looked for %s)" % ", ".join(WORK_PHASES))
    print("POP efficiencies of %s (useful = %s; span %.4g s):" % (args.file, "+".join(result["work_phases"]), result["span_s"]))
    print("  load balance              %.3f" % result["load_balance"])
    print("  communication efficiency  %.3f" % result["communication_efficiency"])
    print("  parallel efficiency       %.3f" % result["parallel_efficiency"])
    if args.json:
        with open(args.json, "w") as out:
            json.dump(result, out, indent=1)
        print("wrote %s" % args.json)
    return 0
