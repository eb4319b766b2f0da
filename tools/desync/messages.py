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


def matched_rows(count, cols):
    """(sender, receiver, tag, communicator, send's row, receive's row) of every matched message
    of a /messages table (read_padded): the k-th send from s to d with a tag on a communicator
    is the k-th such receive (MPI's non-overtaking order)."""
    sends, recvs = defaultdict(list), defaultdict(list)
    for rank, n in enumerate(count.tolist()):
        peer, tag, comm = cols["peer"][rank, :n], cols["tag"][rank, :n], cols["communicator"][rank, :n]
        is_send = cols["send"][rank, :n].astype(bool)
        for i in range(n):
            if is_send[i]:
                sends[(rank, int(peer[i]), int(tag[i]), int(comm[i]))].append(i)
            else:
                recvs[(int(peer[i]), rank, int(tag[i]), int(comm[i]))].append(i)
    for key, s_idx in sends.items():
        for i, j in zip(s_idx, recvs.get(key, [])):
            yield key + (i, j)


def match(count, cols):
    src, dst, t_post, t_done, nbytes, comms = [], [], [], [], [], []
    for s, d, _, c, i, j in matched_rows(count, cols):
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
