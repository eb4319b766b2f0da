"""How synchronized the ranks are over time, in the coupled-oscillator view of the idle-wave
papers (papers.md; peers.md 4.2: Afzal, Hager, Wellein, "Physical Oscillator Model for
Supercomputing", PMBS'23, and "Exploring metrics for analyzing dynamic behavior in MPI programs
via a coupled-oscillator model", 2025): each rank is an oscillator whose phase advances by 2*pi
per iteration. The `synchrony` subcommand (view_commands/synchrony.py).

Phase. Rank i's progress at time t, in iterations, is

    phi_i(t) = k + (t - s_ik) / (s_i,k+1 - s_ik)      for s_ik <= t < s_i,k+1,

s_ik the start of its iteration k (its first event; the last iteration ends at the next recorded
iteration's first event, or its own latest event), theta_i = 2*pi*phi_i. It is sampled at S
instants evenly spread over the span in which every rank of the window is inside it (ranks that
ran no iteration in the window, parked ones, are left out and named).

Metrics at each instant, over the N ranks of the window:
  - order parameter r(t) = |(1/N) sum_i exp(j*theta_i)|: 1 in lock-step, 0 for phases spread
    evenly over an iteration (Kuramoto's);
  - synchronization entropy H(t) = -sum_b p_b ln p_b / ln B of the phases theta_i mod 2*pi in B =
    min(N, 16) equal bins: 0 when all ranks are in one bin, 1 when spread evenly;
  - phase spread sigma(t) = std_i phi_i (iterations): unlike r, it also sees ranks whole
    iterations apart (an idle wave's front);
  - phase gradient g(t) = mean_i (phi_i+1 - phi_i) (iterations per rank, ranks in window order):
    a computational wavefront's tilt, its sign the direction in which it runs.
The time means, the extremes and their instants summarize a run.
"""

import warnings

import numpy as np

from .errors import DesyncError
from .formatting import iteration_span, rank_ranges
from .timeline import first_event, read_timeline
from .window import require_consecutive, select_window

MAX_BINS = 16
MAX_CELLS = 2 * 10**7  # ranks x instants


def phase_samples(starts, ends, iterations, times):
    """phi[i, s]: rank i's progress (iterations) at times[s]; starts/ends[i, n] of the window's
    iterations (deck numbers `iterations`), NaN where an iteration has no events."""
    phi = np.full((starts.shape[0], len(times)), np.nan)
    for i in range(starts.shape[0]):
        ok = np.isfinite(starts[i]) & np.isfinite(ends[i]) & (ends[i] > starts[i])
        s, e, k = starts[i][ok], ends[i][ok], np.asarray(iterations, float)[ok]
        if not len(s):
            continue
        n = np.searchsorted(s, times, side="right") - 1
        inside = (n >= 0) & (times < e[np.clip(n, 0, None)])
        n = np.clip(n, 0, None)
        phi[i] = np.where(inside, k[n] + (times - s[n]) / (e[n] - s[n]), np.nan)
    return phi


def metrics(phi):
    """{order, entropy, spread, gradient}[s] of phases phi[i, s] (iterations)."""
    n = phi.shape[0]
    theta = 2 * np.pi * phi
    order = np.abs(np.exp(1j * theta).mean(axis=0))
    bins = min(n, MAX_BINS)
    frac = np.mod(phi, 1.0)
    idx = np.minimum((frac * bins).astype(int), bins - 1)
    counts = np.stack([(idx == b).sum(axis=0) for b in range(bins)])
    p = counts / n
    with np.errstate(divide="ignore", invalid="ignore"):
        h = 0.0 - np.where(p > 0, p * np.log(p), 0.0).sum(axis=0)  # 0.0 - : no -0.0
    entropy = h / np.log(bins) if bins > 1 else np.zeros(phi.shape[1])
    return {"order": order, "entropy": entropy, "spread": phi.std(axis=0),
            "gradient": np.diff(phi, axis=0).mean(axis=0) if n > 1 else np.zeros(phi.shape[1])}


