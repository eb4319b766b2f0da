"""Collective events (/collectives, written by the collective workloads with [comm]
record_messages): per rank, every broadcast, reduction, allreduce and block transfer it posted,
each part of a pipelined operation on its own duplicated communicator. The timeline draws each
as a segment from the call (post) to its completion (done), in a lane per duplicate inside the
rank's row, coloured by communicator family: the overlapped parts of the study's Fig. 2."""

import numpy as np

from .errors import DesyncError
from .h5file import read_attr
from .messages import read_padded

KINDS = {1: "bcast", 2: "reduce", 3: "allreduce", 4: "send", 5: "recv"}


class Collectives:
    """Flat arrays over all ranks' events: rank, kind, family, dup, bytes, post, posted, done;
    families: the family names; n_dup: duplicates (lanes) per communicator."""

    def __init__(self, rank, kind, family, dup, nbytes, post, posted, done, families):
        self.rank, self.kind = np.asarray(rank, int), np.asarray(kind, int)
        self.family, self.dup = np.asarray(family, int), np.asarray(dup, int)
        self.bytes = np.asarray(nbytes, np.int64)
        self.post, self.posted, self.done = (np.asarray(v, float) for v in (post, posted, done))
        self.families = list(families)
        self.n_dup = int(self.dup.max()) + 1 if len(self.dup) else 1

    def __len__(self):
        return len(self.rank)


def decode(v):
    return v.decode() if isinstance(v, bytes) else str(v)


def flatten(count, cols, families):
    """Collectives from per-rank padded columns (rows of /collectives) and their counts."""
    parts = {k: [] for k in ("rank", "kind", "family", "dup", "bytes", "post", "posted", "done")}
    for r, n in enumerate(np.asarray(count, np.int64).tolist()):
        parts["rank"].append(np.full(n, r))
        for k in ("kind", "family", "dup", "bytes", "post", "posted", "done"):
            parts[k].append(np.asarray(cols[k][r, :n]))
    cat = {k: np.concatenate(v) if v else np.zeros(0) for k, v in parts.items()}
    return Collectives(cat["rank"], cat["kind"], cat["family"], cat["dup"], cat["bytes"], cat["post"],
                       cat["posted"], cat["done"], families)


def read_collectives(f):
    """The file's collective events, or None if it recorded none."""
    if "collectives" not in f:
        return None
    count, cols = read_padded(f, "collectives", ("kind", "family", "dup", "bytes", "post", "posted", "done"))
    families = read_attr(f, "collectives", "families", [])
    if not isinstance(families, list):
        raise DesyncError("/collectives: attribute families is %r, expected a list of names" % (repr(families)[:40],))
    return flatten(count, cols, [decode(x) for x in families])


def lanes(c, ranks, t0, t1, bar_height):
    """Segments ((post, y), (done, y)) of the events of `ranks` that overlap [t0, t1]: y is the
    rank's row (row i = ranks[i]) shifted into lane `dup` of n_dup lanes across the bar height;
    also each kept event's family index."""
    row = {int(r): i for i, r in enumerate(ranks)}
    keep = np.array([int(r) in row for r in c.rank], bool) & np.isfinite(c.post) & np.isfinite(c.done)
    keep &= (c.done >= t0) & (c.post <= t1)
    idx = np.flatnonzero(keep)
    y = np.array([row[int(r)] for r in c.rank[idx]], float)
    y += (-0.5 + (c.dup[idx] + 0.5) / c.n_dup) * bar_height
    segs = np.stack([np.stack([c.post[idx], y], 1), np.stack([c.done[idx], y], 1)], 1) if len(idx) else np.zeros((0, 2, 2))
    return segs, c.family[idx]
