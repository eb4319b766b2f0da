"""The idle heat map (papers.md A.7, peers.md 4.1's PPAM'22 set): rank x iteration picture of
each rank's idle time minus the mean over all ranks and iterations, so a travelling idle wave is a
diagonal stripe whatever the run's length. Idle time as in idle_waves.py (the waiting phases,
idle.py); the `heatmap` subcommand is view_commands/heatmap.py."""

import numpy as np

from .idle import IDLE_PHASES, idle_times


def idle_minus_mean(tl, phases=IDLE_PHASES):
    """(I - mean(I))[p, n] in seconds, and the idle phases used."""
    idle, _, present = idle_times(tl, phases)
    return idle - np.nanmean(idle), present


def draw_heatmap(matrix, ranks, iterations, title):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    lim = float(np.nanmax(np.abs(matrix))) or 1e-9
    fig, ax = plt.subplots(figsize=(11, min(10, 2.5 + 0.12 * len(ranks))), dpi=150)
    img = ax.imshow(matrix * 1e3, aspect="auto", origin="upper", cmap="RdBu_r", vmin=-lim * 1e3, vmax=lim * 1e3,
                    extent=(iterations[0] - 0.5, iterations[-1] + 0.5, ranks[-1] + 0.5, ranks[0] - 0.5),
                    interpolation="nearest")
    fig.colorbar(img, ax=ax, label="idle time minus mean (ms)")
    ax.set_xlabel("iteration (deck numbering)")
    ax.set_ylabel("MPI rank")
    from matplotlib.ticker import MaxNLocator

    for axis in (ax.xaxis, ax.yaxis):  # ranks and iterations are whole: no tick at rank 0.5
        axis.set_major_locator(MaxNLocator(integer=True, min_n_ticks=1))
    ax.set_title(title, fontsize=10)
    fig.tight_layout()
    return fig

