#!/usr/bin/env python3
"""The tools' JSON is strict: a quantity that is not a finite number is null, never a NaN or
Infinity token that JSON readers refuse (json_out.py); numpy values become plain numbers.

Run from the repository root with
    /usr/bin/python3 -m unittest discover -s tools/tests -v
"""

import io
import json
import os
import sys
import unittest

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from desync.json_out import dump_json  # noqa: E402


def strict_load(text):
    def refuse(token):
        raise ValueError("not JSON: " + token)
    return json.loads(text, parse_constant=refuse)


class StrictJsonTest(unittest.TestCase):
    def test_non_finite_numbers_are_null(self):
        out = io.StringIO()
        dump_json({"speed": float("inf"), "decay": [1.5, float("nan"), -float("inf")],
                   "fit": {"r2": np.float64("nan"), "n": np.int64(3)}, "ranks": np.arange(3)}, out)
        self.assertEqual(strict_load(out.getvalue()),
                         {"speed": None, "decay": [1.5, None, None], "fit": {"r2": None, "n": 3}, "ranks": [0, 1, 2]})


if __name__ == "__main__":
    unittest.main()
