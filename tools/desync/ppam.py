"""The PPAM'22 analysis set (peers.md section 4.1, papers.md A.5/A.7): statistics of the idle
and MPI time of every (rank, iteration) of a window.

  I(r, n)   idle time: the waiting phases (idle.idle_times over phase_classes.idle_phases,
            classes wait and sync: wait, sync, barrier, the global reductions)
  M(r, n)   MPI time: the phases of classes communication, wait and sync except the local
            ones phase_classes.NOT_MPI (pack, unpack, the injected latency)
            (phase_classes.mpi_phases): post, wait, reply, sync and the reductions, and the
            collective workloads' communication phases; not user code, not injected delay
  Z(r, n)   = (I(r, n) - mean_n I(r, .)) / std_n I(r, .), the idle time z-scored per rank
            (0 for a rank whose idle time is constant)

and from them
  - histograms of M and of I per contention domain (/topology/contention_domain), with common
    bin edges (numpy.histogram_bin_edges over all values of the window);
  - the rank x rank Pearson correlation matrix C = corrcoef(I) (numpy.corrcoef over the
    iterations); rows and columns of ranks with constant idle time are NaN (diagonal 1);
  - the phase space: the points (M(r, n), M(r, n + 1)); the lag-1 autocorrelation
    corr_n(M(r, n), M(r, n + 1)) per rank and over all points, over pairs of consecutive
    iterations only (a file with a [record] stride has none: NaN, with a note);
  - PCA (sklearn.decomposition.PCA) of Z with the ranks as samples and the iterations as
    features; k-means (sklearn.cluster.KMeans, n_init 10, random_state 0) on the first two
    principal components (as the PPAM'22 scripts), k = the sockets of the window's ranks
    (/topology/thread_package per node; --k overrides; else the number of contention domains);
    silhouette scores (sklearn.metrics.silhouette_score) for k = 2 .. min(8, ranks - 1) and
    for the chosen k, with the count of badly clustered ranks (negative silhouette,
    silhouette_samples); the match of the clusters with the contention domains and sockets as
    adjusted Rand index (sklearn.metrics.adjusted_rand_score; 1 = the same partition, about 0 =
    unrelated).

The `ppam` subcommand (text and panels) is view_commands/ppam.py.
"""

import warnings

import numpy as np

from .errors import DesyncError
from .h5file import read_per_rank
from .idle import idle_times
from .phase_classes import described, idle_phases, mpi_phases
from .phases import phase_intervals, valid
from .timeline import read_timeline

#: spread (s) below which a series counts as constant: timer resolution, far above float64
#: rounding of timestamp differences
CONSTANT_S = 1e-9
K_MAX = 8
SEED = 0
N_INIT = 10


def mpi_times(tl, table=None):
    """M[p, n] (s): summed durations of the MPI phases (module doc), and their names; table: the
    file's /phases (phase_classes.described; None: a file without it)."""
    intervals = phase_intervals(tl)
    names = mpi_phases(intervals, table)
    m = np.zeros(tl.events.shape[:2])
    for p in names:
        b, e = intervals[p]
        m += np.where(valid(b, e), e - b, 0.0)
    return m, names


def zscore_rows(x):
    """(x - row mean) / row std; rows with a spread below CONSTANT_S become 0."""
    mean = x.mean(axis=1, keepdims=True)
    std = x.std(axis=1, keepdims=True)
    live = std > CONSTANT_S
    return np.where(live, (x - mean) / np.where(live, std, 1.0), 0.0)


def domain_histograms(values, domains, bins=20):
    """{"edges": [...], "domains": {domain: counts}} with common bin edges."""
    finite = values[np.isfinite(values)]
    edges = np.histogram_bin_edges(finite if finite.size else [0.0], bins=bins)
    out = {}
    for dom in sorted(set(int(d) for d in domains)):
        v = values[np.asarray(domains) == dom]
        out[str(dom)] = [int(c) for c in np.histogram(v[np.isfinite(v)], bins=edges)[0]]
    return {"edges_s": [float(e) for e in edges], "domains": out}


