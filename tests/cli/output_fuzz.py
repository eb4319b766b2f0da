#!/usr/bin/env python3
"""Output-file fuzzer of the tools (issue 26): real desync output files, mutated, through every
`desync-view` subcommand, tools/check_output_layout.py, `desync-campaign collect` and the
readers of `desync-calibrate`.

    output_fuzz.py --desync BIN --mpiexec MPIEXEC [--preflags "a;b"] --workdir DIR
                   [--seed S] [--mutants N] [--jobs J] [--timeout T] [--only I] [--keep]
                   [--seeds-from OLD_WORKDIR] [--errors] [-v]

Seeds, written by real runs into DIR/seeds at the start (about 10 s): a triad run with
[comm] record_messages (/messages), an SpMV run, a matvec2d run (/collectives), a saturation
sweep (/saturation), a pingpong run (/pingpong), the overlap toy and its run without overlap
(the overlap subcommand's --pure pair), and `desync plan --format json` (plan-plot's input).

The commands, each in-process with argv (the same code as the installed commands): every
desync-view subcommand (cli.main; compare and overlap --pure get the seed's pair as the other
file), check_output_layout.py (its run()), `desync-campaign collect` of a one-point campaign whose
result file is the input (campaign_cli.main), and calibrate's three readers of its runs' files
(read_saturation, read_pingpong, read_divide, handled as calibrate_cli.main handles them).

Fixed cases first: an empty file, a directory, a text file, another program's HDF5 file
(datasets, no 'format' attribute), a truncated copy named NAME.h5.tmp (a run killed while
writing), and a desync file without /timeline/events: every command must refuse each with exit
status 2 and one line (collect: exit 0, the point "unreadable"; without /timeline/events summary,
compare and calibrate's divide reader succeed and check_output_layout.py lists the problem, exit
1). Then each seed as it is, and triad and SpMV marked as a flush of a running run (complete = 0,
flushed = 1: a "note:" line): summary, timeline, compare, heatmap, trace and
check_output_layout.py must succeed, the others may refuse a file they have nothing to say about
(exit 2, one line).

Then N mutants (output_mutations.py: truncate, drop a dataset or group, replace one by the other,
an attribute of another type, a dataset of another dtype or shape, a root attribute deleted),
each through every command. A command fails the test when it
  - raises out of main (a traceback) or prints "Traceback",
  - runs past --timeout seconds,
  - exits with anything but 0 or 2 (check_output_layout.py also 1: layout problems listed;
    calibrate's saturation reader also 1: a sweep without bandwidths, a failed measurement),
  - exits with 2 and its stderr, without lines starting with "note:" or "warning:", is not
    exactly one line, or that line names none of its input files, or
  - fails (exit status not 0) and leaves an output file behind.
Mutant I depends only on the seed (--seed) and I, so `--only I` reproduces it. The seed is
printed; the default is fixed, so ctest runs are repeatable.

Exit status: 0 when every case passed, 1 otherwise, 2 on bad usage.
"""
import argparse
import multiprocessing
import os
import random
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
TOOLS = os.path.join(ROOT, "tools")
INPUTS = os.path.join(ROOT, "inputs")
sys.path.insert(0, TOOLS)
sys.path.insert(0, HERE)

from output_fuzz_commands import Tools, commands, run_case  # noqa: E402

DEFAULT_SEED = 20261127
#: ppam draws its panels (-o, the slowest command) for every PANELS_EVERY-th mutant only
PANELS_EVERY = 20

TOY = ["--set", "run.iterations=10", "--set", "toy.compute=0.002", "--set", "toy.degree=1"]
#: (name, ranks, deck relative to inputs/, extra `desync run` arguments)
SEED_RUNS = (
    ("triad", 2, "quickstart.toml", ["--set", "run.iterations=30", "--set", "comm.record_messages=true"]),
    ("spmv", 2, "spmv/hhq_small_pe.toml", ["--set", "run.iterations=20"]),
    ("matvec2d", 4, "matvec2d/small.toml", ["--set", "run.iterations=10", "--set", "comm.record_messages=true"]),
    ("saturation", 1, "saturation/small.toml", ["--set", "saturation.size=300000", "--set", "run.stream_size=300000"]),
    ("pingpong", 2, "pingpong/pingpong.toml", ["--set", "run.iterations=20", "--set", "pingpong.sizes=[8,4096,65536]"]),
    ("toy", 2, "toy/overlap_rendezvous.toml", TOY),
    ("toy_pure", 2, "toy/overlap_rendezvous.toml", TOY + ["--set", "toy.overlap=false"]),
)
#: what must succeed on every intact seed file
MUST_PASS = ("summary", "timeline", "compare", "heatmap", "trace", "check_output_layout")
#: the paired file of a seed (compare BASE, overlap --pure): itself, but the toy's run without overlap
PAIR = {"toy": "toy_pure", "toy_pure": "toy"}


