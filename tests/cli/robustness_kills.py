"""tests/cli/robustness.py's cases around flushes: a rank killed mid-run or inside a flush, a
flush between two iterations; what the file left behind must hold.
"""
import os
import signal
import subprocess
import sys
import time

from robustness_common import TOOLS, fail, h5_attrs, rank_processes


def start_flushing_run(r, out, env=None, np=4, extra=()):
    """np ranks of a long run flushing every second ([record] flush_seconds = 1): Popen."""
    return subprocess.Popen(r.cmd(np, "run", r.a.deck, "--set", "run.iterations=100000", "--set", "run.warmup=5",
                                  "--set", "record.flush_seconds=1", "--set", "run.progress_interval=0", "-o", out,
                                  *extra),
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env or r.env)


def wait_for_flushes(p, n):
    """Reads rank 0's lines until flush n is reported; returns (text so far, iterations flushed)."""
    seen = ""
    while True:
        line = p.stdout.readline()
        seen += line
        if not line:
            fail("the run ended before its flush %d:\n%s" % (n, seen))
        if line.startswith("[record]") and "(flush %d," % n in line:
            return seen, int(line.split()[1])


def kill_one_rank(p):
    """SIGKILL to rank processes[1] (what the OOM killer or a failing node does); the job must end
    within 30 s. Returns the launcher's output after the kill."""
    ranks = rank_processes(p.pid)
    if len(ranks) != 4:
        p.kill()
        fail(f"expected 4 rank processes under mpiexec, found {ranks}")
    t0 = time.monotonic()
    os.kill(int(ranks[1]), signal.SIGKILL)
    try:
        rest, _ = p.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        p.kill()
        for pid in ranks:
            try:
                os.kill(int(pid), signal.SIGKILL)
            except OSError:
                pass
        fail("the job did not end within 30 s of a rank's SIGKILL")
    print(f"job ended {time.monotonic() - t0:.1f} s after the SIGKILL, exit {p.returncode}")
    if p.returncode == 0:
        fail("exit code 0 after a rank was killed")
    return rest


def check_partial(out, at_least, tmp_ok=False):
    """OUT.partial: a link to a complete generation, marked incomplete, holding at least
    `at_least` measured iterations; the layout checker and three desync-view commands read it.
    tmp_ok: the ranks may have been killed inside the final write (OUT.<tag>.tmp left, never OUT)."""
    link = out + ".partial"
    if not os.path.islink(link):
        fail(f"no {link} after the kill (found: {sorted(os.listdir(os.path.dirname(out)))})")
    base = os.path.basename(out) + "."
    tmps = [x for x in os.listdir(os.path.dirname(out)) if x.startswith(base) and x.endswith(".tmp")]
    if os.path.exists(out) or (tmps and not tmp_ok):
        fail("a final file or .tmp appeared although the run was killed")
    at = h5_attrs(link)
    print("partial:", os.readlink(link), {k: at.get(k) for k in ("complete", "flushed", "iterations", "verification", "_rows")})
    if at["complete"] != 0 or at.get("flushed") != 1:
        fail("the partial file is not marked incomplete and flushed")
    if at["iterations"] < at_least or at["_rows"] != at["iterations"] + at["warmup_iterations"]:
        fail(f"the partial file holds {at['iterations']} measured iterations, the flush reported {at_least}")
    layout = subprocess.run([sys.executable, os.path.join(TOOLS, "check_output_layout.py"),
                             os.path.join(TOOLS, "..", "docs", "output.md"), link], capture_output=True, text=True)
    print(layout.stdout[-800:], layout.stderr[-800:])
    if layout.returncode != 0:
        fail("the layout checker rejects the partial file")
    for cmd in (["summary"], ["heatmap", "-o", os.path.join(os.path.dirname(out), "heat.png")], ["idlewave"]):
        v = subprocess.run([sys.executable, os.path.join(TOOLS, "desync_view.py"), cmd[0], link, *cmd[1:]],
                           capture_output=True, text=True)
        print("desync-view", cmd[0], "->", v.returncode, v.stderr.strip()[:300])
        if v.returncode != 0 or "Traceback" in v.stderr:
            fail(f"desync-view {cmd[0]} fails on the partial file:\n{v.stdout[-1000:]}\n{v.stderr[-2000:]}")
        if "is incomplete" not in v.stderr:
            fail(f"desync-view {cmd[0]} does not say the file is incomplete")
    return at


def case_killed_rank(r, a, w):
    """A rank SIGKILLed after two flushes: the job ends within 30 s, OUT.partial survives with at
    least the second flush's iterations (docs/decks.md, "[record] flush_seconds")."""
    out = os.path.join(w, "killed.h5")
    p = start_flushing_run(r, out)
    seen, flushed = wait_for_flushes(p, 2)
    rest = kill_one_rank(p)
    print((seen + rest)[-2500:])
    check_partial(out, flushed)


