"""Overlap of communication and computation from the recorded phases, in the two definitions
users know from the OSU and IMB-NBC benchmarks (peers.md sections 0 and 4.1).

The overlapped section of an iteration runs from the start of the `post` phase to `wait_end`;
the work phases (phase_classes.work_phases) recorded between `post_end` and `wait_end` are the
computation it overlaps. Workloads that record such a sequence (docs/output.md): toy with
`overlap = true` (post, part1, wait), cg with `overlap = true` (post, interior, wait), spmv and
chebfd with `splitwait` (post, local, wait). Per rank r, as means over the iterations n in which
the section happened:

  t_overall(r) = mean_n (t(wait_end) - begin of post)       the overlapped section
  t_compute(r) = mean_n (sum of the work phases between post and wait)
  t_pure(r)    = mean_n (t(wait_end) - begin of post) over sections without compute: those of a
                 paired run without overlap (--pure FILE: the same deck with overlap off, the
                 nonsplit scheme, or a blocking mode), else those of the same file if it has any
  OSU:     overlap = max(0, 1 - (t_overall - t_compute) / t_pure)
  IMB-NBC: overlap = max(0, min(1, (t_pure + t_compute - t_overall) / max(t_pure, t_compute)))

reported in percent per rank and as min / mean / max over the ranks (as IMB prints them). A
paired run with another rank count gives every rank the mean of its ranks' t_pure. OSU's
t_compute leaves out its MPI_Test calls; here, with `[comm] progress = "test"`, the tests inside
the work phase are counted as compute.

The `overlap` subcommand is view_commands/overlap.py.
"""

import numpy as np

from .errors import DesyncError
from .h5file import open_output, root_attributes
from .phase_classes import FALLBACK_WORK, work_phases
from .phases import event_phases, phase_intervals, valid
from .timeline import read_timeline
from .window import select_window

WORK_PHASES = FALLBACK_WORK  # (files without /phases; analyse() takes the file's work class)


def sections(tl, work=WORK_PHASES):
    """{overall[p, n], compute[p, n], overlapped[p, n], plain[p, n], between} of a timeline:
    the post .. wait section of every (rank, iteration), its compute (work phases between
    post_end and wait_end), and which sections overlap compute (compute > 0) or not."""
    order = [p for p, _ in event_phases(tl.event_names)]
    if "post" not in order or "wait" not in order or order.index("post") > order.index("wait"):
        raise DesyncError("no post .. wait sequence on the timeline (phases: %s): the overlap needs "
                          "a workload that posts an exchange and later waits for it" % ", ".join(order))
    intervals = phase_intervals(tl)
    pb, _ = intervals["post"]
    _, we = intervals["wait"]
    between = order[order.index("post") + 1:order.index("wait")]
    compute = np.zeros(pb.shape)
    for p in between:
        if p in work:
            b, e = intervals[p]
            compute += np.where(valid(b, e), e - b, 0.0)
    with np.errstate(invalid="ignore"):
        happened = np.isfinite(pb) & np.isfinite(we) & (we >= pb)
    overall = np.where(happened, we - pb, np.nan)
    return {"overall": overall, "compute": compute, "overlapped": happened & (compute > 0),
            "plain": happened & (compute == 0), "between": [p for p in between if p in work]}


def rank_means(values, mask):
    """[p] mean over the iterations where mask holds; NaN for ranks without any."""
    n = mask.sum(axis=1)
    total = np.where(mask, values, 0.0).sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(n > 0, total / np.maximum(n, 1), np.nan)


def overlap_osu(t_overall, t_compute, t_pure):
    """OSU micro-benchmarks: max(0, 1 - (t_overall - t_compute) / t_pure) (fraction)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.maximum(0.0, 1.0 - (t_overall - t_compute) / t_pure)


def overlap_imb(t_overall, t_compute, t_pure):
    """IMB-NBC: max(0, min(1, (t_pure + t_CPU - t_ovrl) / max(t_pure, t_CPU))) (fraction)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.maximum(0.0, np.minimum(1.0, (t_pure + t_compute - t_overall) / np.maximum(t_pure, t_compute)))


