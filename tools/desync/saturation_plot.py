"""Saturation curves of a saturation run (docs/method.md, "Saturation sweep"; papers.md B.5).

From /saturation (docs/output.md): per kernel the measured bandwidth of the contention domain
b(N), N = 1..W workers (threads of one rank or ranks of one node), and

    b1    = b(1),        b_S = max_N b(N),
    N_s   = min { N : b(N) >= (1 - tolerance) b_S }          (the saturation point),
    model   b(N) = min(N b1, b_S)                             (T_exec = N V / b(N) of the papers),
    N_knee = b_S / b1                                         (where the model's two lines meet).

N_s is recomputed here from the curve with the file's tolerance (the same rule as the C++ side,
which stored it as /saturation/saturation_point). With W < 3 workers a curve cannot show
saturation (N_s <= W by construction); the text says so. When the file has the provenance's
STREAM table (/provenance/stream, [run] stream_table) it is printed too, in MB/s like the
stencil study's Table I.

    desync_view.py saturation FILE -o OUT.png [--json OUT.json]

draws b(N) per kernel (GB/s) with the model line dashed and N_s marked, prints the numbers and
optionally writes them as JSON (view_commands/saturation.py).
"""

import numpy as np

from .errors import DesyncError
from .h5file import read, require, root_attributes

#: /saturation/kernel codes (the C++ SaturationKernel order)
KERNEL_NAMES = ("copy", "scale", "add", "triad", "triad_nt", "schoenauer")
#: STREAM's bytes per element (write-allocate not counted)
BYTES_PER_ELEMENT = {"copy": 16, "scale": 16, "add": 24, "triad": 24, "triad_nt": 24, "schoenauer": 32}


def saturation_point(b, tolerance):
    """Smallest N (1-based) with b[N-1] >= (1 - tolerance) max b; 0 if no finite positive value.
    NaN or non-positive entries (cells a stopped run never reached) are skipped."""
    b = np.asarray(b, dtype=float)
    usable = np.isfinite(b) & (b > 0)
    if not usable.any():
        return 0
    threshold = (1.0 - tolerance) * b[usable].max()
    return int(np.argmax(usable & (b >= threshold))) + 1


def model(n, b1, b_s):
    """The saturation model b(N) = min(N b1, b_S)."""
    return np.minimum(np.asarray(n, dtype=float) * b1, b_s)


def analyse(f):
    """{tolerance, mode, elements, n, kernels: [{kernel, bandwidth, n_s, n_s_stored, b1, b_max,
    n_knee, model}], stream_table or None} from an open desync file."""
    if "saturation" not in f:
        workload = root_attributes(f).get("workload", "?")
        raise DesyncError("%s has no /saturation group (a run of workload %r); run a deck with "
                          "[run] workload = \"saturation\", e.g. inputs/saturation/small.toml"
                          % (f.filename, workload))
    codes = [int(c) for c in require(f, "saturation/kernel", "number", 1)]
    n = np.asarray(require(f, "saturation/n", "number", 1), dtype=int)
    bandwidth = np.asarray(require(f, "saturation/bandwidth", "number", 2, len(codes), "kernel"), dtype=float)
    if bandwidth.shape != (len(codes), len(n)):
        raise DesyncError("/saturation/bandwidth has shape %s, expected (%d, %d): kernels x values of N"
                          % (bandwidth.shape, len(codes), len(n)))
    tolerance = float(require(f, "saturation/tolerance", "number", 0))
    stored = read(f, "saturation/saturation_point", kind="number", ndim=1, rows=len(codes), row_of="kernel")
    kernels = []
    for i, code in enumerate(codes):
        b = bandwidth[i]
        finite = np.isfinite(b) & (b > 0)
        b1 = float(b[0]) if finite[0] else float("nan")
        b_max = float(b[finite].max()) if finite.any() else float("nan")
        kernels.append({
            "kernel": KERNEL_NAMES[code] if 0 <= code < len(KERNEL_NAMES) else "kernel %d" % code,
            "bandwidth": [float(x) for x in b],
            "n_s": saturation_point(b, tolerance),
            "n_s_stored": int(stored[i]) if stored is not None else None,
            "b1": b1,
            "b_max": b_max,
            "n_knee": b_max / b1 if b1 > 0 else float("nan"),
            "model": [float(x) for x in model(n, b1, b_max)],
        })
    mode = read(f, "saturation/mode", kind="number", ndim=0)
    elements = read(f, "saturation/elements", kind="number", ndim=0)
    return {"tolerance": tolerance, "mode": {0: "threads", 1: "ranks"}.get(mode, "?"),
            "elements": elements, "n": [int(x) for x in n],
            "kernels": kernels, "stream_table": stream_table(f)}


def stream_table(f):
    """The provenance's STREAM table, {kernels, single_thread, node} in B/s, or None."""
    if "provenance/stream/node_bandwidth" not in f:
        return None
    codes = [int(c) for c in require(f, "provenance/stream/kernel", "number", 1)]
    if any(not 0 <= c < len(KERNEL_NAMES) for c in codes):
        raise DesyncError("/provenance/stream/kernel holds %s, expected kernel codes 0..%d"
                          % (codes, len(KERNEL_NAMES) - 1))
    single, node = (require(f, "provenance/stream/" + k, "number", 1, len(codes), "kernel")
                    for k in ("single_thread_bandwidth", "node_bandwidth"))
    return {"kernels": [KERNEL_NAMES[c] for c in codes], "single_thread": [float(x) for x in single],
            "node": [float(x) for x in node]}


def draw(r, title):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    n = np.asarray(r["n"])
    fig, ax = plt.subplots(figsize=(8, 5), dpi=150)
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for i, k in enumerate(r["kernels"]):
        c = colours[i % len(colours)]
        b = np.asarray(k["bandwidth"]) * 1e-9
        ax.plot(n, b, "o-", color=c, label="%s (N_s = %d)" % (k["kernel"], k["n_s"]))
        ax.plot(n, np.asarray(k["model"]) * 1e-9, "--", color=c, alpha=0.6, linewidth=1)
        if k["n_s"] > 0:
            ax.plot([k["n_s"]], [b[k["n_s"] - 1]], marker="*", markersize=16, color=c, markeredgecolor="black")
            ax.axvline(k["n_s"], color=c, alpha=0.25, linewidth=1)
    ax.plot([], [], "k--", alpha=0.6, linewidth=1, label="model min(N b1, b_S)")
    ax.set_xlabel("N (%s streaming)" % r["mode"])
    ax.set_ylabel("bandwidth b(N) [GB/s]")
    ax.set_xticks(n if len(n) <= 32 else n[:: max(1, len(n) // 16)])
    ax.set_xlim(0.5, n[-1] + 0.5)
    ax.set_ylim(bottom=0)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8, loc="lower right")
    ax.set_title(title, fontsize=10)
    fig.tight_layout()
    return fig
