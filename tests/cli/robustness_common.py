"""What tests/cli/robustness.py's cases share: the runner of the real binary through mpiexec,
failing and skipping, the output file's attributes, desync's error lines, the launcher's kind and
the ranks below it.
"""
import os
import subprocess
import sys
import time

SKIP = 77  # ctest's SKIP_RETURN_CODE: the environment cannot run the case
TOOLS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools")


def fail(msg):
    print("FAILED:", msg)
    sys.exit(1)


class Runner:
    def __init__(self, a):
        self.a = a
        self.env = dict(os.environ, OMP_NUM_THREADS="1", OMP_PROC_BIND="false")
        self.pre = [p for p in a.preflags.split(";") if p]

    def cmd(self, np, *args):
        return [self.a.mpiexec, "-n", str(np), *self.pre, self.a.desync, *args]

    def run(self, np, *args, timeout=120, env=None):
        t0 = time.monotonic()
        p = subprocess.run(self.cmd(np, *args), capture_output=True, text=True, timeout=timeout,
                           env=env or self.env)
        p.elapsed = time.monotonic() - t0
        return p


def h5_attrs(path):
    import h5py
    with h5py.File(path, "r") as f:
        a = {k: (v.decode() if isinstance(v, bytes) else v) for k, v in f.attrs.items()}
        a["_rows"] = f["timeline/events"].shape[1]
        a["_warmup_rows"] = int(f["timeline/warmup"][:].sum())
        return a


def desync_errors(stderr):
    """desync's own error lines (mpiexec adds its banner about the non-zero exit)."""
    return [l for l in stderr.splitlines() if "error" in l and not l.startswith(("-", " ", "mpiexec", "prterun"))]


def rank_processes(launcher):
    """The desync processes below the launcher: its children under Open MPI's mpiexec, its
    grandchildren under MPICH's Hydra (mpiexec -> hydra_pmi_proxy -> ranks)."""
    found, pending = [], [str(launcher)]
    while pending:
        kids = subprocess.run(["pgrep", "-P", pending.pop()], capture_output=True, text=True).stdout.split()
        for pid in kids:
            try:
                with open(f"/proc/{pid}/comm") as f:
                    name = f.read().strip()
            except OSError:
                continue
            (found if name == "desync" else pending).append(pid)
    return found


def launcher_kind(mpiexec):
    """"openmpi" (mpirun/mpiexec of Open MPI), "hydra" (MPICH's mpiexec.hydra) or "other"."""
    p = subprocess.run([mpiexec, "--version"], capture_output=True, text=True)
    text = p.stdout + p.stderr
    if "Open MPI" in text or "OpenRTE" in text:
        return "openmpi"
    return "hydra" if "HYDRA" in text.upper() else "other"
