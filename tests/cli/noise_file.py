#!/usr/bin/env python3
"""[noise] kind = "file" as a user runs it (docs/decks.md, "[noise]"), on inputs/triad/noise_replay.toml.

  noise_file.py --desync BIN --mpiexec MPIEXEC --preflags "..." --workdir DIR --inputs INPUTS --tools TOOLS [--platform P]

- run on 4 ranks: every rank's delay of every iteration (delay_end - delay_begin in /timeline; no
  delay events where the file says 0) is at least the file's number (busy work runs until the clock has passed it) and, in the median
  over the run, within 1 ms of it (a line or column out of place leaves some cell short of its
  number: rank 3's 20 ms bursts);
  /config/noise_file holds the file's bytes; `desync-view noise` of the run writes a noise file
  `desync check` accepts for 4 ranks;
- `desync simulate` of the deck on 4 ranks (given --platform, a build with SimGrid): the simulated
  delays are the file's numbers (within the simulator's 1 us rounding);
- on 2 ranks: exit code 2, the column count named once, no output file;
- `desync check --ranks 4` names the file with its lines and columns;
- a file that does not exist (`--set noise.file=`): exit code 2 from `desync check`, the message
  starting with the deck key (the command line) and naming the path resolved against the deck's
  directory.
Exit 0 if all holds, 1 otherwise, one line per problem.
"""
import argparse
import os
import subprocess
import sys

import h5py
import numpy as np


def table(path):
    rows = []
    for line in open(path):
        line = line.split("#", 1)[0].replace(",", " ").split()
        if line:
            rows.append([float(x) for x in line])
    return np.array(rows)


def delays(path):
    with h5py.File(path, "r") as f:
        e = f["timeline/events"]
        names = [n.decode() if isinstance(n, bytes) else n for n in e.attrs["event_names"]]
        ev = e[()]
        text = f["config/noise_file"][()]
    return ev[:, :, names.index("delay_end")] - ev[:, :, names.index("delay_begin")], text


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--desync", required=True)
    ap.add_argument("--mpiexec", required=True)
    ap.add_argument("--preflags", default="")
    ap.add_argument("--workdir", required=True)
    ap.add_argument("--inputs", required=True)
    ap.add_argument("--tools", required=True, help="tools/ (desync_view.py)")
    ap.add_argument("--platform", help="a platform file: also simulate (a build with SimGrid)")
    a = ap.parse_args()
    os.makedirs(a.workdir, exist_ok=True)
    deck = os.path.join(a.inputs, "triad", "noise_replay.toml")
    noise_path = os.path.join(a.inputs, "triad", "noise_replay.txt")
    want = table(noise_path)  # lines x ranks, the warm-up's lines first
    problems = []

    def mpirun(np_, *args):
        return subprocess.run([a.mpiexec, "-n", str(np_)] + a.preflags.replace(";", " ").split() + [a.desync] + list(args),
                              capture_output=True, text=True)

    out = os.path.join(a.workdir, "replay.h5")
    p = mpirun(4, "run", deck, "-o", out, "--force")
    if p.returncode != 0:
        problems.append("run on 4 ranks: exit %d: %s" % (p.returncode, p.stderr[-800:]))
    else:
        d, text = delays(out)
        w = want[: d.shape[1]].T  # ranks x iterations
        if d.shape != w.shape:
            problems.append("run: delays of shape %s, the file gives %s" % (d.shape, w.shape))
        else:
            # No busy work, no delay events (NaN): only where the file says 0.
            if np.any(np.isnan(d) & (w > 0)):
                r, i = np.argwhere(np.isnan(d) & (w > 0))[0]
                problems.append("run: rank %d iteration row %d has no delay, the file says %.6f s" % (r, i, w[r, i]))
            d = np.nan_to_num(d, nan=0.0)
            if np.any(d < w - 1e-6):
                r, i = np.argwhere(d < w - 1e-6)[0]
                problems.append("run: rank %d iteration row %d delayed %.6f s, the file says %.6f s" % (r, i, d[r, i], w[r, i]))
            excess = float(np.median(d - w))
            if not 0 <= excess < 1e-3:
                problems.append("run: median delay minus the file's number %.6f s, not within [0, 1 ms)" % excess)
            # (Which delays are longest is the scheduler's on a busy machine: a 40 us delay
            # preempted for 20 ms outlasts a burst. The lower bound per cell already catches a
            # line or column out of place: a burst's line elsewhere leaves its row short.)
        if text != open(noise_path, "rb").read():
            problems.append("run: /config/noise_file is not the file's bytes")
        # The run's own noise exported (desync-view noise) is a noise file desync reads.
        exported = os.path.join(a.workdir, "exported.txt")
        q = subprocess.run([sys.executable, os.path.join(a.tools, "desync_view.py"), "noise", out, "-o", exported],
                           capture_output=True, text=True)
        c = subprocess.run([a.desync, "check", deck, "--set", "noise.file=" + os.path.abspath(exported), "--ranks", "4"],
                           capture_output=True, text=True) if q.returncode == 0 else q
        if q.returncode != 0 or c.returncode != 0:
            problems.append("desync-view noise, then desync check with its file: exit %d / %d: %s"
                            % (q.returncode, c.returncode, (q.stderr + c.stderr)[-400:]))

    sim = os.path.join(a.workdir, "replay_sim.h5")
    p = subprocess.run([a.desync, "simulate", deck, "--ranks", "4", "--platform", a.platform, "-o", sim, "--force"],
                       capture_output=True, text=True) if a.platform else None
    if p is None:
        print("simulate: not checked (no --platform: a build without SimGrid)")
    elif p.returncode != 0:
        problems.append("simulate: exit %d: %s" % (p.returncode, p.stderr[-800:]))
    else:
        d, _ = delays(sim)
        d = np.nan_to_num(d, nan=0.0)
        w = want[: d.shape[1]].T
        if d.shape != w.shape or np.max(np.abs(d - w)) > 2e-6:
            problems.append("simulate: delays differ from the file's by up to %.3g s" % np.max(np.abs(d - w)))

    bad = os.path.join(a.workdir, "two.h5")
    p = mpirun(2, "run", deck, "-o", bad, "--force")
    said = p.stderr.count("has 4 column(s), one per rank; the run has 2 rank(s)")
    if p.returncode != 2 or said != 1 or os.path.exists(bad):
        problems.append("2 ranks: exit %d, the column count said %d time(s), output file %s" %
                        (p.returncode, said, "left" if os.path.exists(bad) else "absent"))

    p = subprocess.run([a.desync, "check", deck, "--ranks", "4"], capture_output=True, text=True)
    said = "# noise file %s: %d line(s) x 4 column(s) (one per rank)" % (noise_path, want.shape[0])
    if p.returncode != 0 or said not in p.stdout + p.stderr:
        problems.append("check: exit %d, %r not said: %s" % (p.returncode, said, (p.stdout + p.stderr)[:300]))

    p = subprocess.run([a.desync, "check", deck, "--set", "noise.file=missing.txt"], capture_output=True, text=True)
    where = os.path.join(os.path.dirname(deck), "missing.txt")
    said = ': error: [noise] file = "missing.txt": %s: cannot read the noise file: no such file' % where
    if p.returncode != 2 or said not in p.stderr or not p.stderr.startswith("command line"):
        problems.append("missing file: exit %d, stderr %r" % (p.returncode, p.stderr[-300:]))

    for line in problems:
        print("FAIL", line)
    print("noise file: %d problem(s)" % len(problems))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
