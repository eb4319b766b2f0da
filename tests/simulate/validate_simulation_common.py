"""What the scenarios of tests/simulate/validate_simulation.py share: the triad decks' tables, the
runner of `desync simulate` (and of real runs), the readers of a file's idle periods, fronts,
events and phases, and the table of checks.
"""
import os
import subprocess
import sys

import h5py
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tools"))
from desync import idle_waves, wavefronts  # noqa: E402
from desync.h5file import open_output  # noqa: E402

# The triad's [run] table shared by the scenarios' decks; the kernel tables follow.
RUN = """[run]
workload = "triad"
iterations = {iterations}
warmup = 2
progress_interval = 0
"""
CORE = RUN + """[triad]
kernel = "divide"
size_per_rank = 100000
divides = 100
offsets = {offsets}
boundary = "{boundary}"
"""
MEMORY = RUN + """[triad]
kernel = "stream"
size_per_rank = 1000000
write_allocate = false
message_bytes = {message_bytes}
offsets = {offsets}
boundary = "{boundary}"
"""
INJECT = """[[inject]]
rank = {rank}
iteration = {iteration}
duration = {duration}
"""
NOISE = """[noise]
kind = "exponential"
mean = {mean}
"""


class Runner:
    def __init__(self, args):
        self.desync, self.platform, self.work, self.pictures = args.desync, args.platform, args.work, args.pictures
        os.makedirs(self.work, exist_ok=True)

    def simulate(self, name, deck, ranks, psets=()):
        deck_path = os.path.join(self.work, name + ".toml")
        out = os.path.join(self.work, name + ".h5")
        with open(deck_path, "w") as fh:
            fh.write(deck)
        cmd = [self.desync, "simulate", deck_path, "--platform", self.platform, "--ranks", str(ranks), "-o", out, "-f"]
        for s in psets:
            cmd += ["--pset", s]
        run = subprocess.run(cmd, capture_output=True, text=True)
        if run.returncode != 0:
            print(run.stdout + run.stderr)
            raise RuntimeError("%s failed (exit %d)" % (" ".join(cmd), run.returncode))
        return out

    def picture(self, kind, path, name, *extra):
        if not self.pictures:
            return
        os.makedirs(self.pictures, exist_ok=True)
        png = os.path.join(self.pictures, name + ".png")
        small = ["--dpi", "70"] if kind == "timeline" else []  # pictures for docs/images
        subprocess.run([sys.executable, os.path.join(ROOT, "tools", "desync_view.py"), kind, path, "-o", png] + small + list(extra),
                       check=True, capture_output=True)


def idle(path):
    with open_output(path) as f:
        return idle_waves.analyse(f)


def fronts(path, steps=None):
    with open_output(path) as f:
        return wavefronts.analyse(f, steps)


def events(path):
    with h5py.File(path, "r") as f:
        ev = f["timeline/events"][...]
        names = [n.decode() if isinstance(n, bytes) else str(n) for n in f["timeline/events"].attrs["event_names"]]
        warm = np.asarray(f["timeline/warmup"][...], bool)
    return ev[:, ~warm, :], names


def phase(path, begin, end):
    ev, names = events(path)
    return ev[:, :, names.index(end)] - ev[:, :, names.index(begin)]


class Checks:
    def __init__(self):
        self.rows = []

    def __call__(self, scenario, what, value, ok, expect):
        self.rows.append((scenario, what, value, bool(ok), expect))
        print("  %-4s %-52s %-22s (%s)" % ("ok" if ok else "MISS", what, value, expect))


def waves_of(result):
    return [w for w in result["waves"] if "speed_ranks_per_s" in w]