# --------------------------------------------------------------------------------------- seeds


def make_seeds(a, seeds_dir):
    """Run desync for every seed; the paths. --seeds-from DIR: take the files an earlier run of
    this fuzzer left in DIR/seeds instead (when they are all there)."""
    os.makedirs(seeds_dir, exist_ok=True)
    if a.seeds_from:
        old = os.path.join(os.path.abspath(a.seeds_from), "seeds")
        names = [n + ".h5" for n, _, _, _ in SEED_RUNS] + ["plan.json"]
        if all(os.path.isfile(os.path.join(old, n)) for n in names):
            for n in names:
                shutil.copyfile(os.path.join(old, n), os.path.join(seeds_dir, n))
            print("seeds: copied from %s" % old)
            return {os.path.splitext(n)[0]: os.path.join(seeds_dir, n) for n in names}
    env = dict(os.environ, OMP_NUM_THREADS="1", OMP_PROC_BIND="false")
    pre = [p for p in a.preflags.split(";") if p]
    paths = {}
    for name, np_, deck, extra in SEED_RUNS:
        out = os.path.join(seeds_dir, name + ".h5")
        cmd = [a.mpiexec, "-n", str(np_)] + pre + [a.desync, "run", os.path.join(INPUTS, deck)] + extra \
            + ["-o", out, "--force"]
        t0 = time.monotonic()
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True,
                           env=env, timeout=300)
        if p.returncode != 0 or not os.path.exists(out):
            sys.exit("output_fuzz: the seed run %s failed (exit %d):\n%s\n%s"
                     % (name, p.returncode, " ".join(cmd), p.stdout[-3000:]))
        print("seed %-10s %6d bytes, %.1f s: %s" % (name, os.path.getsize(out), time.monotonic() - t0,
                                                     " ".join(cmd[len(pre) + 3:])))
        paths[name] = out
    plan = os.path.join(seeds_dir, "plan.json")
    cmd = [a.desync, "plan", os.path.join(INPUTS, "matrices", "spin_small.toml"), "--ranks", "4", "--format", "json"]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True, env=env,
                       timeout=300)
    if p.returncode != 0:
        sys.exit("output_fuzz: %s failed (exit %d): %s" % (" ".join(cmd), p.returncode, p.stderr[-2000:]))
    with open(plan, "w") as fh:
        fh.write(p.stdout)
    paths["plan"] = plan
    return paths


#: the fixed case without /timeline/events: what the commands that do not read it exit with
NO_EVENTS_EXPECTED = {"summary": 0, "compare": 0, "check_output_layout": 1, "calibrate-divide": 0}