def correlation(x):
    """Pearson correlation of the rows of x; constant rows (spread below CONSTANT_S) give NaN
    rows/columns (diagonal 1). Returns (matrix, indices of the constant rows)."""
    constant = np.flatnonzero(x.std(axis=1) <= CONSTANT_S)
    live = np.flatnonzero(x.std(axis=1) > CONSTANT_S)
    c = np.full((x.shape[0], x.shape[0]), np.nan)
    if len(live) == 1:
        c[live[0], live[0]] = 1.0
    elif len(live) > 1:
        c[np.ix_(live, live)] = np.corrcoef(x[live])
    c[np.diag_indices_from(c)] = 1.0
    return c, constant


def lag1(a, b):
    """Pearson correlation of two series, NaN when one is constant or too short."""
    if len(a) < 2 or np.std(a) <= CONSTANT_S or np.std(b) <= CONSTANT_S:
        return np.nan
    return float(np.corrcoef(a, b)[0, 1])


def lag1_columns(iterations, n_columns):
    """Columns j of the window whose next column is iteration n + 1: the pairs a lag-1 statistic
    may use (a [record] stride or a --stride selection keeps every s-th iteration: no pairs)."""
    if iterations is None:
        return np.arange(max(n_columns - 1, 0))
    return np.flatnonzero(np.diff(np.asarray(iterations)) == 1)


def phase_space(m, iterations=None):
    """Lag-1 autocorrelation of M(r, n) against M(r, n + 1) per rank and over all points, over the
    pairs of consecutive iterations only (iterations: the window's numbers; None: all consecutive)."""
    j = lag1_columns(iterations, m.shape[1])
    per_rank = [lag1(row[j], row[j + 1]) for row in m]
    overall = lag1(m[:, j].ravel(), m[:, j + 1].ravel()) if j.size else np.nan
    out = {"lag1_per_rank": per_rank, "lag1_overall": overall, "points": int(m.shape[0] * j.size)}
    if j.size < m.shape[1] - 1:
        out["note"] = ("%d of %d neighbouring columns are consecutive iterations ([record] stride or --stride): only "
                       "those are paired" % (j.size, m.shape[1] - 1))
    return out


def sockets(f, ranks):
    """[p] socket id (node_index * 1024 + package) of each window rank, -1 where its threads span
    packages or the package is unknown; None when /topology has no package information."""
    pkg = read_per_rank(f, "topology/thread_package", ndim=2)
    node = read_per_rank(f, "topology/node_index")
    if pkg is None or node is None:
        return None
    pkg = np.asarray(pkg).reshape(len(node), -1)
    threads = read_per_rank(f, "topology/threads")
    out = np.full(len(ranks), -1, np.int64)
    for i, r in enumerate(ranks):
        row = pkg[int(r)][: int(threads[int(r)])] if threads is not None else pkg[int(r)]
        if len(row) and (row >= 0).all() and len(set(row.tolist())) == 1:
            out[i] = int(node[int(r)]) * 1024 + int(row[0])
    return out


def kmeans(x, k):
    from sklearn.cluster import KMeans

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # fewer distinct points than clusters
        return KMeans(n_clusters=k, n_init=N_INIT, random_state=SEED).fit_predict(x)


def silhouette(x, labels):
    """Mean silhouette and the count of samples with a negative one; (None, None) if undefined."""
    from sklearn.metrics import silhouette_samples, silhouette_score

    n = len(set(labels.tolist()))
    if n < 2 or n > len(labels) - 1:
        return None, None
    return float(silhouette_score(x, labels)), int((silhouette_samples(x, labels) < 0).sum())


def clustering(z, k, domains, socket_ids=None, k_max=K_MAX):
    """PCA of z (ranks x iterations) and k-means on the first two components (module doc)."""
    from sklearn.decomposition import PCA
    from sklearn.metrics import adjusted_rand_score

    n_ranks, n_iter = z.shape
    if n_ranks < 2 or n_iter < 2:
        raise DesyncError("PCA needs at least 2 ranks and 2 iterations in the window (%d x %d)" % (n_ranks, n_iter))
    pca = PCA(n_components=min(10, n_ranks, n_iter), svd_solver="full")
    with np.errstate(invalid="ignore", divide="ignore"):
        scores = pca.fit_transform(z)
    features = scores[:, :2]
    scan = {}
    for kk in range(2, min(k_max, n_ranks - 1) + 1):
        scan[str(kk)] = silhouette(features, kmeans(features, kk))[0]
    k = max(1, min(int(k), n_ranks))
    labels = kmeans(features, k)
    score, negative = silhouette(features, labels)
    out = {"explained_variance_ratio": [float(v) if np.isfinite(v) else None for v in pca.explained_variance_ratio_],
           "pc1": [float(v) for v in features[:, 0]],
           "pc2": [float(v) for v in features[:, 1]] if features.shape[1] > 1 else [0.0] * n_ranks,
           "k": k, "labels": [int(v) for v in labels], "silhouette": score, "negative_silhouette_ranks": negative,
           "silhouette_by_k": scan,
           "ari_domains": float(adjusted_rand_score(domains, labels))}
    if socket_ids is not None and (np.asarray(socket_ids) >= 0).any():
        out["ari_sockets"] = float(adjusted_rand_score(socket_ids, labels))
    return out


