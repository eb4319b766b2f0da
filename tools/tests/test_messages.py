"""Matching message events: a rank's k-th send to q (tag, communicator) is q's k-th receive."""
import os
import sys
import unittest

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
from desync.messages import in_window, match  # noqa: E402


def columns(events, width):
    """events[rank] = list of (peer, bytes, comm, tag, send, post, done)."""
    p = len(events)
    cols = {k: np.full((p, width), -1, dtype=np.int64) for k in ("peer", "bytes", "communicator", "tag", "send")}
    cols["post"] = np.full((p, width), np.nan)
    cols["done"] = np.full((p, width), np.nan)
    for r, evs in enumerate(events):
        for i, (peer, nbytes, comm, tag, send, post, done) in enumerate(evs):
            for k, v in zip(("peer", "bytes", "communicator", "tag", "send", "post", "done"),
                            (peer, nbytes, comm, tag, send, post, done)):
                cols[k][r, i] = v
    return np.array([len(e) for e in events]), cols


class Matching(unittest.TestCase):
    def test_in_order_per_peer_tag_and_communicator(self):
        # rank 0 sends two fragments to rank 1 over communicators 0 and 1 and one more over 0;
        # rank 1 receives them; a receive with another tag stays unmatched.
        count, cols = columns([
            [(1, 100, 0, 7, 1, 1.0, 1.1), (1, 50, 1, 7, 1, 1.2, 1.3), (1, 100, 0, 7, 1, 2.0, 2.1)],
            [(0, 100, 0, 7, 0, 0.5, 1.5), (0, 50, 1, 7, 0, 0.5, 1.6), (0, 100, 0, 7, 0, 1.9, 2.5),
             (0, 8, 0, 9, 0, 0.1, 0.2)],
        ], 4)
        m = match(count, cols)
        self.assertEqual(len(m), 3)
        np.testing.assert_array_equal(m.src, [0, 0, 0])
        np.testing.assert_array_equal(m.dst, [1, 1, 1])
        np.testing.assert_array_equal(m.t_post, [1.0, 1.2, 2.0])
        np.testing.assert_array_equal(m.t_done, [1.5, 1.6, 2.5], "the k-th send meets the k-th receive")
        np.testing.assert_array_equal(m.bytes, [100, 50, 100])
        self.assertEqual(list(in_window(m, np.array([0, 1]), 1.55, 3.0)), [False, True, True])
        self.assertFalse(in_window(m, np.array([0]), 0.0, 9.0).any(), "both ends must be in the window")


if __name__ == "__main__":
    unittest.main()
