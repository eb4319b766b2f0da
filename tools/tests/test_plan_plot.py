"""Plan pictures (desync.plan_plot) on a hand-written `desync plan --format json`: a
tridiagonal 8 x 8 matrix on 4 ranks of 2 rows, 2 ranks per node, a 4 x 4 spy grid."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
from desync.plan_plot import node_boundaries, spy_density, volume_matrix, volumes  # noqa: E402

TOOLS = os.path.join(os.path.dirname(__file__), "..")


def partner(me, other):
    return {"rank": other, "entries": 1, "bytes": 8, "distance": other - me, "intra_node": other // 2 == me // 2}


# blocks of 2 rows: each diagonal block holds 4 nonzeros, each block beside the diagonal one
# (rows 2b+1 and 2b+2 meet there): 16 + 6 = 22 = 8 + 2 * 7
PLAN = {
    "generator": "hand", "nr": 8, "nnz": 22, "bandwidth": 1, "global_counts": True, "scalar_bytes": 8, "nb": 1,
    "ranks_total": 4, "ranks_per_node": 2,
    "ranks": [{"rank": r, "first_row": 2 * r, "rows": 2, "nnz": 6 if r in (1, 2) else 5,
               "partners": [partner(r, q) for q in (r - 1, r + 1) if 0 <= q < 4]} for r in range(4)],
    "profile": {"distances": []},
    "spy_grid": {"size": 4, "edges": [0, 2, 4, 6, 8],
                 "blocks": [[b, b, 4] for b in range(4)] + [[b, b + 1, 1] for b in range(3)]
                 + [[b + 1, b, 1] for b in range(3)]},
}


class PlanData(unittest.TestCase):
    def test_grid_volumes_and_nodes(self):
        grid, edges = spy_density(PLAN)
        np.testing.assert_array_equal(edges, [0, 2, 4, 6, 8])
        expect = 4 * np.eye(4, dtype=int) + np.eye(4, k=1, dtype=int) + np.eye(4, k=-1, dtype=int)
        np.testing.assert_array_equal(grid, expect)
        self.assertEqual(int(grid.sum()), PLAN["nnz"])
        v = volume_matrix(PLAN)
        np.testing.assert_array_equal(v, 8 * (np.eye(4, k=1, dtype=int) + np.eye(4, k=-1, dtype=int)))
        self.assertEqual(volumes(PLAN), {"intra_node_bytes": 32, "inter_node_bytes": 16,
                                         "intra_node_messages": 4, "inter_node_messages": 2})
        self.assertEqual(node_boundaries(PLAN), [2])
        self.assertEqual(node_boundaries(dict(PLAN, ranks_per_node=0)), [])
        # edges may be left out: ceil(b nr / G)
        _, edges = spy_density(dict(PLAN, spy_grid={k: v for k, v in PLAN["spy_grid"].items() if k != "edges"}))
        np.testing.assert_array_equal(edges, [0, 2, 4, 6, 8])
        self.assertIsNone(spy_density({k: v for k, v in PLAN.items() if k != "spy_grid"}))


class Command(unittest.TestCase):
    def run_view(self, *args):
        return subprocess.run([sys.executable, os.path.join(TOOLS, "desync_view.py")] + list(args),
                              capture_output=True, text=True)

    def test_plan_plot_draws_and_writes_the_volumes(self):
        with tempfile.TemporaryDirectory() as d:
            plan, png, out = (os.path.join(d, n) for n in ("plan.json", "plan.png", "vol.json"))
            with open(plan, "w") as f:
                json.dump(PLAN, f)
            run = self.run_view("plan-plot", plan, "-o", png, "--json", out)
            self.assertEqual(run.returncode, 0, run.stderr)
            self.assertIn("spy grid 4 x 4 blocks, 10 of them with nonzeros, sum 22 = nnz", run.stdout)
            self.assertIn("intra-node 32 B in 4 messages, inter-node 16 B in 2 messages", run.stdout)
            self.assertGreater(os.path.getsize(png), 10000)
            with open(out) as f:
                data = json.load(f)
            self.assertEqual((data["spy_grid_sum"], data["inter_node_bytes"]), (22, 16))
            # without a spy grid only the communication map is drawn
            with open(plan, "w") as f:
                json.dump({k: v for k, v in PLAN.items() if k != "spy_grid"}, f)
            run = self.run_view("plan-plot", plan, "-o", png)
            self.assertEqual(run.returncode, 0, run.stderr)
            self.assertIn("no spy_grid in the plan", run.stdout)
            # not a matrix plan (a symmsquarecube plan has other keys): exit 2, naming what is missing
            with open(plan, "w") as f:
                json.dump({"algorithm": "baseline", "steps": []}, f)
            run = self.run_view("plan-plot", plan, "-o", png)
            self.assertEqual(run.returncode, 2)
            self.assertIn("missing nr, nnz", run.stderr)


if __name__ == "__main__":
    unittest.main()
