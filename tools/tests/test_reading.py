#!/usr/bin/env python3
"""Tests of the reading helpers: string decoding (desync/h5file.py), windows (desync/window.py)
and formatting (desync/formatting.py).

Run from the repository root with
    /usr/bin/python3 -m unittest discover -s tools/tests -v
or directly: /usr/bin/python3 tools/tests/test_reading.py
"""

import os
import sys
import unittest

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from desync.formatting import rank_ranges  # noqa: E402
from desync.h5file import decode, to_scalar  # noqa: E402
from desync.window import iteration_numbers, parse_iterations, parse_slice  # noqa: E402


class ReadingTest(unittest.TestCase):
    def test_decode(self):
        self.assertEqual(decode(b"triad\x00\x00\x00"), "triad")
        self.assertEqual(decode("passed\x00"), "passed")
        self.assertEqual(decode(np.bytes_(b"a\x00b")), "a")
        self.assertEqual(decode(np.array([b"x\x00", b"yz"], dtype="S4")), ["x", "yz"])
        self.assertEqual(to_scalar(np.array([3], np.int32)), 3)
        self.assertEqual(parse_slice("2:5"), slice(2, 5))
        self.assertEqual(parse_slice("-1"), slice(-1, None))  # ranks: Python
        self.assertEqual(parse_iterations("-1"), slice(-1, 0))  # deck numbering
        self.assertEqual(parse_iterations("-3:4"), slice(-3, 4))
        self.assertEqual(parse_iterations("7"), slice(7, 8))
        numbers = iteration_numbers
        self.assertEqual(numbers(slice(-3, 4), -2, 18).tolist(), list(range(-2, 4)))
        self.assertEqual(numbers(slice(None, None), -2, 18).tolist(), list(range(18)))
        self.assertEqual(numbers(slice(None, None), -2, 18, True).tolist(), list(range(-2, 18)))
        self.assertEqual(numbers(slice(-5, 6, 3), -2, 18).tolist(), [-2, 1, 4])
        self.assertEqual(numbers(slice(15, 30), -2, 18).tolist(), [15, 16, 17])
        self.assertEqual(rank_ranges([0, 1, 2, 5, 7, 8]), "0-2,5,7-8")


if __name__ == "__main__":
    unittest.main()
