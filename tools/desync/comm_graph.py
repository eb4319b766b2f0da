"""The ranks' communication graph recorded in a file, and distances in it (issue 29, item 4).

A delayed rank delays the ranks it sends to: an idle period travels along the send edges, one hop
per iteration. The graph is read from /comm/send_partner (every desync run and simulation), else
from the send events of /messages (files that record messages but no partner lists, e.g. imported
traces). Distances are hop counts (scipy.sparse.csgraph, breadth-first), so a periodic ring, a 2D
or 3D process grid and an irregular SpMV partner list are handled alike: on a ring the rank at the
far end of the rank numbers is one hop away, not P - 1 ranks.
"""

import numpy as np
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import shortest_path

from .h5file import rank_count, read_per_rank
from .messages import read_padded


def send_graph(f):
    """The directed graph sender -> receiver of a file as a P x P sparse matrix (1 per edge), or
    None when the file records neither partner lists nor messages."""
    p = rank_count(f)
    send = read_per_rank(f, "comm/send_partner", ndim=2)
    if send is not None:
        send = np.asarray(send, dtype=np.int64)
        rows = np.repeat(np.arange(send.shape[0]), send.shape[1]).reshape(send.shape)
        keep = (send >= 0) & (send < p) & (send != rows)
        src, dst = rows[keep], send[keep]
    elif "messages" in f:
        count, cols = read_padded(f, "messages", ("peer", "send"))
        src, dst = [], []
        for r, n in enumerate(count.tolist()):
            peer = np.asarray(cols["peer"][r, :n], dtype=np.int64)
            out = peer[(np.asarray(cols["send"][r, :n]) == 1) & (peer >= 0) & (peer < p) & (peer != r)]
            src.append(np.full(len(out), r))
            dst.append(out)
        src = np.concatenate(src) if src else np.zeros(0, np.int64)
        dst = np.concatenate(dst) if dst else np.zeros(0, np.int64)
    else:
        return None
    g = csr_matrix((np.ones(len(src)), (src, dst)), shape=(p, p))
    g.sum_duplicates()
    g.data[:] = 1.0  # an edge, however many messages take it
    return g


def recv_partners(graph):
    """[P, k]: the ranks each rank receives from (the senders of its in-edges), padded with -1, as
    /comm/recv_partner lists them."""
    g = graph.tocsc()
    lists = [g.indices[g.indptr[r]:g.indptr[r + 1]] for r in range(g.shape[1])]
    out = np.full((g.shape[1], max(1, max((len(x) for x in lists), default=1))), -1, np.int64)
    for r, x in enumerate(lists):
        out[r, :len(x)] = np.sort(x)
    return out


def hops_from(graph, source, directed=True):
    """Hops along send edges from rank `source` to every rank (inf where it cannot reach);
    directed=False: along edges either way (a distance between ranks, as a wavefront's)."""
    return shortest_path(graph, directed=directed, unweighted=True, indices=int(source))


def wave_line(hops, source, direction, ranks):
    """The ranks an idle wave from `source` walks in `direction` (+1 up, -1 down): source +-1,
    +-2, ... taken modulo P (a periodic ring's arm continues past the last rank), over the ranks
    in `ranks`, while the hops from the source grow by 0 or 1 per step: a decrease is the other
    arm of a ring, a jump a rank that this arm does not reach next (an open chain's far end)."""
    p, present = len(hops), set(int(r) for r in ranks)
    out, last = [], 0.0
    for k in range(1, p):
        r = (int(source) + direction * k) % p
        h = hops[r]
        if r not in present or not np.isfinite(h) or h - last not in (0.0, 1.0):
            break
        out.append(r)
        last = h
    return out


def ranks_per_hop(hops, line):
    """How many ranks along a wave's line one hop covers at most: the largest k / hops of its
    k-th rank (the idle-wave model's d: 2 for a chain with partners +-1, +-2; 1 for a periodic
    ring, whose far end is one hop back, not P - 1 ranks ahead). None for an empty line."""
    best = None
    for k, r in enumerate(line, 1):
        if hops[r] > 0:
            best = max(best or 0.0, k / hops[r])
    return best
