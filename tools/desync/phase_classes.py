"""What each phase of a file is: its class and colour (docs/output.md, /phases).

Files written since the workload modules carry /phases: the class of every phase (work,
communication, wait, sync, delay, total), its colour and legend label, as the workload's module
declares them. The analyses take their phase sets from here, so a new workload needs no Python
change. Older files lack /phases: the fallback sets below are the lists the tools used before,
so those files give the same numbers as ever.
"""

from .h5file import read

# The phase sets of files without /phases (the lists the tools used until /phases existed).
FALLBACK_WORK = ("compute", "local", "remote", "sweep", "fused", "part1", "part2", "interior", "spmv", "pq",
                 "update", "direction", "product", "gemm1", "gemm2", "cannon1", "cannon2")
FALLBACK_DELAY = ("delay",)
FALLBACK_IDLE = ("wait", "sync", "barrier", "pq_allreduce", "rr_allreduce")
FALLBACK_SYNC = ("sync", "barrier", "pq_allreduce", "rr_allreduce", "allreduce")

CLASSES = ("work", "communication", "wait", "sync", "delay", "total")


def described(f):
    """{phase: {"class", "colour", "label"}} from /phases, or None for a file without it."""
    names = read(f, "phases/name")
    if names is None:
        return None
    classes = read(f, "phases/class")
    colours = read(f, "phases/colour")
    labels = read(f, "phases/label")
    return {str(n): {"class": str(c), "colour": str(k), "label": str(lb)}
            for n, c, k, lb in zip(names, classes, colours, labels)}


def _with_class(f, wanted, fallback):
    d = described(f)
    if d is None:
        return tuple(fallback)
    return tuple(n for n, v in d.items() if v["class"] in wanted)


def work_phases(f):
    """The phases that run user code (not waiting, communicating or injected delay)."""
    return _with_class(f, ("work",), FALLBACK_WORK)


def delay_phases(f):
    """Injected busy work (a rank really computes it; it is not communication)."""
    return _with_class(f, ("delay",), FALLBACK_DELAY)


def not_communication(f):
    """Phases that count neither as work nor as communication: injected delay and sums of others."""
    return _with_class(f, ("delay", "total"), FALLBACK_DELAY)


def idle_phases(f):
    """Where a rank waits: for messages, at barriers and global reductions."""
    return _with_class(f, ("wait", "sync"), FALLBACK_IDLE)


def sync_phases(f):
    """Global synchronization: barriers and global reductions."""
    return _with_class(f, ("sync",), FALLBACK_SYNC)