def choose_k(k, socket_ids, domains):
    """(k, where it came from): --k, else the sockets, else the contention domains."""
    if k is not None:
        if k < 1:
            raise DesyncError("--k must be at least 1 (got %d)" % k)
        return k, "--k"
    if socket_ids is not None and (socket_ids >= 0).any():
        return len(set(int(s) for s in socket_ids if s >= 0)), "sockets (/topology/thread_package)"
    return len(set(int(d) for d in domains)), "contention domains (/topology/contention_domain)"


def analyse(f, window, k=None, bins=20):
    tl = read_timeline(f, window)
    idle, _, idle_names = idle_times(tl, idle_phases(f))
    mpi, mpi_names = mpi_times(tl, described(f))
    dom = read_per_rank(f, "topology/contention_domain")
    domains = np.zeros(len(tl.ranks), np.int64) if dom is None else np.asarray(dom)[tl.ranks]
    socket_ids = sockets(f, tl.ranks)
    k, k_source = choose_k(k, socket_ids, domains)
    if k_source == "--k" and k > len(tl.ranks):
        raise DesyncError("--k %d: the window has %d rank(s); allowed: 1..%d" % (k, len(tl.ranks), len(tl.ranks)))
    z = zscore_rows(idle)
    corr, constant = correlation(idle)
    off = corr[~np.eye(len(corr), dtype=bool)]
    result = {
        "ranks": [int(r) for r in tl.ranks], "iterations": [int(n) for n in tl.iterations],
        "idle_phases": idle_names, "mpi_phases": mpi_names,
        "contention_domain": [int(d) for d in domains],
        "socket": None if socket_ids is None else [int(s) for s in socket_ids],
        "idle_s": idle.tolist(), "mpi_s": mpi.tolist(), "idle_zscore": z.tolist(),
        "histograms": {"mpi": domain_histograms(mpi, domains, bins), "idle": domain_histograms(idle, domains, bins)},
        "correlation": corr.tolist(), "constant_idle_ranks": [int(tl.ranks[i]) for i in constant],
        "correlation_mean_offdiagonal": float(np.nanmean(off)) if np.isfinite(off).any() else None,
        "phase_space": phase_space(mpi, tl.iterations),
        "k_source": k_source,
    }
    result["clustering"] = clustering(z, k, domains, socket_ids)
    return result