def case_kill_in_flush(r, a, w):
    """A rank SIGKILLed inside a flush (held open there by the test's fault injection): the link
    still names the previous generation, complete and readable; and a new run over it (--force)
    leaves that link on the old complete file until its own first flush is complete."""
    out = os.path.join(w, "killed.h5")
    env = dict(r.env, DESYNC_TEST_PAUSE_IN_FLUSH="4")
    p = start_flushing_run(r, out, env)
    seen, flushed = wait_for_flushes(p, 1)
    # Flush 2 writes generation 1 (OUT.partial.TAG.1, the run's own tag): once that file exists,
    # the ranks sit in the 4 s pause inside it.
    folder, base = os.path.dirname(out), os.path.basename(out) + ".partial."

    def generations(last):
        return [os.path.join(folder, x) for x in os.listdir(folder) if x.startswith(base) and x.endswith("." + last)]

    t0 = time.monotonic()
    while not generations("1"):
        if time.monotonic() - t0 > 60 or p.poll() is not None:
            p.kill()
            fail("flush 2 did not start")
        time.sleep(0.05)
    time.sleep(0.5)
    rest = kill_one_rank(p)
    print((seen + rest)[-2500:])
    named = os.readlink(out + ".partial")
    if [os.path.basename(g) for g in generations("0")] != [named] or named.split(".")[-2] != generations("1")[0].split(".")[-2]:
        fail(f"the link does not name the run's generation 0 after a kill inside flush 2: {named}")
    at = check_partial(out, flushed)
    if at["iterations"] != flushed:
        fail(f"generation 0 holds {at['iterations']} measured iterations, flush 1 wrote {flushed}")

    # A new run over it (--force): while its first flush is held open, the link still names the
    # killed run's complete file (that flush writes the generation the link does not name).
    t_new = time.time()
    p = start_flushing_run(r, out, env, extra=("--force",))
    try:
        while not any(os.path.getmtime(g) >= t_new for g in generations("0") + generations("1") if os.path.exists(g)):
            if time.time() - t_new > 60 or p.poll() is not None:
                fail("the new run's first flush did not start")
            time.sleep(0.05)
        time.sleep(0.5)
        try:
            during = h5_attrs(out + ".partial")  # inside the new run's 4 s pause
        except OSError as exc:  # what the link named was being rewritten
            fail(f"OUT.partial does not open while the new run's first flush is written: {exc}")
    except BaseException:
        for pid in rank_processes(p.pid):  # never leave the long run behind
            try:
                os.kill(int(pid), signal.SIGKILL)
            except OSError:
                pass
        p.kill()
        raise
    rest = kill_one_rank(p)
    print(rest[-1500:])
    print("during the new run's first flush the link named", {k: during.get(k) for k in ("start_time", "iterations")})
    if during.get("start_time") != at.get("start_time") or during["iterations"] != at["iterations"]:
        fail("while the new run's first flush was written, OUT.partial did not name the killed run's file")


def case_flush_between_iterations(r, a, w):
    """A flush happens between two iterations, never inside the measured part of one (issue 26,
    item 6): with every flush held 1 s (DESYNC_TEST_PAUSE_IN_FLUSH), each flush shows as a gap
    of at least that between one row's last event and the next row's first, on every rank, and
    no row's own span (first event to last) comes near it."""
    import h5py
    import numpy as np
    pause = 1.0
    out = os.path.join(w, "flushing.h5")
    env = dict(r.env, DESYNC_TEST_PAUSE_IN_FLUSH=str(pause))
    p = r.run(2, "run", a.deck, "--set", "run.iterations=600", "--set", "run.warmup=2", "--set", "record.flush_seconds=1",
              "--set", "run.progress_interval=0", "-o", out, env=env)
    flushes = [l for l in p.stdout.splitlines() if l.startswith("[record]") and "(flush " in l]
    print("\n".join(flushes))
    if p.returncode != 0:
        fail(f"the run failed ({p.returncode}): {p.stderr[-1500:]}")
    if not flushes:
        fail("no flush happened in a run of several seconds with [record] flush_seconds = 1")
    with h5py.File(out, "r") as f:
        ev = f["timeline/events"][:]
    first, last = np.nanmin(ev, axis=2), np.nanmax(ev, axis=2)  # [P, rows]
    span = last - first
    gaps = first[:, 1:] - last[:, :-1]
    long_gaps = (gaps >= 0.9 * pause).sum(axis=1)
    print(f"{len(flushes)} flush(es); rows: longest span {np.nanmax(span):.3f} s; gaps >= {0.9 * pause} s per rank: "
          f"{long_gaps.tolist()}")
    if np.nanmax(span) >= 0.9 * pause:
        fail("an iteration's measured span holds a flush")
    if (long_gaps < len(flushes)).any():
        fail(f"{len(flushes)} flushes but only {long_gaps.tolist()} gaps of their length between rows")