def analyse(f, ranks=slice(None), iterations=slice(None), include_warmup=False, samples=None):
    """Times, phases and metrics of a file's window."""
    window = select_window(f, ranks, iterations, include_warmup)
    require_consecutive(window, "synchrony")
    tl = read_timeline(f, window)
    starts = first_event(tl.events)
    ends = tl.next_first
    # Ranks that ran no iteration in the window (parked by [placement] active_ppn, say) are not
    # oscillators here: left out, and said.
    ran = np.isfinite(starts).any(axis=1)
    idle = [int(r) for r in np.asarray(tl.ranks)[~ran]]
    starts, ends, ranks = starts[ran], ends[ran], np.asarray(tl.ranks)[ran]
    if len(ranks) < 2:
        raise DesyncError("synchrony needs at least 2 ranks that ran iterations in the window (it has %d%s)"
                          % (len(ranks), "; ranks without any: %s" % rank_ranges(idle) if idle else ""))
    with warnings.catch_warnings():  # a rank without any iteration: all-NaN rows, refused below
        warnings.simplefilter("ignore", RuntimeWarning)
        lo = np.nanmax(np.nanmin(np.where(np.isfinite(ends), starts, np.nan), axis=1))
        hi = np.nanmin(np.nanmax(np.where(np.isfinite(starts), ends, np.nan), axis=1))
        if np.isnan(np.nanmin(np.where(np.isfinite(ends), starts, np.nan), axis=1)).any():
            lo = np.nan  # some rank has no complete iteration in the window
    if not (np.isfinite(lo) and np.isfinite(hi) and hi > lo):
        raise DesyncError("synchrony: the window has no span in which every rank is inside an iteration")
    if samples is None:
        samples = int(min(20000, max(1000, 20 * len(tl.iterations))))
        # A few arrays of ranks x instants: at most MAX_CELLS cells (about 1 GB together).
        samples = max(2, min(samples, MAX_CELLS // len(ranks)))
    if samples < 2:
        raise DesyncError("--samples must be at least 2")
    if samples * len(ranks) > MAX_CELLS:
        raise DesyncError("--samples %d x %d ranks is more than %d phase values; give at most --samples %d"
                          % (samples, len(ranks), MAX_CELLS, MAX_CELLS // len(ranks)))
    # Open at the right end: the last instant belongs to no iteration of the window.
    times = lo + (hi - lo) * np.arange(samples) / samples
    phi = phase_samples(starts, ends, tl.iterations, times)
    keep = np.isfinite(phi).all(axis=0)  # an iteration without events leaves a gap
    times, phi = times[keep], phi[:, keep]
    if len(times) < 2:
        raise DesyncError("synchrony: fewer than 2 instants with every rank's phase known")
    m = metrics(phi)
    summary = {}
    for name, series in m.items():
        summary[name] = {"mean": float(series.mean()), "min": float(series.min()), "max": float(series.max()),
                         "t_min_s": float(times[int(np.argmin(series))]), "t_max_s": float(times[int(np.argmax(series))])}
    return {"times": times, "phi": phi, "series": m, "summary": summary, "ranks": ranks, "idle_ranks": idle,
            "iteration_span": iteration_span(tl), "bins": min(len(ranks), MAX_BINS)}


def draw_synchrony(result, title):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    t, m = result["times"], result["series"]
    fig, (a0, a1) = plt.subplots(2, 1, sharex=True, figsize=(11, 6), dpi=110)
    a0.plot(t, m["order"], color="#1f5fd6", lw=0.9, label="order parameter r")
    a0.plot(t, m["entropy"], color="#c92a2a", lw=0.9, label="synchronization entropy H (%d bins)" % result["bins"])
    a0.set_ylim(-0.02, 1.02)
    a0.set_ylabel("r, H")
    a0.legend(loc="lower left", fontsize=8)
    a1.plot(t, m["spread"], color="#2b8a3e", lw=0.9, label="phase spread std(phi) (iterations)")
    a1.plot(t, m["gradient"], color="#7048e8", lw=0.9, label="phase gradient mean(phi[i+1] - phi[i]) (iterations/rank)")
    a1.axhline(0, color="#888888", lw=0.6)
    a1.set_xlabel("time (s, common time base)")
    a1.set_ylabel("iterations")
    a1.legend(loc="upper left", fontsize=8)
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    return fig
