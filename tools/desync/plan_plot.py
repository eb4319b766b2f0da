"""Pictures of a matrix plan, `desync plan DECK --ranks P --format json` (papers.md A.7, Fig.
3(a,b) and 4(a,b): spy plot and rank x rank communication map; the `plan-plot` subcommand,
view_commands/plan_plot.py).

Left: the spy density. The plan's "spy_grid" counts the nonzeros of a G x G grid of row and
column blocks, block b = rows [edges[b], edges[b+1]), edges[b] = ceil(b nr / G) (a row r is in
block floor(r G / nr)); drawn with a logarithmic colour scale (empty blocks white), with the
matrix bandwidth (|i - j| <= bandwidth: the two lines j = i +- bandwidth) and the ranks' row
boundaries (first_row of each rank; with more than 64 ranks only node boundaries).

Right: the communication volume V[r, s] = bytes rank r receives from rank s per exchange (the
"bytes" of s in r's partners list; nb vectors of scalar_bytes each), log colour scale, with node
boundaries (blocks of ranks_per_node ranks) drawn: cells inside the diagonal node squares are
intra-node traffic, the others inter-node. Printed and in --json: intra- and inter-node bytes and
messages per exchange (from the partners' intra_node flags) and the grid's sum against nnz.
"""

import json
import os

import numpy as np

from .errors import DesyncError

MAX_RANK_LINES = 64


def read_plan(path):
    """The plan of `desync plan --format json` in path, checked (check_plan): DesyncError naming the
    file and what is wrong for anything else."""
    try:
        with open(path, encoding="utf-8") as f:
            plan = json.load(f)
    except OSError as exc:
        raise DesyncError("%s: cannot read: %s" % (path, exc.strerror or exc), path)
    except ValueError as exc:
        what = "an empty file" if os.path.isfile(path) and os.path.getsize(path) == 0 else "not JSON (%s)" % exc
        raise DesyncError("%s: %s; write it with desync plan DECK --ranks P --format json" % (path, what), path)
    missing = [k for k in ("nr", "nnz", "bandwidth", "ranks_total", "ranks_per_node", "ranks")
               if not isinstance(plan, dict) or k not in plan]
    if missing:
        raise DesyncError("%s: not the JSON of a matrix plan (missing %s); write it with desync plan DECK --ranks P "
                          "--format json for a deck with a [matrix] table" % (path, ", ".join(missing)), path)
    problem = check_plan(plan)
    if problem:
        raise DesyncError("%s: not the JSON of a matrix plan: %s" % (path, problem), path)
    return plan


def _is_int(v, least=0):
    return isinstance(v, int) and not isinstance(v, bool) and v >= least


def check_plan(plan):
    """What is wrong with the structure of a plan (the keys and types this module reads), or None."""
    for key, least in (("nr", 0), ("nnz", 0), ("bandwidth", 0), ("ranks_total", 1), ("ranks_per_node", 0)):
        if not _is_int(plan[key], least):
            return "%s = %r, expected an integer >= %d" % (key, plan[key], least)
    p = plan["ranks_total"]
    if not isinstance(plan["ranks"], list):
        return "ranks is %r, expected a list" % (type(plan["ranks"]).__name__,)
    for i, r in enumerate(plan["ranks"]):
        where = "ranks[%d]" % i
        if not isinstance(r, dict) or not _is_int(r.get("rank")) or r["rank"] >= p:
            return "%s: expected an object with a rank in 0..%d" % (where, p - 1)
        if "first_row" in r and not _is_int(r["first_row"]):
            return "%s.first_row = %r, expected an integer >= 0" % (where, r["first_row"])
        if not isinstance(r.get("partners"), list):
            return "%s.partners: expected a list" % where
        for j, m in enumerate(r["partners"]):
            if not isinstance(m, dict) or not _is_int(m.get("rank")) or m["rank"] >= p or not _is_int(m.get("bytes")) \
                    or not isinstance(m.get("intra_node"), (bool, int)):
                return "%s.partners[%d]: expected an object with rank (0..%d), bytes and intra_node" % (where, j, p - 1)
    g = plan.get("spy_grid")
    if not g or (isinstance(g, dict) and not g.get("size")):
        return None
    if not isinstance(g, dict) or not _is_int(g["size"], 1) or not isinstance(g.get("blocks", []), list):
        return "spy_grid: expected an object with size >= 1 and a list of blocks"
    size = g["size"]
    for k, b in enumerate(g.get("blocks", [])):
        if not (isinstance(b, list) and len(b) == 3 and all(_is_int(x) for x in b) and b[0] < size and b[1] < size):
            return "spy_grid.blocks[%d] = %r, expected [row block, column block, count] below %d" % (k, b, size)
    edges = g.get("edges")
    if edges is not None and not (isinstance(edges, list) and len(edges) == size + 1
                                  and all(_is_int(x) for x in edges)):
        return "spy_grid.edges: expected %d integers" % (size + 1)
    return None


