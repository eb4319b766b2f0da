"""Message events (/messages, written with [comm] record_messages): matching sends to receives.

A rank's k-th send to rank q with a given tag over a given communicator is q's k-th receive from
that rank with the same tag and communicator (MPI's non-overtaking rule), so every message
becomes one line from (sender, post time) to (receiver, completion time)."""

from collections import defaultdict

import numpy as np


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
    g = f["messages"]
    count = np.asarray(g["count"][:], dtype=np.int64)
    cols = {k: g[k][:] for k in ("peer", "bytes", "communicator", "tag", "send", "post", "done")}
    return match(count, cols)


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
