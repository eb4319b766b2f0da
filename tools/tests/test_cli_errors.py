#!/usr/bin/env python3
"""Tests of desync_view.py's error handling: messages without tracebacks, exit status 2.

Run from the repository root with
    /usr/bin/python3 -m unittest discover -s tools/tests -v
or directly: /usr/bin/python3 tools/tests/test_cli_errors.py
"""

import os
import unittest

from synthetic_files import write_synthetic
from view_helpers import TriadFileTest, run_view


class CliErrorTest(TriadFileTest):
    def test_not_a_desync_file(self):
        other = self.path("other.h5")
        write_synthetic(other, fmt="something-else")
        code, out, err = run_view("summary", other)
        self.assertEqual(code, 2)
        self.assertIn("not a desync output file", err)
        self.assertNotIn("Traceback", err)
        text = self.path("text.h5")
        with open(text, "w") as f:
            f.write("hello\n")
        code, out, err = run_view("trace", text, "-o", self.path("x.json"))
        self.assertEqual(code, 2)
        self.assertIn("not an HDF5 file", err)

    def test_an_output_never_replaces_an_input(self):
        import h5py
        code, out, err = run_view("trace", self.h5, "-o", self.h5)
        self.assertEqual(code, 2)
        self.assertIn("would replace the input file", err)
        self.assertTrue(h5py.is_hdf5(self.h5))
        code, out, err = run_view("ppam", self.h5, "-o", self.path("p.png"), "--json", self.path("p.png"))
        self.assertEqual(code, 2)
        self.assertIn("named as two outputs", err)
        self.assertFalse(os.path.exists(self.path("p.png")))

    def test_a_failed_command_leaves_earlier_outputs_as_they_were(self):
        # -o is written before --json fails: the picture the user had is put back, byte for byte.
        keep = self.path("keep.png")
        with open(keep, "wb") as f:
            f.write(b"the user's earlier picture")
        code, out, err = run_view("ppam", self.h5, "-o", keep, "--json", os.path.join(self.path("no"), "such", "dir.json"))
        self.assertEqual(code, 1, err)
        with open(keep, "rb") as f:
            self.assertEqual(f.read(), b"the user's earlier picture")
        self.assertEqual([n for n in os.listdir(os.path.dirname(keep)) if n.endswith(".keep")], [])
        # And a command that succeeds replaces it, leaving no copy behind.
        code, out, err = run_view("ppam", self.h5, "-o", keep)
        self.assertEqual(code, 0, err)
        with open(keep, "rb") as f:
            self.assertEqual(f.read(4), b"\x89PNG")
        self.assertEqual([n for n in os.listdir(os.path.dirname(keep)) if n.endswith(".keep")], [])

    def test_bad_option_values_name_the_option(self):
        # Usage errors (status 2) naming the option, never "a damaged file, or a bug of the tools".
        for args, said in ((("wavefront", self.h5, "--steps", "a,b"), "argument --steps: 'a,b'"),
                           (("wavefront", self.h5, "--samples", "0"), "argument --samples: '0': allowed: an integer in [1, 1000000]"),
                           (("concurrency", self.h5, "-o", self.path("c.png"), "--samples", "50000000"),
                            "argument --samples: '50000000': allowed: an integer in [1, 1000000]"),  # not an exhausted memory
                           (("timeline", self.h5, "-o", self.path("t.png"), "--dpi", "100000"), "argument --dpi: '100000'"),
                           (("timeline", self.h5, "-o", self.path("t.png"), "--time", "-1:0"), "finite numbers >= 0"),
                           (("idlewave", self.h5, "--phases", "wait,nosuch"), "nosuch not a phase of this file"),
                           (("wavefront", self.h5, "--steps", "100"), "--steps 100: not in the window"),
                           (("timeline", self.h5, "-o", self.path("t.xyz")), "a picture's name ends in one of"),
                           (("timeline", self.h5, "-o", self.path("t.png"), "--dpi", "0"), "argument --dpi: '0'"),
                           (("idlewave", self.h5, "--threshold", "nan"), "argument --threshold: 'nan': allowed: a finite"),
                           (("idlewave", self.h5, "--sigma", "-1"), "argument --sigma: '-1'"),
                           (("ppam", self.h5, "--k", "99"), "--k 99: the window has")):
            code, out, err = run_view(*args)
            self.assertEqual(code, 2, args)
            self.assertIn(said, err)
            self.assertNotIn("damaged file", err)
        self.assertFalse(os.path.exists(self.path("t.png")))

    def test_missing_file_and_empty_window(self):
        code, out, err = run_view("summary", self.path("missing.h5"))
        self.assertEqual(code, 2)
        self.assertIn("no such file", err)
        code, out, err = run_view("trace", self.h5, "-o", self.path("e.json"), "--ranks", "4:8")
        self.assertEqual(code, 2)
        self.assertIn("empty window", err)
        code, out, err = run_view("timeline", self.h5, "-o", self.path("e.png"), "--iterations", "18:30")
        self.assertEqual(code, 2)
        self.assertIn("empty window", err)
        self.assertIn("measured iterations 0..17, warm-up -2..-1", err)
        self.assertFalse(os.path.exists(self.path("e.png")))
        code, out, err = run_view("timeline", self.h5, "-o", self.path("e.png"), "--iterations", "-9:-2")
        self.assertEqual(code, 2)
        self.assertIn("empty window", err)
        code, out, err = run_view("timeline", self.h5, "-o", self.path("e.png"), "--ranks", "a:b")
        self.assertEqual(code, 2)
        self.assertNotIn("Traceback", err)


if __name__ == "__main__":
    unittest.main()
