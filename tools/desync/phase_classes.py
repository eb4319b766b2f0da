"""What each phase of a file is: its class, colour and legend label (docs/output.md, /phases).

Files written since the workload modules carry /phases: for every phase of /summary's
phase_names its class (work, communication, wait, sync, delay, total), its face colour in
timeline pictures and its legend label, as the workload's module declares them. phase_table(f)
gives that mapping for any file; files without /phases (written before 2026-11-27) get FALLBACK,
the table of the phases known then, which reproduces the lists and colours the tools used before
/phases existed, so such files give the same numbers and pictures as ever. A phase neither
/phases nor FALLBACK knows is grey, class communication (UNKNOWN).

The analyses take their phase sets from here, never from lists of their own:

  work_phases        class work: user code (wavefronts, concurrency, efficiency, overlap, idle-wave model)
  idle_phases        classes wait and sync: where a rank waits for others (idle waves, heat map, PPAM)
  sync_phases        class sync: global synchronization (the efficiency's ideal-network replay)
  delay_phases       class delay: injected busy work (replayed by the efficiency)
  not_communication  classes delay and total: neither work nor communication (lock-step averages)
  mpi_phases         classes communication, wait and sync except NOT_MPI (the PPAM set's MPI time)
  style              the bar style of the timeline picture (face and edge colour, hatch, label)

Entries are dicts {"class", "colour", "label", "edgecolor", "hatch"}; "colour" is the face colour.
"""

from .h5file import read

CLASSES = ("work", "communication", "wait", "sync", "delay", "total")


def _entry(cls, colour, edgecolor, label, hatch=None):
    return {"class": cls, "colour": colour, "label": label, "edgecolor": edgecolor, "hatch": hatch}


def _total(name, colour="#ffffff", label=None):
    return name, _entry("total", colour, darker(colour), label or name)


