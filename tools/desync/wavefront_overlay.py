"""The wavefront overlay of the `timeline` picture (`timeline --wavefronts [--steps K1,K2]`):
for chosen steps the measured front (F(r, k), r), F the time rank r finished step k (its latest
event), labelled with the slope and r that wavefronts.wavefronts fits; with more than one
contention domain also each domain's fitted line (docs/method.md section 23)."""

import numpy as np

from .timeline import latest_event
from .wavefronts import wavefronts


def window_fronts(tl, domains, steps=None):
    """The wavefronts (wavefronts.wavefronts) of the window's steps, with what the overlay
    needs: finish times F[p, n], the window's domains and the label of each drawn line."""
    finish = latest_event(tl.events)
    dom = None if domains is None else np.asarray(domains)[tl.ranks]
    fronts = wavefronts(finish, tl.ranks, tl.iterations, dom, steps)
    fronts["finish"], fronts["domains"] = finish, dom
    fronts["labels"] = []
    for entry in fronts["steps"]:
        fronts["labels"].append(front_label(entry))
        for d, f in sorted(entry.get("per_domain", {}).items()) if len(entry.get("per_domain", {})) > 1 else ():
            fronts["labels"].append(front_label(f, entry["iteration"], d))
    return fronts


def front_label(front, iteration=None, domain=None):
    """'step 40: 1234 ranks/s, r 0.987' (a step's front) or 'step 40, domain 1: ...'."""
    k = front.get("iteration", iteration)
    where = "step %d" % k if domain is None else "step %d, domain %s" % (k, domain)
    return "%s: %.4g ranks/s, r %.3f" % (where, front["slope_ranks_per_s"], front["r"])


FRONT_COLOUR, DOMAIN_FRONT_COLOUR = "#000000", "#7b3294"


def wavefront_handles(fronts):
    """Legend entries of the overlay (the measured fronts; the domain fits if any is drawn)."""
    from matplotlib.lines import Line2D

    out = []
    if fronts["steps"]:
        out.append(Line2D([], [], color=FRONT_COLOUR, lw=1.1, ls="--", marker="o", ms=2.5,
                          label="wavefront (end of step)"))
    if any(len(s.get("per_domain", {})) > 1 for s in fronts["steps"]):
        out.append(Line2D([], [], color=DOMAIN_FRONT_COLOUR, lw=1.6, label="fit per domain"))
    return out


def draw_wavefronts(ax, tl, fronts):
    """Per reported step: the measured front (F(r, k), row of r) dashed, labelled with its
    slope and r (the j-th step at its j-th rank); with more than one domain fit, each domain's least-squares line
    (through the mean of its points with the fitted slope) solid, labelled at its middle."""
    finish, domains = fronts["finish"], fronts["domains"]
    rows = np.arange(len(tl.ranks), dtype=float)
    ranks = np.asarray(tl.ranks, float)
    box = dict(boxstyle="round,pad=0.15", facecolor="white", edgecolor="none", alpha=0.8)
    for j, entry in enumerate(fronts["steps"]):
        n = int(np.flatnonzero(tl.iterations == entry["iteration"])[0])
        t = finish[:, n]
        ok = np.isfinite(t)
        ax.plot(t[ok], rows[ok], color=FRONT_COLOUR, lw=1.1, ls="--", marker="o", ms=2.5, zorder=6)
        at = np.flatnonzero(ok)
        at = int(at[j % len(at)])  # the j-th step's label at its j-th rank: close steps do not overlap
        ax.annotate(front_label(entry), (t[at], rows[at]), xytext=(5, 0), textcoords="offset points",
                    fontsize=7, ha="left", va="center", color=FRONT_COLOUR, bbox=box, zorder=7)
        per_domain = entry.get("per_domain", {})
        if len(per_domain) < 2:
            continue
        for d, f in sorted(per_domain.items()):
            sel = ok & (domains == int(d))
            if f["slope_ranks_per_s"] == 0 or sel.sum() < 2:
                continue
            r_ends = np.array([ranks[sel].min(), ranks[sel].max()])
            t_ends = t[sel].mean() + (r_ends - ranks[sel].mean()) / f["slope_ranks_per_s"]
            y_ends = np.interp(r_ends, ranks, rows)
            ax.plot(t_ends, y_ends, color=DOMAIN_FRONT_COLOUR, lw=1.6, zorder=6)
            ax.annotate(front_label(f, entry["iteration"], d), (t_ends.mean(), y_ends.mean()), xytext=(5, 0),
                        textcoords="offset points", fontsize=6.5, ha="left", va="center",
                        color=DOMAIN_FRONT_COLOUR, bbox=box, zorder=7)