def draw_panels(result, title):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    ranks, its = np.asarray(result["ranks"]), np.asarray(result["iterations"])
    idle, mpi = np.asarray(result["idle_s"]), np.asarray(result["mpi_s"])
    c = result["clustering"]
    fig, axes = plt.subplots(2, 3, figsize=(16, 9.5), dpi=120)
    (a_hm, a_hist, a_corr), (a_ps, a_pca, a_sil) = axes

    m = (idle - idle.mean()) * 1e3
    lim = float(np.abs(m).max()) or 1e-6
    img = a_hm.imshow(m, aspect="auto", origin="upper", cmap="RdBu_r", vmin=-lim, vmax=lim, interpolation="nearest",
                      extent=(its[0] - 0.5, its[-1] + 0.5, ranks[-1] + 0.5, ranks[0] - 0.5))
    fig.colorbar(img, ax=a_hm, label="idle time minus mean (ms)")
    a_hm.set(xlabel="iteration", ylabel="rank", title="idle heat map")

    h = result["histograms"]["mpi"]
    edges = np.asarray(h["edges_s"]) * 1e3
    for d, counts in h["domains"].items():
        a_hist.stairs(counts, edges, label="domain %s" % d)
    a_hist.set(xlabel="MPI time per iteration (ms)", ylabel="(rank, iteration) count",
               title="MPI time per contention domain")
    a_hist.legend(fontsize=8)

    corr = np.ma.masked_invalid(np.asarray(result["correlation"], float))
    cmap = plt.get_cmap("coolwarm").copy()
    cmap.set_bad("lightgrey")
    img = a_corr.imshow(corr, cmap=cmap, vmin=-1, vmax=1, interpolation="nearest",
                        extent=(ranks[0] - 0.5, ranks[-1] + 0.5, ranks[-1] + 0.5, ranks[0] - 0.5))
    fig.colorbar(img, ax=a_corr, label="Pearson r of idle time")
    a_corr.set(xlabel="rank", ylabel="rank", title="idle-time correlation")

    j = lag1_columns(its, mpi.shape[1])
    if j.size:
        colours = np.repeat(ranks, j.size)
        sc = a_ps.scatter(mpi[:, j].ravel() * 1e3, mpi[:, j + 1].ravel() * 1e3, c=colours, s=6, cmap="viridis", alpha=0.6)
        fig.colorbar(sc, ax=a_ps, label="rank")
        top = float(mpi.max()) * 1e3
        a_ps.plot([0, top], [0, top], color="grey", lw=0.8, ls="--")
    a_ps.set(xlabel="MPI time at iteration n (ms)", ylabel="MPI time at n + 1 (ms)",
             title="phase space (lag-1 r = %s)" % ("-" if result["phase_space"]["lag1_overall"] is None
                                                     or not np.isfinite(result["phase_space"]["lag1_overall"])
                                                     else "%.2f" % result["phase_space"]["lag1_overall"]))

    labels = np.asarray(c["labels"])
    markers = "os^vD<>ph*"
    doms = sorted(set(result["contention_domain"]))
    for j, d in enumerate(doms):
        sel = np.asarray(result["contention_domain"]) == d
        a_pca.scatter(np.asarray(c["pc1"])[sel], np.asarray(c["pc2"])[sel], c=labels[sel], cmap="tab10",
                      vmin=0, vmax=9, marker=markers[j % len(markers)], s=40, label="domain %d" % d)
    if len(ranks) <= 64:
        for r, x, y in zip(ranks, c["pc1"], c["pc2"]):
            a_pca.annotate(str(r), (x, y), fontsize=7, xytext=(3, 3), textcoords="offset points")
    ev = c["explained_variance_ratio"]
    a_pca.set(xlabel="PC1 (%s)" % ("-" if ev[0] is None else "%.0f%%" % (100 * ev[0])),
              ylabel="PC2 (%s)" % ("-" if len(ev) < 2 or ev[1] is None else "%.0f%%" % (100 * ev[1])),
              title="PCA of z-scored idle time, k-means k = %d (colour)" % c["k"])
    a_pca.legend(fontsize=8)

    scan = c["silhouette_by_k"]
    ks = [int(k) for k in scan]
    vals = [np.nan if v is None else v for v in scan.values()]
    if ks:
        a_sil.bar(ks, vals, color=["C3" if k == c["k"] else "C0" for k in ks])
        a_sil.axhline(0, color="grey", lw=0.8)
    # k = 1 (one socket or domain) has no silhouette, and a --k beyond the scan no bar: said, not red
    chosen = ("red: chosen k = %d" % c["k"] if c["k"] in ks else
              "chosen k = 1: one cluster has no silhouette" if c["k"] == 1 else
              "chosen k = %d: no silhouette scanned" % c["k"] if not ks else
              "chosen k = %d: beyond the scan" % c["k"])
    a_sil.set(xlabel="k", ylabel="mean silhouette", ylim=(-1, 1), title="silhouette per k (%s)" % chosen)
    if not ks:
        a_sil.text(0.5, 0.5, "needs at least 3 ranks", ha="center", transform=a_sil.transAxes)
    for axis in (a_hm.xaxis, a_hm.yaxis, a_corr.xaxis, a_corr.yaxis, a_sil.xaxis):
        axis.set_major_locator(MaxNLocator(integer=True))
    fig.suptitle(title, fontsize=11)
    fig.tight_layout()
    return fig
