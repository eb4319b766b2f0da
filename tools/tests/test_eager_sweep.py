#!/usr/bin/env python3
"""Tests of tools/eager_sweep.py: the library's variable per transport, the runs it plans, and
the usage errors. (A real sweep runs in ctest as eager_sweep_vader_np2.)"""

import os
import subprocess
import sys
import unittest

TOOLS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, TOOLS)

import eager_sweep  # noqa: E402


class EagerSweepTest(unittest.TestCase):
    def test_variables(self):
        self.assertEqual(eager_sweep.variable("openmpi", "vader"), "OMPI_MCA_btl_vader_eager_limit")
        self.assertEqual(eager_sweep.variable("openmpi", "tcp"), "OMPI_MCA_btl_tcp_eager_limit")
        self.assertEqual(eager_sweep.variable("openmpi", "ucx"), "UCX_RNDV_THRESH")
        self.assertEqual(eager_sweep.variable("mpich", "vader"), "MPIR_CVAR_CH4_EAGER_MAX_MSG_SIZE")
        self.assertEqual(eager_sweep.variable("intel", None), "I_MPI_EAGER_THRESHOLD")
        with self.assertRaises(ValueError):
            eager_sweep.variable("lam", None)

    def test_plan(self):
        runs = eager_sweep.plan_runs(["mpiexec", "-n", "2", "desync", "run", "d.toml"], [4096, 65536],
                                     "OMPI_MCA_btl_tcp_eager_limit", "out/x")
        self.assertEqual(len(runs), 2)
        limit, env, argv, out = runs[1]
        self.assertEqual(limit, 65536)
        self.assertEqual(env, {"OMPI_MCA_btl_tcp_eager_limit": "65536"})
        self.assertEqual(argv[-4:], ["--set", "comm.eager_limit=65536", "-o", "out/x_65536.h5"])
        self.assertEqual(out, "out/x_65536.h5")

    def run_tool(self, *args):
        p = subprocess.run([sys.executable, os.path.join(TOOLS, "eager_sweep.py")] + list(args),
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
        return p.returncode, p.stdout, p.stderr

    def test_dry_run_and_errors(self):
        code, out, err = self.run_tool("--limits", "1024,2048", "--library", "intel", "--dry-run", "--",
                                       "mpiexec", "desync", "run", "d.toml")
        self.assertEqual(code, 0, err)
        self.assertIn("I_MPI_EAGER_THRESHOLD=2048 mpiexec desync run d.toml --set comm.eager_limit=2048 -o eager_2048.h5", out)
        self.assertEqual(self.run_tool("--limits", "1024")[0], 2)  # no command
        code, out, _ = self.run_tool("--help")  # help without a command: the options, exit 0
        self.assertEqual(code, 0)
        self.assertIn("--limits", out)
        import tempfile
        with tempfile.TemporaryDirectory() as d:
            prefix = os.path.join(d, "s")
            open(prefix + "_1024.h5", "w").close()
            code, _, err = self.run_tool("--limits", "1024", "--library", "intel", "--prefix", prefix, "--", "true")
            self.assertEqual(code, 2)
            self.assertIn("--force", err)
        # --transport is Open MPI's: for MPICH it would be silently ignored
        code, _, err = self.run_tool("--limits", "1024", "--library", "mpich", "--transport", "tcp",
                                     "--dry-run", "--", "desync", "run", "d.toml")
        self.assertEqual(code, 2)
        self.assertIn("--transport tcp", err)
        self.assertIn("MPIR_CVAR_CH4_EAGER_MAX_MSG_SIZE", err)
        # what the sweep sets per run, given again in the command: refused, not doubled
        for given in (["-o", "mine.h5"], ["-omine.h5"], ["--output=mine.h5"], ["--set", "comm.eager_limit=9"],
                      ["--set=comm.eager_limit=9"]):
            code, out, err = self.run_tool("--limits", "1024", "--library", "intel", "--dry-run", "--",
                                           "desync", "run", "d.toml", *given)
            self.assertEqual(code, 2, given)
            self.assertIn("the sweep sets it per run", err)
            self.assertEqual(out, "")
        code, _, err = self.run_tool("--limits", "1024", "--library", "intel", "--dry-run", "--",
                                     "desync", "run", "d.toml", "--set", "comm.eager=on")
        self.assertEqual(code, 0, err)
        # the launcher's own -o... options are not desync's
        for launcher in (["mpiexec", "-oversubscribe", "-n", "2"], ["srun", "-o", "log.txt"],
                         ["mpiexec", "-outfile-pattern", "x", "-n", "2"]):
            code, _, err = self.run_tool("--limits", "1024", "--library", "intel", "--dry-run", "--",
                                         *launcher, "/opt/bin/desync", "run", "d.toml")
            self.assertEqual(code, 0, (launcher, err))
        code, _, err = self.run_tool("--limits", "-5", "--", "x")
        self.assertEqual(code, 2)
        self.assertIn("positive", err)


if __name__ == "__main__":
    unittest.main()