def fixed_inputs(work, seeds):
    """The fixed bad inputs: {label: path}."""
    import h5py
    import numpy as np
    d = os.path.join(work, "fixed")
    os.makedirs(d, exist_ok=True)
    out = {}
    out["empty file"] = os.path.join(d, "empty.h5")
    open(out["empty file"], "w").close()
    out["directory"] = os.path.join(d, "directory.h5")
    os.makedirs(out["directory"], exist_ok=True)
    out["text file"] = os.path.join(d, "text.h5")
    with open(out["text file"], "w") as fh:
        fh.write("not a desync file\n")
    out["another program's HDF5"] = os.path.join(d, "other.h5")
    with h5py.File(out["another program's HDF5"], "w") as f:
        f.create_dataset("timeline/events", data=np.zeros((2, 3, 4)))
        f.create_dataset("temperature", data=np.arange(10.0))
        f.attrs["creator"] = np.bytes_("someone else")
    out["killed run's .tmp"] = os.path.join(d, "run.h5.tmp")
    with open(seeds["triad"], "rb") as src, open(out["killed run's .tmp"], "wb") as dst:
        dst.write(src.read(os.path.getsize(seeds["triad"]) * 2 // 3))
    out["no /timeline/events"] = os.path.join(d, "no_events.h5")
    shutil.copyfile(seeds["triad"], out["no /timeline/events"])
    with h5py.File(out["no /timeline/events"], "r+") as f:
        del f["timeline/events"]
    return out


def partial_copy(work, seed):
    """A copy of seed marked as a flush of a running run (OUT.partial): complete = 0, flushed = 1."""
    import h5py
    import numpy as np
    out = os.path.join(work, "fixed", os.path.basename(seed) + ".partial.0")
    shutil.copyfile(seed, out)
    with h5py.File(out, "r+") as f:
        f.attrs["complete"] = np.int32(0)
        f.attrs["flushed"] = np.int32(1)
    return out


# --------------------------------------------------------------------------------------- mutants


def mutant_rng(seed, i):
    return random.Random("%d/%d" % (seed, i))


def build_mutant(seed, i, seeds, mutants_dir):
    """(path, description, pair) of mutant i."""
    from output_mutations import make_h5_mutant, make_json_mutant
    rng = mutant_rng(seed, i)
    names = sorted(seeds)
    name = rng.choice(names + ["triad", "spmv", "matvec2d"])  # the richer files a little more often
    base = os.path.join(mutants_dir, "m%04d_%s" % (i, name))
    if name == "plan":
        path, desc = make_json_mutant(rng, seeds[name], base)
    else:
        path, desc = make_h5_mutant(rng, seeds[name], base)
    return path, desc, seeds[PAIR.get(name, name)] if name != "plan" else seeds["triad"]


def worker(k, jobs, a, seeds, work, queue):
    """Mutants k, k + jobs, ...: report ("start", i, desc) before and ("done", i, failures, codes, s) after each."""
    tools = Tools()
    scratch = os.path.join(work, "scratch%d" % k)
    mutants_dir = os.path.join(work, "mutants")
    for i in selected_mutants(a):
        if i % jobs != k:
            continue
        path, desc, pair = build_mutant(a.seed, i, seeds, mutants_dir)
        queue.put(("start", i, desc))
        secs_of, errors = {}, [] if a.errors else None
        failures, codes, secs = run_case(tools, "mutant %d (%s)" % (i, desc), path, pair, scratch, a.timeout,
                                         panels=(i % PANELS_EVERY == 0), secs_of=secs_of, errors=errors)
        if not failures and not a.keep:
            os.remove(path)
        queue.put(("done", i, failures, codes, secs, secs_of, errors or []))
    queue.put(("exit", k))


def selected_mutants(a):
    """The mutant indices this run makes: --only's, else 0..mutants-1."""
    return [int(x) for x in a.only] if a.only else list(range(a.mutants))


# --------------------------------------------------------------------------------------- main


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--desync", required=True, help="the desync binary")
    ap.add_argument("--mpiexec", default="mpiexec", help="the MPI launcher (default mpiexec)")
    ap.add_argument("--preflags", default="", help="launcher flags, ';'-separated (MPIEXEC_PREFLAGS)")
    ap.add_argument("--workdir", required=True, help="seeds, mutants and scratch outputs go here (made afresh)")
    ap.add_argument("--seed", type=int, default=DEFAULT_SEED, help="random seed (default %d)" % DEFAULT_SEED)
    ap.add_argument("--mutants", type=int, default=300, help="number of mutants (default 300)")
    ap.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    ap.add_argument("--timeout", type=float, default=20.0, help="seconds per command (default 20)")
    ap.add_argument("--only", action="append", metavar="I", help="run only mutant I (repeatable; no fixed cases)")
    ap.add_argument("--seeds-from", metavar="DIR", help="reuse the seed files of an earlier --workdir DIR")
    ap.add_argument("--keep", action="store_true", help="keep every mutant (default: only those that failed)")
    ap.add_argument("--errors", action="store_true", help="print the error line of every command that exits 2")
    ap.add_argument("-v", "--verbose", action="store_true", help="print every mutant and its exit statuses")
    a = ap.parse_args()
    if not os.access(a.desync, os.X_OK):
        ap.error("--desync %s: not an executable" % a.desync)
    if a.mutants < 0 or a.jobs < 1 or a.timeout <= 0:
        ap.error("--mutants >= 0, --jobs >= 1 and --timeout > 0, please")

    t_start = time.monotonic()
    work = os.path.abspath(a.workdir)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(os.path.join(work, "mutants"))
    print("output_fuzz: seed %d (--seed %d reproduces this run), %d mutants, %d job(s), timeout %g s per command"
          % (a.seed, a.seed, len(selected_mutants(a)), a.jobs, a.timeout))
    seeds = make_seeds(a, os.path.join(work, "seeds"))
    failures = []

    if not a.only:
        tools = Tools()
        scratch = os.path.join(work, "scratch_fixed")
        for label, path in fixed_inputs(work, seeds).items():
            expect = {name: 2 for name, _ in commands(path, path, "", "")}
            expect["campaign-collect"] = 0  # the point's row says "unreadable"
            if label == "no /timeline/events":
                expect.update(NO_EVENTS_EXPECTED)
            f, codes, secs = run_case(tools, "fixed: " + label, path, seeds["triad"], scratch, a.timeout,
                                      panels=True, expect=expect)
            failures += f
            print("fixed %-24s %s (%.1f s)" % (label, "ok" if not f else "FAILED", secs))
        intact = {n: p for n, p in seeds.items() if n != "plan"}
        intact.update({n + " (partial)": partial_copy(work, p) for n, p in seeds.items() if n in ("triad", "spmv")})
        for label, path in intact.items():
            if label.endswith("(partial)"):  # read as what ran, with a note
                code, _, err, _ = tools.call("summary", ["summary", path], a.timeout)
                if code != 0 or "note: %s is incomplete" % path not in err:
                    failures.append("intact: %s: summary: exit %s without the note of an incomplete file: %s"
                                    % (label, code, err.strip()[-300:]))
            pair = seeds[PAIR.get(label, label)] if label in seeds else path
            f, codes, secs = run_case(tools, "intact: " + label, path, pair, scratch, a.timeout, panels=True,
                                      expect={n: 0 for n in MUST_PASS})
            failures += f
            print("intact %-23s %s (%.1f s): %s" % (label, "ok" if not f else "FAILED", secs,
                                                   " ".join("%s=%s" % kv for kv in codes.items())))
        del tools

    t_mut = time.monotonic()
    queue = multiprocessing.get_context("spawn").Queue()
    jobs = max(1, min(a.jobs, len(selected_mutants(a)) or 1))
    procs = [multiprocessing.get_context("spawn").Process(target=worker, args=(k, jobs, a, seeds, work, queue))
             for k in range(jobs)]
    for p in procs:
        p.start()
    running, started, done, stats, seconds = set(range(jobs)), {}, 0, {}, {}
    # a worker silent this long is stuck where the per-command alarm cannot reach (C code): one
    # mutant takes a few seconds, a command at most --timeout
    deadline = max(120.0, 3 * a.timeout)
    last = time.monotonic()
    while running:
        try:
            msg = queue.get(timeout=5)
        except Exception:  # noqa: BLE001 -- queue.Empty: look at the workers
            dead = [k for k in running if not procs[k].is_alive()]
            stuck = time.monotonic() - last > deadline
            if dead or stuck:
                for k in running:
                    procs[k].kill()
                failures.append("a worker %s; mutants started and not done: %s"
                                % ("died (exit %s)" % procs[dead[0]].exitcode if dead else "hung",
                                   "; ".join("%d (%s)" % kv for kv in sorted(started.items()))))
                break
            continue
        last = time.monotonic()
        if msg[0] == "start":
            started[msg[1]] = msg[2]
        elif msg[0] == "done":
            _, i, f, codes, secs, secs_of, errors = msg
            desc = started.pop(i)
            done += 1
            failures += f
            for name, t in secs_of.items():
                seconds[name] = seconds.get(name, 0.0) + t
            for line in errors:
                print("error line: " + line)
            for c in codes.values():
                stats[c] = stats.get(c, 0) + 1
            if a.verbose or f:
                print("mutant %4d %-70s %s (%.1f s)%s" % (i, desc[:70], "ok" if not f else "FAILED", secs,
                                                         "" if not a.verbose else "  " + " ".join(
                                                             "%s=%s" % kv for kv in codes.items())))
        else:
            running.discard(msg[1])
    for p in procs:
        p.join(timeout=10)

    print("output_fuzz: %d mutants in %.0f s (%d commands: %s); total %.0f s"
          % (done, time.monotonic() - t_mut, sum(stats.values()),
             ", ".join("exit %s: %d" % (k, v) for k, v in sorted(stats.items(), key=str)),
             time.monotonic() - t_start))
    print("seconds per command, all mutants: " + ", ".join(
        "%s %.1f" % kv for kv in sorted(seconds.items(), key=lambda kv: -kv[1])))
    if failures:
        print("FAILED: %d problem(s); rerun one with --seed %d --only I --keep -v:" % (len(failures), a.seed))
        for f in failures:
            print("  " + f)
        return 1
    if done < len(selected_mutants(a)):
        print("FAILED: only %d of %d mutants ran" % (done, len(selected_mutants(a))))
        return 1
    print("output_fuzz: passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
