"""Message events (/messages, written with [comm] record_messages): matching sends to receives.

A rank's k-th send to rank q with a given tag over a given communicator is q's k-th receive from
that rank with the same tag and communicator (MPI's non-overtaking rule), so every message
becomes one line from (sender, post time) to (receiver, completion time)."""

from collections import defaultdict

import numpy as np

from .errors import DesyncError
from .h5file import require_per_rank


class Messages:
    """Matched messages: src, dst, t_post (sender posted), t_done (receiver completed), bytes."""

    def __init__(self, src, dst, t_post, t_done, nbytes, comm):
        self.src, self.dst = np.asarray(src, int), np.asarray(dst, int)
        self.t_post, self.t_done = np.asarray(t_post, float), np.asarray(t_done, float)
        self.bytes, self.comm = np.asarray(nbytes, np.int64), np.asarray(comm, int)

    def __len__(self):
        return len(self.src)


def read_messages(f):
    """Matched messages of a file, or None if it recorded none."""
    if "messages" not in f:
        return None
    count, cols = read_padded(f, "messages", ("peer", "bytes", "communicator", "tag", "send", "post", "done"))
    return match(count, cols)


def read_padded(f, group, columns):
    """(count[P], {column: [P, W] array}) of a group of per-rank event columns padded to a width W
    (/messages, /collectives), each checked: numbers, one row per rank, the same width, counts
    within 0..W (DesyncError naming the file and the dataset otherwise)."""
    count = np.asarray(require_per_rank(f, group + "/count"), dtype=np.int64)
    cols = {k: require_per_rank(f, "%s/%s" % (group, k), ndim=2) for k in columns}
    widths = {c.shape[1] for c in cols.values()}
    if len(widths) > 1:
        raise DesyncError("/%s: the columns %s differ in width (%s)"
                          % (group, ", ".join(columns), ", ".join(str(c.shape) for c in cols.values())))
    width = widths.pop() if widths else 0
    if count.size and (count.min() < 0 or count.max() > width):
        raise DesyncError("/%s/count holds %d..%d, more than the %d columns of /%s (or negative)"
                          % (group, count.min(), count.max(), width, group))
    return count, cols


def match(count, cols):
    sends, recvs = defaultdict(list), defaultdict(list)
    for rank, n in enumerate(count.tolist()):
        peer, tag, comm = cols["peer"][rank, :n], cols["tag"][rank, :n], cols["communicator"][rank, :n]
        is_send = cols["send"][rank, :n].astype(bool)
        for i in range(n):
            if is_send[i]:
                sends[(rank, int(peer[i]), int(tag[i]), int(comm[i]))].append(i)
            else:
                recvs[(int(peer[i]), rank, int(tag[i]), int(comm[i]))].append(i)
    src, dst, t_post, t_done, nbytes, comms = [], [], [], [], [], []
    for key, s_idx in sends.items():
        r_idx = recvs.get(key, [])
        s, d, _, c = key
        for i, j in zip(s_idx, r_idx):
            src.append(s)
            dst.append(d)
            t_post.append(cols["post"][s, i])
            t_done.append(cols["done"][d, j])
            nbytes.append(cols["bytes"][s, i])
            comms.append(c)
    order = np.argsort(t_post, kind="stable") if t_post else []
    pick = lambda v: np.asarray(v)[order] if len(v) else np.asarray(v)
    return Messages(pick(src), pick(dst), pick(t_post), pick(t_done), pick(nbytes), pick(comms))


def in_window(msgs, ranks, t0, t1):
    """The messages between two ranks of the window that overlap [t0, t1]."""
    rset = np.isin(msgs.src, ranks) & np.isin(msgs.dst, ranks)
    return rset & (msgs.t_done >= t0) & (msgs.t_post <= t1) & np.isfinite(msgs.t_post) & np.isfinite(msgs.t_done)