def darker(colour, factor=0.6):
    """#rrggbb scaled towards black: the edge of a bar of that face colour."""
    rgb = [int(colour[i:i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join("%02x" % int(c * factor) for c in rgb)


#: Every phase of every workload when /phases came, with the class, colours and label the tools
#: gave it then (work greens, injected delay blue, wait red, sync and global reductions orange,
#: communication greys, the collective workloads' broadcasts and reductions blue and red tints).
#: The order is that of the old lists: the work phases as wavefronts.WORK_PHASES had them, the idle
#: phases (wait, then sync) as idle_waves.IDLE_PHASES, the sync ones as efficiency.GLOBAL_PHASES.
#: The stencil's latency is busy work standing for network latency: communication, as the tools
#: always counted it (and as its module declares it); symmsquarecube's allreduce runs over the
#: layers only, not all ranks: communication, so it never counted as idle time (every iteration of
#: a collective workload ends globally in the efficiency's replay all the same).
FALLBACK = dict([
    ("compute", _entry("work", "#b9e3b0", "#6aa760", "compute")),
    ("local", _entry("work", "#b9e3b0", "#6aa760", "local part")),
    ("remote", _entry("work", "#8fd18a", "#4f9a48", "remote part")),
    ("sweep", _entry("work", "#b9e3b0", "#6aa760", "sweep (stencil)")),
    ("fused", _entry("work", "#a6dba0", "#5fa356", "fused kernel")),
    ("part1", _entry("work", "#b9e3b0", "#6aa760", "compute part 1")),
    ("part2", _entry("work", "#8fd18a", "#4f9a48", "compute part 2")),
    ("interior", _entry("work", "#b9e3b0", "#6aa760", "SpMV rows without halo")),
    ("spmv", _entry("work", "#8fd18a", "#4f9a48", "SpMV (rest)")),
    ("pq", _entry("work", "#d9f0d3", "#6aa760", "vector operations")),
    ("update", _entry("work", "#d9f0d3", "#6aa760", "vector operations")),
    ("direction", _entry("work", "#d9f0d3", "#6aa760", "vector operations")),
    ("product", _entry("work", "#b9e3b0", "#6aa760", "local product")),
    ("gemm1", _entry("work", "#b9e3b0", "#6aa760", "local product (gemm)")),
    ("gemm2", _entry("work", "#b9e3b0", "#6aa760", "local product (gemm)")),
    ("cannon1", _entry("work", "#8fd18a", "#4f9a48", "Cannon steps (gemm + shifts)")),
    ("cannon2", _entry("work", "#8fd18a", "#4f9a48", "Cannon steps (gemm + shifts)")),
    ("wait", _entry("wait", "#e0201b", "#e0201b", "wait (Waitall)")),
    ("sync", _entry("sync", "#f5a623", "#8b2500", "sync (barrier/allreduce)", "////")),
    ("barrier", _entry("sync", "#f5a623", "#8b2500", "barrier", "////")),
    ("pq_allreduce", _entry("sync", "#fdd49e", "#8b2500", "dot-product allreduce")),
    ("rr_allreduce", _entry("sync", "#fdd49e", "#8b2500", "dot-product allreduce")),
    ("delay", _entry("delay", "#1f5fd6", "#1f5fd6", "injected delay")),
    ("latency", _entry("communication", "#6baed6", "#1f5fd6", "injected latency", "\\\\")),
    ("pack", _entry("communication", "#d4d4d4", "#909090", "pack (send buffer)")),
    ("post", _entry("communication", "#bdbdbd", "#808080", "post (Isend/Irecv)")),
    ("unpack", _entry("communication", "#d4d4d4", "#909090", "unpack (halo)")),
    ("reply", _entry("communication", "#bdbdbd", "#808080", "reply")),
    ("allreduce", _entry("communication", "#fcbba1", "#de2d26", "allreduce")),
    ("bcast", _entry("communication", "#9ecae1", "#3182bd", "broadcast")),
    ("bcast1", _entry("communication", "#9ecae1", "#3182bd", "broadcast")),
    ("bcast2", _entry("communication", "#9ecae1", "#3182bd", "broadcast")),
    ("reduce", _entry("communication", "#fc9272", "#de2d26", "reduction")),
    ("reduce1", _entry("communication", "#fc9272", "#de2d26", "reduction")),
    ("reduce2", _entry("communication", "#fc9272", "#de2d26", "reduction")),
    ("reduce_bcast", _entry("communication", "#c6b3e0", "#6a51a3", "reduce + broadcast (pipelined)")),
    ("reduce_p2p", _entry("communication", "#dadaeb", "#6a51a3", "reduce + transfers (overlapped)")),
    ("p2p", _entry("communication", "#d4d4d4", "#909090", "block transfers")),
    ("p2p1", _entry("communication", "#d4d4d4", "#909090", "block transfers")),
    ("p2p2", _entry("communication", "#d4d4d4", "#909090", "block transfers")),
    ("transpose", _entry("communication", "#bdbdbd", "#707070", "transpose (transfers)")),
    ("exec", _entry("total", "#a6dba0", "#5fa356", "exec")),
    _total("comm", "#bdbdbd", "communication"),
    _total("broadcasts"), _total("reductions"), _total("transfers"), _total("multiplies"),
    _total("communication"), _total("collectives"), _total("cannon"), _total("iteration"),
])

#: a phase neither the file nor FALLBACK knows: grey, labelled by its name, counted as communication
UNKNOWN = _entry("communication", "#a0a0a0", "#707070", None)

#: phases of class communication that are local work, not MPI calls (left out of the PPAM set's
#: MPI time): packing and unpacking the halo, the stencil's injected latency
NOT_MPI = ("pack", "unpack", "latency")


def _names(table, classes):
    return tuple(n for n, e in table.items() if e["class"] in classes)


# The phase sets of files without /phases: the lists the tools used before /phases existed.
FALLBACK_WORK = _names(FALLBACK, ("work",))
FALLBACK_IDLE = _names(FALLBACK, ("wait", "sync"))
FALLBACK_SYNC = _names(FALLBACK, ("sync",))
FALLBACK_DELAY = _names(FALLBACK, ("delay",))


# --------------------------------------------------------------------------- reading


def described(f):
    """{phase: {"class", "colour", "label"}} as /phases gives them, or None for a file without
    /phases (docs/output.md)."""
    names = read(f, "phases/name", kind="text", ndim=1)
    if names is None:
        return None
    classes, colours, labels = (read(f, "phases/" + k, [], kind="text", ndim=1, rows=len(names), row_of="phase name")
                                for k in ("class", "colour", "label"))
    return {str(n): {"class": str(c), "colour": str(k), "label": str(lb)}
            for n, c, k, lb in zip(names, classes, colours, labels)}


def phase_table(f):
    """{phase: entry} of a file, in /phases order: every phase /phases describes, with the edge
    colour and hatch of its picture (style); a file without /phases: a copy of FALLBACK."""
    d = described(f)
    if d is None:
        return {n: dict(e) for n, e in FALLBACK.items()}
    out = {}
    for name, e in d.items():
        st = style(name, d)
        out[name] = {"class": e["class"], "colour": st["facecolor"], "label": st["label"],
                     "edgecolor": st["edgecolor"], "hatch": st["hatch"]}
    return out


def entry(phase, table=None):
    """What a phase is: its entry in table (phase_table or described; None: files without
    /phases), else in FALLBACK, else UNKNOWN."""
    if table and phase in table:
        return table[phase]
    return FALLBACK.get(phase) or dict(UNKNOWN, label=phase)


def phase_class(phase, table=None):
    return entry(phase, table)["class"]


def _with_class(f, wanted, fallback):
    d = described(f)
    return tuple(fallback) if d is None else _names(d, wanted)


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


def mpi_phases(phases, table=None):
    """Of the phase names `phases`, in their order, those spent in MPI calls: classes
    communication, wait and sync except NOT_MPI (a phase nobody describes counts)."""
    return [p for p in phases
            if phase_class(p, table) in ("communication", "wait", "sync") and p not in NOT_MPI]


# --------------------------------------------------------------------------- pictures


def _is_colour(text):
    try:
        return isinstance(text, str) and len(text) == 7 and text[0] == "#" and int(text[1:], 16) >= 0
    except ValueError:
        return False


def style(phase, table=None):
    """The bar style {facecolor, edgecolor, hatch, label} of a phase in the timeline picture.

    A phase the file describes (table: described or phase_table) has the file's face colour and
    label; its edge and hatch are those of FALLBACK where the face colour is FALLBACK's (the look
    of a known phase stays the same), else derived: the edge darker than the face, "////" for
    class sync, "\\\\\\\\" for the stencil's latency. A file without /phases (table None): FALLBACK;
    a phase nobody knows: grey, labelled by its name."""
    d = (table or {}).get(phase)
    known = FALLBACK.get(phase)
    if d is not None and _is_colour(d.get("colour")):
        colour = d["colour"].lower()
        label = d.get("label") or phase
        if known is not None and known["colour"] == colour:
            return dict(facecolor=known["colour"], edgecolor=known["edgecolor"], hatch=known["hatch"], label=label)
        hatch = "////" if d.get("class") == "sync" else "\\\\" if phase == "latency" else None
        return dict(facecolor=colour, edgecolor=darker(colour), hatch=hatch, label=label)
    e = known or dict(UNKNOWN, label=phase)
    label = (d.get("label") if d is not None else None) or e["label"]
    return dict(facecolor=e["colour"], edgecolor=e["edgecolor"], hatch=e["hatch"], label=label)
