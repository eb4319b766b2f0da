"""How many ranks of each contention domain execute user code at each instant (papers.md B.5
"concurrency", B.7 Fig. 4), drawn over time (the `concurrency` subcommand,
view_commands/concurrency.py).

At S instants t_s evenly spread from the window's first to its last event (common time base),

    n_d(t_s) = #{ranks r of domain d : begin <= t_s < end for an interval [begin, end) of a
                 work phase of r}

with the work phases of the file (phase_classes.work_phases: user code: not waiting, communicating or
injected delay) and intervals by the phase rule of phases.py: the same count as
wavefronts.concurrency, which reports only its mean, min and max. Domains are
/topology/contention_domain (node_index * 1024 + NUMA node; -1: a rank spanning NUMA nodes).

The picture has one panel per domain: n_d(t) as a step plot, and as horizontal lines the
domain's ranks, its cores (the distinct logical CPUs in the union of its ranks'
/topology/process_cpuset: the whole NUMA node only when the ranks are unbound or cover it) and,
with --saturation N_S, the saturation point. Fewer ranks computing at once than cores while the
run is in a wave is the bottleneck evasion of papers.md A.6 / B.6; the steady wave keeps about
N_S ranks computing.
"""

import numpy as np

from .errors import DesyncError
from .formatting import iteration_span
from .h5file import read_per_rank
from .phase_classes import FALLBACK_WORK, work_phases
from .phases import phase_intervals
from .timeline import read_timeline
from .wavefronts import busy
from .window import require_consecutive, select_window

WORK_PHASES = FALLBACK_WORK  # (files without /phases; analyse() takes the file's work class)


def concurrency_series(intervals, domains, times, work=WORK_PHASES):
    """{domain: n_d[s]} (int arrays) for the instants `times`; domains[p] per row."""
    b = busy(intervals, times, work)
    domains = np.asarray(domains)
    return {int(d): b[domains == d].sum(axis=0) for d in sorted(set(int(x) for x in domains))}


def cpuset_cpus(text):
    """The CPUs of an hwloc list '0-3,8' as a set; None if it cannot be read."""
    cpus = set()
    for part in str(text).replace(" ", "").split(","):
        if not part:
            continue
        lo, _, hi = part.partition("-")
        try:
            cpus.update(range(int(lo), int(hi if hi else lo) + 1))
        except ValueError:
            return None
    return cpus or None


def domain_cores(cpusets, domains):
    """{domain: distinct logical CPUs in the union of its ranks' cpusets} (None if unknown)."""
    out = {}
    for d in sorted(set(int(x) for x in domains)):
        sets = [cpuset_cpus(c) for c, dd in zip(cpusets, domains) if int(dd) == d]
        out[d] = None if not sets or any(s is None for s in sets) else len(set().union(*sets))
    return out


def domain_name(d):
    return "ranks spanning NUMA nodes" if d < 0 else "node %d, NUMA %d" % (d // 1024, d % 1024)


def analyse(f, ranks=slice(None), iterations=slice(None), include_warmup=False, samples=None):
    """Times, series per domain and per-domain facts of a file's window."""
    window = select_window(f, ranks, iterations, include_warmup)
    require_consecutive(window, "concurrency")
    tl = read_timeline(f, window)
    intervals = phase_intervals(tl)
    work = work_phases(f)
    present = [p for p in work if p in intervals]
    if not present:
        raise DesyncError("no work phase in this file (looked for %s; phases: %s)"
                          % (", ".join(work) or "none: /phases names no phase of class work", ", ".join(intervals) or "none"))
    domains = read_per_rank(f, "topology/contention_domain")
    domains = np.zeros(len(tl.ranks), int) if domains is None else np.asarray(domains)[tl.ranks]
    cpusets = read_per_rank(f, "topology/process_cpuset", "text")
    cpusets = [""] * len(tl.ranks) if cpusets is None else [cpusets[r] for r in tl.ranks]
    if samples is None:
        samples = int(min(20000, max(1000, 20 * len(tl.iterations))))
    if samples < 2:
        raise DesyncError("--samples must be at least 2")
    times = np.linspace(float(np.nanmin(tl.events)), float(np.nanmax(tl.events)), samples)
    series = concurrency_series(intervals, domains, times, work)
    cores = domain_cores(cpusets, domains)
    facts = {}
    for d, n in series.items():
        facts[d] = {"name": domain_name(d), "ranks": int((domains == d).sum()), "cores": cores[d],
                    "mean": float(n.mean()), "min": int(n.min()), "max": int(n.max())}
    return {"times": times, "series": series, "domains": facts, "work_phases": present,
            "ranks": tl.ranks, "iteration_span": iteration_span(tl)}


def draw_concurrency(result, title, saturation=None):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    doms = list(result["series"])
    fig, axes = plt.subplots(len(doms), 1, sharex=True, squeeze=False,
                             figsize=(11, min(30, 1.6 + 1.9 * len(doms))), dpi=110)
    t = result["times"]
    for ax, d in zip(axes[:, 0], doms):
        n, facts = result["series"][d], result["domains"][d]
        ax.step(t, n, where="post", color="#2b8a3e", lw=0.9, label="ranks in a work phase")
        ax.fill_between(t, n, step="post", color="#b9e3b0", alpha=0.6, lw=0)
        top = facts["ranks"]
        ax.axhline(facts["ranks"], color="#555555", lw=0.8, ls=":", label="ranks of the domain (%d)" % facts["ranks"])
        if facts["cores"]:
            ax.axhline(facts["cores"], color="#1f5fd6", lw=1.0, ls="--",
                       label="cores (CPUs of its ranks' binding): %d" % facts["cores"])
            top = max(top, facts["cores"])
        if saturation:
            ax.axhline(saturation, color="#e0201b", lw=1.2, ls="-.", label="saturation point N_s = %g" % saturation)
            top = max(top, saturation)
        ax.set_ylim(0, top * 1.15 + 0.5)
        ax.set_ylabel("ranks")
        ax.set_title("%s: mean %.2f, min %d, max %d" % (facts["name"], facts["mean"], facts["min"], facts["max"]),
                     fontsize=9, loc="left")
        ax.legend(loc="upper left", bbox_to_anchor=(1.005, 1.0), frameon=False, fontsize=8)
        ax.grid(axis="x", color="#dddddd", lw=0.5)
    axes[-1, 0].set_xlabel("wall time on the common time base (s)")
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    return fig
