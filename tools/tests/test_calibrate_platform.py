"""tools/calibrate_platform.py (desync/calibrate_*.py): the pure parts (lscpu parsing, the
latency/bandwidth fit, the eager limit parsers: calibrate_fit; the TOML writer and checker:
calibrate_toml) without MPI, the shipped platforms/*.toml, and one end-to-end --quick run of the
command against the built binary (skipped when there is none)."""
import glob
import math
import os
import random
import shlex
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
TOOLS = os.path.dirname(HERE)
REPO = os.path.dirname(TOOLS)
sys.path.insert(0, TOOLS)

from desync import calibrate_fit as fit, calibrate_toml as ptoml  # noqa: E402

try:
    import tomllib
except ImportError:  # Python < 3.11
    tomllib = None

# lscpu -p=CPU,CORE,SOCKET,NODE of a 2-socket node with sub-NUMA clustering (2 NUMA nodes per
# socket), 3 cores per NUMA node and 2 hardware threads per core: 24 CPUs, the SMT siblings
# numbered after all cores (as Linux does on Intel).
LSCPU_2S4N = """\
# The following is the parsable format, which can be fed to other
# programs. Each different item in every column has an unique ID
# starting usually from zero.
# CPU,Core,Socket,Node
""" + "".join("%d,%d,%d,%d\n" % (cpu, cpu % 12, (cpu % 12) // 6, (cpu % 12) // 3) for cpu in range(24))

LSCPU_NO_NUMA = "# CPU,Core,Socket,Node\n0,0,0,\n1,1,0,\n2,2,1,\n3,3,1,\n"

MPI_EAGER = """\
btl_self_eager_limit = 1024
btl_self_rndv_eager_limit = 131072
btl_tcp_eager_limit = 65536
btl_tcp_rndv_eager_limit = 65536
btl_vader_eager_limit = 4096
btl_vader_rndv_eager_limit = 32768
"""

OMPI_INFO = '''\
           MCA btl vader: parameter "btl_vader_eager_limit" (current value: "4096", data source: default, level: 4 tuner/basic, type: size_t)
                          Maximum size (in bytes, including header) of "short" messages
             MCA btl tcp: parameter "btl_tcp_eager_limit" (current value: "65536", data source: default, level: 4 tuner/basic, type: size_t)
             MCA btl tcp: parameter "btl_tcp_max_send_size" (current value: "131072", data source: default, level: 4 tuner/basic, type: size_t)
'''

REQUIRED = {
    "platform": ["name"],
    "node": ["count", "sockets", "domains", "cores_per_domain"],
    "core": ["divide_time"],
    "network": ["intra_node_latency", "intra_node_bandwidth", "inter_node_latency",
                "inter_node_bandwidth", "eager_limit_intra", "eager_limit_inter"],
}


def sample_measurements():
    return {
        "layout": fit.parse_lscpu(LSCPU_2S4N),
        "b": [10.0e9, 19.0e9, 18.5e9],  # a dip the writer must smooth out
        "latency": 0.4e-6, "bandwidth": 8.0e9,
        "eager": (4096, "btl_vader_eager_limit (MPI_T)", 65536, "btl_tcp_eager_limit (MPI_T)"),
        "divide_time": 2.5e-9,
        "description": 'test "quoted" text, with a backslash \\ and unicode \u00b5s',
        "header": ["a header line"],
    }


class TestLscpu(unittest.TestCase):
    def test_two_sockets_four_numa_nodes(self):
        lay = fit.parse_lscpu(LSCPU_2S4N)
        self.assertEqual((lay["sockets"], lay["domains"], lay["cores_per_domain"]), (2, 4, 3))
        self.assertEqual((lay["cpus"], lay["cores"], lay["threads_per_core"]), (24, 12, 2))
        self.assertEqual(lay["warnings"], [])

    def test_no_numa_column_gives_a_domain_per_socket(self):
        lay = fit.parse_lscpu(LSCPU_NO_NUMA)
        self.assertEqual((lay["sockets"], lay["domains"], lay["cores_per_domain"]), (2, 2, 2))
        self.assertTrue(lay["warnings"])

    def test_unequal_domains_warn_and_take_the_smallest(self):
        text = "0,0,0,0\n1,1,0,0\n2,2,0,1\n"
        lay = fit.parse_lscpu(text)
        self.assertEqual((lay["domains"], lay["cores_per_domain"]), (2, 1))
        self.assertTrue(any("unequal" in w for w in lay["warnings"]))

    def test_empty_output_is_an_error(self):
        with self.assertRaises(ValueError):
            fit.parse_lscpu("# CPU,Core,Socket,Node\n")


class TestFit(unittest.TestCase):
    SIZES = [8, 64, 512, 4096, 32768, 262144, 1048576, 4194304]

    def test_recovers_latency_and_bandwidth_exactly(self):
        lat, bw = 1.3e-6, 11.7e9
        times = [lat + s / bw for s in self.SIZES]
        for weighting in ("relative", "absolute"):
            L, B, resid = fit.fit_latency_bandwidth(self.SIZES, times, weighting)
            self.assertAlmostEqual(L / lat, 1.0, places=9, msg=weighting)
            self.assertAlmostEqual(B / bw, 1.0, places=9, msg=weighting)
            self.assertLess(max(abs(r) for r in resid), 1e-9)

    def test_noisy_data_within_a_few_percent(self):
        rng = random.Random(7)
        lat, bw = 0.4e-6, 8.0e9
        times = [(lat + s / bw) * (1.0 + rng.uniform(-0.01, 0.01)) for s in self.SIZES]
        L, B, _ = fit.fit_latency_bandwidth(self.SIZES, times)
        self.assertLess(abs(L / lat - 1.0), 0.05)
        self.assertLess(abs(B / bw - 1.0), 0.02)

    def test_rejects_bad_input(self):
        with self.assertRaises(ValueError):
            fit.fit_latency_bandwidth([8], [1e-6])
        with self.assertRaises(ValueError):
            fit.fit_latency_bandwidth([8, 16], [1e-6, -1.0])
        with self.assertRaises(ValueError):  # time falls with size: no positive bandwidth
            fit.fit_latency_bandwidth([8, 1 << 20], [1e-3, 1e-6])


class TestEager(unittest.TestCase):
    def test_from_mpi_t_record(self):
        v = fit.parse_mpi_eager(MPI_EAGER + "env OMPI_MCA_btl_tcp_eager_limit=131072\n")
        self.assertEqual(v["btl_vader_eager_limit"], 4096)
        self.assertEqual(v["env OMPI_MCA_btl_tcp_eager_limit"], 131072)
        intra, isrc, inter, osrc = fit.eager_limits(v)
        self.assertEqual((intra, inter), (4096, 131072))  # the environment wins over the default
        self.assertIn("vader", isrc)

    def test_from_ompi_info(self):
        v = fit.parse_ompi_info(OMPI_INFO)
        self.assertEqual(v, {"btl_vader_eager_limit": 4096, "btl_tcp_eager_limit": 65536})
        parsable = "mca:btl:sm:param:btl_sm_eager_limit:value:4096\n"
        self.assertEqual(fit.parse_ompi_info(parsable), {"btl_sm_eager_limit": 4096})

    def test_nothing_known(self):
        self.assertEqual(fit.eager_limits({}), (None, None, None, None))


class TestToml(unittest.TestCase):
    @unittest.skipIf(tomllib is None, "tomllib needs Python 3.11")
    def test_written_file_parses_and_has_every_required_key(self):
        text = ptoml.build_platform_toml(ptoml.platform_from_measurements(sample_measurements()))
        d = tomllib.loads(text)
        for table, keys in REQUIRED.items():
            for k in keys:
                self.assertIn(k, d[table], "%s.%s" % (table, k))
        self.assertEqual(d["memory"]["table"], [10.0e9, 19.0e9, 19.0e9])
        self.assertEqual(d["node"]["domains"], 4)
        self.assertEqual(d["platform"]["description"], sample_measurements()["description"])
        self.assertEqual(ptoml.check_platform(d), [])
        self.assertEqual(d["network"]["inter_node_latency"], d["network"]["intra_node_latency"])
        # every value line carries a comment naming its source, inter-node ones say "estimate"
        for line in text.splitlines():
            if "=" in line and not line.startswith("#"):
                self.assertIn("#", line, line)
            if line.startswith("inter_node"):
                self.assertIn("# estimate", line)

    @unittest.skipIf(tomllib is None, "tomllib needs Python 3.11")
    def test_two_point_memory_and_given_inter_values(self):
        m = dict(sample_measurements(), memory_model="b1")
        d = tomllib.loads(ptoml.build_platform_toml(
            ptoml.platform_from_measurements(m, "x", {"latency": 1.5e-6, "bandwidth": 12.5e9})))
        self.assertEqual((d["memory"]["b1"], d["memory"]["b_saturated"]), (10.0e9, 19.0e9))
        self.assertNotIn("table", d["memory"])
        self.assertEqual(d["network"]["inter_node_bandwidth"], 12.5e9)
        self.assertEqual(ptoml.check_platform(d), [])

    @unittest.skipIf(tomllib is None, "tomllib needs Python 3.11")
    def test_numbers_round_trip(self):
        for v in (0.41e-6, 20.199e9, 1.0, 999.96, 7.0, 3.2e-9, 123456.0):
            got = tomllib.loads("x = %s\n" % ptoml.toml_number(v))["x"]
            self.assertIsInstance(got, float)
            self.assertLess(abs(got / v - 1.0), 1e-3, (v, got))
        long_list = [float(i + 1) * 1e9 for i in range(18)]
        text = ptoml.build_platform_toml({"tables": [("memory", "", [("table", long_list, "c")])]})
        self.assertEqual(tomllib.loads(text)["memory"]["table"], long_list)

    def test_checker_finds_errors(self):
        good = {"platform": {"name": "x"}, "node": {"count": 1, "sockets": 2, "domains": 4, "cores_per_domain": 2},
                "memory": {"b1": 1e9, "b_saturated": 2e9}, "core": {"divide_time": 1e-9},
                "network": {"intra_node_latency": 1e-6, "intra_node_bandwidth": 1e9, "inter_node_latency": 2e-6,
                            "inter_node_bandwidth": 1e9, "eager_limit_intra": 4096, "eager_limit_inter": 65536}}
        self.assertEqual(ptoml.check_platform(good), [])

        def broken(table, key, value):
            d = {t: dict(v) for t, v in good.items()}
            d.setdefault(table, {})
            if value is None:
                del d[table][key]
            else:
                d[table][key] = value
            return ptoml.check_platform(d)
        self.assertTrue(broken("node", "domains", 3))           # not a multiple of sockets
        self.assertTrue(broken("memory", "b1", 3e9))            # b1 > b_saturated
        self.assertTrue(broken("memory", "table", [2e9, 1e9]))  # decreasing
        self.assertTrue(broken("memory", "table", [1e9] * 3))   # longer than cores_per_domain
        self.assertTrue(broken("network", "inter_node_latency", 0.5e-6))
        self.assertTrue(broken("network", "eager_limit_intra", 4096.0))
        self.assertTrue(broken("core", "divide_time", None))
        self.assertTrue(broken("core", "oversubscribe", True))  # unknown key
        self.assertTrue(broken("placement", "ranks_per_node", 9))


@unittest.skipIf(tomllib is None, "tomllib needs Python 3.11")
class TestShippedPlatforms(unittest.TestCase):
    def test_every_file_is_valid_and_every_value_names_its_source(self):
        files = sorted(glob.glob(os.path.join(REPO, "platforms", "*.toml")))
        if not files:
            self.skipTest("no platforms/*.toml")
        for path in files:
            with open(path) as fh:
                text = fh.read()
            self.assertEqual(ptoml.check_platform(tomllib.loads(text)), [], path)
            in_array, table = False, ""
            for line in text.splitlines():
                code = line.split("#", 1)[0].strip()
                if in_array:
                    in_array = "]" not in code
                    continue
                if code.startswith("["):
                    table = code
                if "=" in code and table != "[platform]":  # name and description are text, not values
                    self.assertIn("#", line, "%s: a value without a source or '# estimate': %s" % (path, line))
                    in_array = code.endswith("[")


def _built_binary():
    for cand in (os.environ.get("DESYNC_BIN"), os.path.join(REPO, "build", "openmp-release", "miniapp", "desync")):
        if cand and os.access(cand, os.X_OK):
            return cand
    return None


def _mpiexec():
    return os.environ.get("DESYNC_MPIEXEC") or shutil.which("mpiexec")


# Under ctest DESYNC_BIN names the build's binary (tests/cli/CMakeLists.txt): then nothing may be
# missing (a skip would pass unseen); by hand the test runs where it can.
@unittest.skipIf(tomllib is None, "tomllib needs Python 3.11")
@unittest.skipUnless("DESYNC_BIN" in os.environ or (_built_binary() and _mpiexec() and shutil.which("lscpu")),
                     "needs the built desync binary, mpiexec and lscpu")
class TestEndToEnd(unittest.TestCase):
    def test_quick_calibration_writes_a_valid_file(self):
        self.assertTrue(_built_binary() and _mpiexec() and shutil.which("lscpu"),
                        "DESYNC_BIN=%s, mpiexec %s, lscpu %s" % (os.environ.get("DESYNC_BIN"), _mpiexec(), shutil.which("lscpu")))
        work = tempfile.mkdtemp(prefix="calibrate_test.")
        self.addCleanup(shutil.rmtree, work, True)
        out = os.path.join(work, "p.toml")
        given = os.environ.get("DESYNC_MPIEXEC_PREFLAGS")  # set by ctest, empty under MPICH: then none
        flags = (given.replace(";", " ").split() if given is not None
                 else ["--oversubscribe"] + (["--allow-run-as-root"] if os.geteuid() == 0 else []))
        cmd = [sys.executable, os.path.join(TOOLS, "calibrate_platform.py"), "--quick",
               "--desync", _built_binary(), "--mpiexec", " ".join([_mpiexec()] + [shlex.quote(f) for f in flags]),
               "--workdir", os.path.join(work, "w"), "-o", out]
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
        self.assertEqual(proc.returncode, 0, proc.stdout[-3000:] + proc.stderr[-3000:])
        with open(out, "rb") as fh:
            d = tomllib.load(fh)
        self.assertEqual(ptoml.check_platform(d), [])
        self.assertGreater(d["memory"]["table"][0], 0.0)  # b1
        self.assertTrue(math.isfinite(d["network"]["intra_node_latency"]))
        self.assertGreater(d["core"]["divide_time"], 0.0)
        self.assertIn("--quick", d["platform"]["description"])
        for name in ("saturation.h5", "pingpong.h5", "divide.h5", "saturation.toml"):
            self.assertTrue(os.path.exists(os.path.join(work, "w", name)), name)
        self._rounds_replayed(os.path.join(work, "w"), d)

    def _rounds_replayed(self, kept, platform):
        """measure_rounds over 3 rounds, each run answered with the kept file of its step: the runs
        alternate step by step (one round after another, not each step's repeats in a row), and the
        best of three equal runs is that run's value, as in the platform file."""
        from desync import calibrate_measure as cm

        class Replay:
            def __init__(self):
                self.tags = []

            def run(self, tag, deck_text, ranks, threads, bind_flags):
                self.tags.append(tag)
                return os.path.join(kept, tag.rsplit("_", 1)[0] + ".h5")

        runner = Replay()
        memory, network, divide = cm.measure_rounds(runner, len(platform["memory"]["table"]), True, 3)
        self.assertEqual(runner.tags, ["%s_%d" % (step, k) for k in (1, 2, 3)
                                       for step in ("saturation", "pingpong", "divide")])
        self.assertEqual(len(memory["runs"]), 3)
        self.assertEqual(len(network["runs"]), 3)
        self.assertEqual(len(divide["medians"]), 3)
        self.assertAlmostEqual(memory["b"][0], platform["memory"]["table"][0], delta=1e-3 * memory["b"][0])
        self.assertAlmostEqual(network["latency"], platform["network"]["intra_node_latency"],
                               delta=1e-3 * network["latency"])
        self.assertAlmostEqual(divide["divide_time"], platform["core"]["divide_time"],
                               delta=1e-3 * divide["divide_time"])


if __name__ == "__main__":
    unittest.main()
