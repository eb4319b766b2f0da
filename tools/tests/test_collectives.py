"""Collective events (/collectives): flattening the per-rank rows and placing each part in its
duplicate's lane of its rank's row."""
import os
import sys
import unittest

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
from desync.collectives import flatten, lanes  # noqa: E402


def columns(events, width):
    """events[rank] = list of (kind, family, dup, bytes, post, posted, done)."""
    p = len(events)
    names = ("kind", "family", "dup", "bytes", "post", "posted", "done")
    cols = {k: np.full((p, width), -1, dtype=np.int64) for k in names[:4]}
    for k in names[4:]:
        cols[k] = np.full((p, width), np.nan)
    for r, evs in enumerate(events):
        for i, ev in enumerate(evs):
            for k, v in zip(names, ev):
                cols[k][r, i] = v
    return np.array([len(e) for e in events]), cols


class Lanes(unittest.TestCase):
    def test_parts_go_to_their_duplicates_lane_in_their_ranks_row(self):
        # rank 0: a reduce in 2 parts on family 0; rank 1: one broadcast part on family 1, dup 1,
        # and a padded slot that must not appear.
        count, cols = columns([
            [(2, 0, 0, 800, 1.0, 1.1, 2.0), (2, 0, 1, 800, 1.1, 1.2, 2.5)],
            [(1, 1, 1, 400, 3.0, 3.0, 4.0)],
        ], 3)
        c = flatten(count, cols, ["row", "column"])
        self.assertEqual(len(c), 3)
        self.assertEqual(c.n_dup, 2)
        np.testing.assert_array_equal(c.rank, [0, 0, 1])
        segs, fam = lanes(c, [1, 0], 0.0, 10.0, 0.8)  # rank 1 drawn in row 0, rank 0 in row 1
        self.assertEqual(len(segs), 3)
        np.testing.assert_allclose(segs[:, 0, 0], [1.0, 1.1, 3.0])
        np.testing.assert_allclose(segs[:, 1, 0], [2.0, 2.5, 4.0])
        np.testing.assert_allclose(segs[:, 0, 1], [1 - 0.2, 1 + 0.2, 0 + 0.2], err_msg="lane = dup within the row")
        np.testing.assert_array_equal(fam, [0, 0, 1])

    def test_window_and_ranks_filter(self):
        count, cols = columns([[(1, 0, 0, 8, 1.0, 1.0, 2.0), (1, 0, 0, 8, 5.0, 5.0, 6.0)], []], 2)
        c = flatten(count, cols, ["column"])
        segs, _ = lanes(c, [0], 4.0, 10.0, 0.8)
        self.assertEqual(len(segs), 1, "only the event inside the time window")
        segs, _ = lanes(c, [1], 0.0, 10.0, 0.8)
        self.assertEqual(len(segs), 0, "rank 0 is not drawn")


if __name__ == "__main__":
    unittest.main()