def over_ranks(values, ranks):
    """{min, mean, max, argmin_rank, argmax_rank} over the ranks with a finite value, or None."""
    values = np.asarray(values, float)
    if not np.isfinite(values).any():
        return None
    return {"min": float(np.nanmin(values)), "mean": float(np.nanmean(values)), "max": float(np.nanmax(values)),
            "argmin_rank": int(ranks[int(np.nanargmin(values))]), "argmax_rank": int(ranks[int(np.nanargmax(values))])}


def number(x):
    """float for JSON, None for NaN/inf."""
    return float(x) if np.isfinite(x) else None


def overlap(tl, pure_tl=None, pure_name=None, notes=None, work=WORK_PHASES, pure_work=WORK_PHASES):
    """The overlap of a timeline (module doc); pure_tl: the paired run's timeline or None;
    notes: remarks to report with the result."""
    sec = sections(tl, work)
    if not sec["overlapped"].any():
        raise DesyncError("no work phase between post and wait in any iteration (phases between them: "
                          "%s): nothing overlaps the communication; overlap needs e.g. the toy with "
                          "overlap = true, cg with overlap = true, spmv or chebfd with splitwait"
                          % (", ".join(sec["between"]) or "none"))
    t_overall = rank_means(sec["overall"], sec["overlapped"])
    t_compute = rank_means(sec["compute"], sec["overlapped"])
    notes = list(notes or [])
    if pure_tl is not None:
        psec = sections(pure_tl, pure_work)
        if not psec["plain"].any():
            raise DesyncError("%s has no post .. wait section without compute to take t_pure from "
                              "(a run without overlap is needed)" % pure_name)
        t_pure = rank_means(psec["overall"], psec["plain"])
        source = "paired run %s (%d sections without compute)" % (pure_name, int(psec["plain"].sum()))
        if len(pure_tl.ranks) != len(tl.ranks):
            t_pure = np.full(len(tl.ranks), np.nanmean(t_pure))
            notes.append("the paired run has %d ranks, this one %d: every rank gets the paired run's "
                         "mean t_pure" % (len(pure_tl.ranks), len(tl.ranks)))
    elif sec["plain"].any():
        t_pure = rank_means(sec["overall"], sec["plain"])
        source = "this file's %d post .. wait sections without compute" % int(sec["plain"].sum())
        if np.isnan(t_pure).any():
            t_pure = np.where(np.isnan(t_pure), np.nanmean(t_pure), t_pure)
            notes.append("ranks without such a section get the mean t_pure of the others")
    else:
        raise DesyncError("no t_pure: every post .. wait section of this file overlaps compute; pass "
                          "--pure PURE_FILE, a paired run without overlap (e.g. the same deck with "
                          "overlap = false, scheme nonsplit, or a blocking mode)")
    osu = overlap_osu(t_overall, t_compute, t_pure)
    imb = overlap_imb(t_overall, t_compute, t_pure)
    ranks = tl.ranks
    per_rank = [{"rank": int(r), "t_overall_s": number(a), "t_compute_s": number(c), "t_pure_s": number(p),
                 "osu_percent": number(100 * o), "imb_nbc_percent": number(100 * i)}
                for r, a, c, p, o, i in zip(ranks, t_overall, t_compute, t_pure, osu, imb) if np.isfinite(a)]
    return {
        "compute_phases": sec["between"],
        "t_pure_source": source,
        "overlapped_sections": int(sec["overlapped"].sum()),
        "notes": notes,
        "osu_percent": over_ranks(100 * osu, ranks),
        "imb_nbc_percent": over_ranks(100 * imb, ranks),
        "t_overall_s": over_ranks(t_overall, ranks),
        "t_compute_s": over_ranks(t_compute, ranks),
        "t_pure_s": over_ranks(t_pure, ranks),
        "per_rank": per_rank,
    }


def analyse(path, pure_path=None):
    """The overlap of the run file path (module doc); pure_path: the paired run without overlap."""
    with open_output(path) as f:
        tl = read_timeline(f, select_window(f))
        workload = root_attributes(f).get("workload")
        work = work_phases(f)
    pure_tl, notes, pure_work = None, [], WORK_PHASES
    if pure_path is not None:
        with open_output(pure_path) as f:
            pure_tl = read_timeline(f, select_window(f))
            pure_workload = root_attributes(f).get("workload")
            pure_work = work_phases(f)
        if pure_workload != workload:
            notes.append("the paired run is a %s run, this one %s" % (pure_workload, workload))
    return overlap(tl, pure_tl, pure_path, notes, work, pure_work)
