"""The communication graph of a file and distances in it (desync.comm_graph; issue 29, item 4):
hop counts along send edges on a periodic ring, a 2D process grid and an irregular SpMV-like
partner list, the line an idle wave walks along the rank numbers, and the ranks one hop covers
(the idle-wave model's d); the graph read from /comm/send_partner and, without it, from the sends
of /messages."""
import os
import sys
import tempfile
import unittest
from collections import deque

import h5py
import numpy as np
from scipy.sparse import csr_matrix

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.dirname(__file__))
from desync.comm_graph import hops_from, ranks_per_hop, recv_partners, send_graph, wave_line  # noqa: E402
from synthetic_files import add_messages, write_synthetic  # noqa: E402


def graph(p, edges):
    src, dst = zip(*edges)
    return csr_matrix((np.ones(len(edges)), (src, dst)), shape=(p, p))


def bfs(p, edges, source):
    """Hops by a plain breadth-first search: the reference for scipy's."""
    out = {a: [] for a in range(p)}
    for a, b in edges:
        out[a].append(b)
    hops = np.full(p, np.inf)
    hops[source] = 0
    frontier = deque([source])
    while frontier:
        a = frontier.popleft()
        for b in out[a]:
            if hops[b] == np.inf:
                hops[b] = hops[a] + 1
                frontier.append(b)
    return hops


class Ring(unittest.TestCase):
    P = 8
    EDGES = [(r, (r + s) % 8) for r in range(8) for s in (1, -1)]

    def test_hops_go_round_both_ways(self):
        h = hops_from(graph(self.P, self.EDGES), 0)
        np.testing.assert_array_equal(h, [0, 1, 2, 3, 4, 3, 2, 1])

    def test_each_arm_walks_to_the_far_rank_one_rank_per_hop(self):
        h = hops_from(graph(self.P, self.EDGES), 0)
        self.assertEqual(wave_line(h, 0, +1, range(self.P)), [1, 2, 3, 4])
        self.assertEqual(wave_line(h, 0, -1, range(self.P)), [7, 6, 5, 4])
        self.assertEqual(ranks_per_hop(h, wave_line(h, 0, +1, range(self.P))), 1.0)
        self.assertEqual(ranks_per_hop(h, wave_line(h, 0, -1, range(self.P))), 1.0)

    def test_a_window_of_ranks_cuts_the_line(self):
        h = hops_from(graph(self.P, self.EDGES), 2)
        self.assertEqual(wave_line(h, 2, +1, range(0, 5)), [3, 4])


class OpenChainOfPairs(unittest.TestCase):
    """Partners +-1, +-2, open ends: two ranks per hop, and no wrap-around to the far end."""
    P = 7
    EDGES = [(r, r + s) for r in range(7) for s in (-2, -1, 1, 2) if 0 <= r + s < 7]

    def test_two_ranks_per_hop(self):
        h = hops_from(graph(self.P, self.EDGES), 0)
        np.testing.assert_array_equal(h, [0, 1, 1, 2, 2, 3, 3])
        line = wave_line(h, 0, +1, range(self.P))
        self.assertEqual(line, [1, 2, 3, 4, 5, 6])
        self.assertEqual(ranks_per_hop(h, line), 2.0)
        self.assertEqual(wave_line(h, 0, -1, range(self.P)), [])  # rank 6 is 3 hops away, not next