def spy_density(plan):
    """(grid[G, G] nonzero counts, edges[G + 1]) from the plan's spy_grid, or None."""
    g = plan.get("spy_grid")
    if not g or not g.get("size"):
        return None
    size = int(g["size"])
    grid = np.zeros((size, size), np.int64)
    blocks = np.asarray(g.get("blocks", []), np.int64).reshape(-1, 3)
    grid[blocks[:, 0], blocks[:, 1]] = blocks[:, 2]
    edges = np.asarray(g["edges"], np.int64) if "edges" in g else -(-np.arange(size + 1) * int(plan["nr"]) // size)
    return grid, edges


def volume_matrix(plan):
    """V[r, s]: bytes rank r receives from rank s per exchange (zeros for ranks not scanned)."""
    p = int(plan["ranks_total"])
    v = np.zeros((p, p), np.int64)
    for r in plan["ranks"]:
        for m in r["partners"]:
            v[int(r["rank"]), int(m["rank"])] += int(m["bytes"])
    return v


def volumes(plan):
    """Intra- and inter-node bytes and messages per exchange, summed over the scanned ranks."""
    out = {"intra_node_bytes": 0, "inter_node_bytes": 0, "intra_node_messages": 0, "inter_node_messages": 0}
    for r in plan["ranks"]:
        for m in r["partners"]:
            kind = "intra_node" if m["intra_node"] else "inter_node"
            out[kind + "_bytes"] += int(m["bytes"])
            out[kind + "_messages"] += 1
    return out


def node_boundaries(plan):
    """Rank indices where a new node starts (none when all ranks share one node)."""
    p, rpn = int(plan["ranks_total"]), int(plan["ranks_per_node"])
    return list(range(rpn, p, rpn)) if 0 < rpn < p else []


def draw_plan(plan, spy, v, title):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.colors import LogNorm

    fig, (left, right) = plt.subplots(1, 2, figsize=(13, 6.2), dpi=110)
    nr, bw = int(plan["nr"]), int(plan["bandwidth"])
    first = {int(r["rank"]): int(r["first_row"]) for r in plan["ranks"] if "first_row" in r}
    if spy is None:
        left.text(0.5, 0.5, "no spy_grid in this plan\n(desync plan --format json writes it;\n--spy-grid 0 turns it off)",
                  ha="center", va="center", transform=left.transAxes)
        left.set_axis_off()
    else:
        grid, edges = spy
        masked = np.ma.masked_equal(grid, 0)
        img = left.pcolormesh(edges, edges, masked, norm=LogNorm(vmin=1, vmax=max(1, int(grid.max()))),
                              cmap="viridis", shading="flat")
        fig.colorbar(img, ax=left, label="nonzeros per block (log)", fraction=0.046, pad=0.03)
        left.set_xlim(0, nr)
        left.set_ylim(nr, 0)
        if 0 < bw < nr:
            for sign in (1, -1):
                x = np.array([max(0, sign * bw), min(nr, nr + sign * bw)], float)
                left.plot(x, x - sign * bw, color="#e0201b", lw=0.9, ls="--")
            left.plot([], [], color="#e0201b", lw=0.9, ls="--", label="bandwidth %d" % bw)
        p = int(plan["ranks_total"])
        if p <= MAX_RANK_LINES:
            lines, what = [first[r] for r in sorted(first) if r > 0], "rank boundaries"
        else:
            lines, what = [first[r] for r in node_boundaries(plan) if r in first], "node boundaries"
        for y in lines:
            left.axhline(y, color="#555555", lw=0.5)
            left.axvline(y, color="#555555", lw=0.5)
        if lines:
            left.plot([], [], color="#555555", lw=0.5, label=what)
        if left.get_legend_handles_labels()[0]:
            left.legend(loc="lower left", fontsize=8, framealpha=0.85)
        left.set_xlabel("column")
        left.set_ylabel("row")
        left.set_title("spy density: %s, nr %d, nnz %d, %d x %d blocks" % (plan.get("generator", "?"), nr,
                                                                            int(plan["nnz"]), len(grid), len(grid)),
                       fontsize=9)
    p = v.shape[0]
    masked = np.ma.masked_equal(v, 0)
    if masked.count():
        img = right.imshow(masked, norm=LogNorm(vmin=max(1, int(v[v > 0].min())), vmax=int(v.max())), cmap="plasma_r",
                           interpolation="nearest", extent=(-0.5, p - 0.5, p - 0.5, -0.5), aspect="equal")
        fig.colorbar(img, ax=right, label="bytes received per exchange (log)", fraction=0.046, pad=0.03)
    else:
        right.text(0.5, 0.5, "no messages", ha="center", va="center", transform=right.transAxes)
        right.set_xlim(-0.5, p - 0.5)
        right.set_ylim(p - 0.5, -0.5)
    for b in node_boundaries(plan):
        right.axhline(b - 0.5, color="#1f5fd6", lw=0.7)
        right.axvline(b - 0.5, color="#1f5fd6", lw=0.7)
    vol = volumes(plan)
    right.set_xlabel("sending rank")
    right.set_ylabel("receiving rank")
    nodes = "node boundaries blue; " if node_boundaries(plan) else "one node; "
    right.set_title("communication per exchange (nb %s): %sintra-node %s, inter-node %s"
                    % (plan.get("nb", "?"), nodes, human_bytes(vol["intra_node_bytes"]),
                       human_bytes(vol["inter_node_bytes"])), fontsize=9)
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    return fig


def human_bytes(b):
    for prefix, scale in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if b >= scale:
            return "%.3g %sB" % (b / scale, prefix)
    return "%d B" % b


def analyse(plan):
    """What the plan-plot draws and reports: {"spy": spy_density, "volume": volume_matrix,
    "result": the volumes (intra/inter-node) plus, with a spy grid, its size, sum and nonzero
    blocks}."""
    spy = spy_density(plan)
    result = dict(volumes(plan))
    if spy is not None:
        result.update(spy_grid_size=len(spy[0]), spy_grid_sum=int(spy[0].sum()),
                      spy_grid_nonzero_blocks=int((spy[0] > 0).sum()))
    return {"spy": spy, "volume": volume_matrix(plan), "result": result}