class Grid2D(unittest.TestCase):
    """A 4 x 3 process grid of a 2D stencil (rank = x + 4 y, partners +-1 in x and +-4 in y, open
    boundaries): hops are the Manhattan distance; along the rank numbers the line ends where the
    next rank is not the next hop (a row change that goes back towards the source)."""
    NX, NY = 4, 3

    def edges(self):
        e = []
        for y in range(self.NY):
            for x in range(self.NX):
                for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                    if 0 <= x + dx < self.NX and 0 <= y + dy < self.NY:
                        e.append((x + self.NX * y, x + dx + self.NX * (y + dy)))
        return e

    def test_hops_are_the_manhattan_distance(self):
        p = self.NX * self.NY
        h = hops_from(graph(p, self.edges()), 5)
        want = [abs(r % self.NX - 1) + abs(r // self.NX - 1) for r in range(p)]
        np.testing.assert_array_equal(h, want)
        np.testing.assert_array_equal(h, bfs(p, self.edges(), 5))

    def test_the_line_and_its_ranks_per_hop(self):
        p = self.NX * self.NY
        h = hops_from(graph(p, self.edges()), 5)
        up = wave_line(h, 5, +1, range(p))
        self.assertEqual(up, [6, 7, 8])  # rank 9 sits right below the source: one hop, the line ends
        self.assertEqual(ranks_per_hop(h, up), 1.5)  # rank 8: 3 ranks on, 2 hops
        self.assertEqual(wave_line(h, 5, -1, range(p)), [4])  # rank 3: 3 hops, a jump


class SpmvPartners(unittest.TestCase):
    """An irregular, SpMV-like partner list: a banded coupling (+-1) plus a far one between ranks
    0 and 4 (a matrix's off-band block): rank differences of up to 4, hops of at most 4."""
    P = 8
    EDGES = [(r, r + s) for r in range(8) for s in (-1, 1) if 0 <= r + s < 8] + [(0, 4), (4, 0)]

    def test_hops_against_a_plain_search(self):
        g = graph(self.P, self.EDGES)
        for source in range(self.P):
            np.testing.assert_array_equal(hops_from(g, source), bfs(self.P, self.EDGES, source))

    def test_the_far_partner_shortens_the_line(self):
        h = hops_from(graph(self.P, self.EDGES), 0)
        np.testing.assert_array_equal(h, [0, 1, 2, 2, 1, 2, 3, 4])
        line = wave_line(h, 0, +1, range(self.P))
        self.assertEqual(line, [1, 2, 3])  # rank 4 is one hop from the source: another arm
        self.assertEqual(ranks_per_hop(h, line), 1.5)

    def test_receive_partners_are_the_senders(self):
        # /comm/recv_partner's layout from the graph (efficiency's dependencies of an import)
        got = recv_partners(graph(self.P, self.EDGES))
        self.assertEqual(got.shape, (self.P, 3))
        self.assertEqual([sorted(int(q) for q in row if q >= 0) for row in got],
                         [[1, 4], [0, 2], [1, 3], [2, 4], [0, 3, 5], [4, 6], [5, 7], [6]])

    def test_directed_edges(self):
        # rank 1 sends to 2 but 2 not to 1: an idle period travels only with the messages
        g = graph(3, [(0, 1), (1, 2)])
        np.testing.assert_array_equal(hops_from(g, 0), [0, 1, 2])
        self.assertTrue(np.all(np.isinf(hops_from(g, 2)[:2])))


class FromFiles(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.TemporaryDirectory()
        cls.path = os.path.join(cls.dir.name, "chain.h5")
        write_synthetic(cls.path, n_ranks=5, n_iter=6)
        add_messages(cls.path)

    @classmethod
    def tearDownClass(cls):
        cls.dir.cleanup()

    def test_the_partner_lists_and_the_messages_give_the_same_graph(self):
        with h5py.File(self.path, "r") as f:
            from_comm = send_graph(f)
        with h5py.File(self.path, "r+") as f:
            del f["comm/send_partner"]
        with h5py.File(self.path, "r") as f:
            from_messages = send_graph(f)
        self.assertEqual(from_comm.shape, (5, 5))
        self.assertGreater(from_comm.nnz, 0)
        self.assertEqual((from_comm != from_messages).nnz, 0)

    def test_no_graph_without_partners_or_messages(self):
        path = os.path.join(self.dir.name, "bare.h5")
        write_synthetic(path, n_ranks=3, n_iter=4)
        with h5py.File(path, "r+") as f:
            del f["comm/send_partner"]
        with h5py.File(path, "r") as f:
            self.assertIsNone(send_graph(f))


if __name__ == "__main__":
    unittest.main()
