#!/usr/bin/env python3
"""desync across two emulated nodes (issue 30; ci/two_nodes.sh makes them, docs/install.md).

  check_two_nodes.py --build BUILD --launcher "ci/two_nodes.sh mpirun" [--only NAME ...] [--list]

Each check runs desync with the launcher (Open MPI's mpirun on node0, both nodes in its hostfile,
TCP between them, shared memory within each) and reads the result file:

  topology     2 nodes x 2 ranks: /topology names node0, node0, node1, node1 (host names, node
               index, ranks per node), /provenance/hwloc_xml holds one topology (the nodes differ
               only in host name) and the triad verifies
  placement    collbench with [placement] active_ppn = 1 and nodes detected (ranks_per_node = 0):
               /placement shows two nodes, one rank of each parked, and it verifies
  eager        every message over TCP (the inter-node transport): the eager limit that MPI_T
               reports (/provenance/mpi_eager, a run with one rank per node) is the one the
               launcher set (4 KiB, 4 MiB), and tests/mpi/test_toy.cpp's ToyRendezvous on 2 x 2
               ranks shows the protocol: blocking sends wait for the target's compute under 4 KiB
               (rendezvous) and return at once under 4 MiB (eager)
  workloads    triad, spmv, stencil, chebfd, cg on 2 x 2 and symmsquarecube on 2 x 4 verify,
               with the default [comm] and with fragments of 4000 bytes over 2 duplicated
               communicators (symmsquarecube: N_DUP 2; it has no messages to fragment)
  simulate     a platform file of these two nodes (tools/calibrate_platform.py on node0, --quick,
               the inter-node latency and bandwidth from a ping-pong across the link) and
               `desync simulate` of a core-bound chain with a delay on rank 0 against the real
               4-rank run: the same idle-wave arrivals (distance, iteration). The real 4 ranks
               share this machine's 2 cores, so each simulated node has one core, oversubscribed.
  stop         SIGUSR1 to mpirun (docs/decks.md, "Stopping a run early") stops the ranks of both
               nodes after the same iteration; the file is kept, complete = 0, exit code 5

All checks run (one failure does not hide another); each prints PASS or FAIL with what it saw.
Exit 0 when all pass, 1 otherwise. --expect-fail NAME inverts one check (the leg's own control:
a deliberately broken node detection must fail `topology`).
"""
import argparse
import os
import shlex
import signal
import subprocess
import sys
import tempfile
import time

import h5py
import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DECKS = os.path.join(ROOT, "inputs")
sys.path.insert(0, os.path.join(ROOT, "tools"))
sys.path.insert(0, os.path.join(ROOT, "tests", "simulate"))


class Runner:
    def __init__(self, build, launcher, work, extra_env):
        self.build = build
        self.desync = os.path.join(build, "miniapp", "desync")
        self.launcher = shlex.split(launcher)
        if os.path.exists(self.launcher[0]):  # the runs start in a scratch folder
            self.launcher[0] = os.path.abspath(self.launcher[0])
        self.work = work
        self.env = dict(os.environ, OMP_NUM_THREADS="1", OMP_PROC_BIND="false", **extra_env)

    def command(self, ranks, args, mpi=()):
        # -x: these variables reach the ranks on node1 too (the agent starts a fresh shell there)
        xs = sum((["-x", k] for k in ("OMP_NUM_THREADS", "OMP_PROC_BIND", "LD_PRELOAD") if k in self.env), [])
        # ranks split evenly over the two nodes, consecutive ranks on a node ("natural" placement),
        # unless the check maps them itself
        place = [] if "--map-by" in mpi else ["--map-by", "ppr:%d:node" % max(1, ranks // 2)]
        return self.launcher + ["-n", str(ranks)] + place + xs + list(mpi) + [self.desync] + list(args)

    def run(self, name, ranks, deck, sets=(), mpi=(), timeout=300):
        out = os.path.join(self.work, name + ".h5")
        args = ["run", deck, "-o", out, "--force"] + sum((["--set", s] for s in sets), [])
        p = subprocess.run(self.command(ranks, args, mpi), capture_output=True, text=True, timeout=timeout,
                           cwd=self.work, env=self.env)
        return p, out


def text(v):
    return v.decode() if isinstance(v, bytes) else str(v)


def verdict(path):
    """The file's /verification verdict ("passed", "failed: ...", "not done: ...")."""
    with h5py.File(path, "r") as f:
        return text(f.attrs["verification"])


def failed_run(p):
    lines = (p.stdout + p.stderr).strip().splitlines()
    errors = [l for l in lines if "error" in l.lower()] or lines[-4:]
    return "exit %d: %s" % (p.returncode, " | ".join(errors[:3]))


def check_topology(r):
    p, out = r.run("topology", 4, os.path.join(DECKS, "quickstart.toml"), ["run.iterations=40"])
    if p.returncode != 0:
        return False, failed_run(p)
    with h5py.File(out, "r") as f:
        t = f["topology"]
        hosts = [text(h) for h in t["hostname"][...]]
        index = t["node_index"][...].tolist()
        per_node = t["ranks_on_node"][...].tolist()
        # The two nodes are one machine under two host names: one topology, both nodes' index 0.
        xml_index = t["hwloc_xml_index"][...].tolist()
        xmls = len(f["provenance/hwloc_xml"])
    ok = hosts == ["node0", "node0", "node1", "node1"] and index == [0, 0, 1, 1] and per_node == [2, 2, 2, 2] \
        and xmls == 1 and xml_index == [0, 0, 0, 0]
    v = verdict(out)
    return ok and v == "passed", "hostname %s, node_index %s, ranks_on_node %s, %d hwloc topolog%s (index %s); " \
        "verification %s" % (hosts, index, per_node, xmls, "y" if xmls == 1 else "ies", xml_index, v)


def check_placement(r):
    p, out = r.run("placement", 4, os.path.join(DECKS, "collbench", "small.toml"),
                   ["placement.ranks_per_node=0", "placement.active_ppn=1", "run.iterations=6"])
    if p.returncode != 0:
        return False, failed_run(p)
    with h5py.File(out, "r") as f:
        node = f["placement"]["node"][...].tolist()
        active = f["placement"]["active"][...].tolist()
        hosts = [text(h) for h in f["topology"]["hostname"][...]]
    v = verdict(out)
    ok = len(set(node)) == 2 and active == [1, 0, 1, 0] and [hosts[i] for i in (0, 2)] == ["node0", "node1"]
    return ok and v == "passed", "placement node %s, active %s (hosts %s); verification %s" % (node, active, hosts, v)


def check_eager(r):
    toy = os.path.join(DECKS, "toy", "overlap_rendezvous.toml")
    test_toy = os.path.join(r.build, "tests", "test_toy")
    seen, ok = [], True
    for limit in (4096, 4194304):
        r.env["OMPI_MCA_btl_tcp_eager_limit"] = str(limit)
        r.env["DESYNC_NODES_BTL"] = "tcp,self"  # every message over TCP, the inter-node transport
        xs = ["-x", "OMPI_MCA_btl_tcp_eager_limit"]
        try:
            # What MPI_T reports, in the file of a run across the link (one rank per node).
            p, out = r.run("eager_%d" % limit, 2, toy, ["run.iterations=10", "toy.degree=1"],
                           mpi=["--map-by", "ppr:1:node"] + xs)
            # The protocol's behaviour: tests/mpi/test_toy.cpp ToyRendezvous (all-to-all of 32 KiB
            # .. 1 MiB, 40 ms of compute: under 4 KiB a blocking send waits for its target's compute
            # part 1, under 4 MiB it returns at once), here on 2 x 2 ranks over the link.
            q = subprocess.run(r.launcher + ["-n", "4", "--map-by", "ppr:2:node"] + xs +
                               ["-x", "OMP_NUM_THREADS", "-x", "OMPI_MCA_btl", test_toy, "--gtest_filter=ToyRendezvous.*"],
                               capture_output=True, text=True, timeout=300, cwd=r.work,
                               env=dict(r.env, OMPI_MCA_btl="tcp,self"))
        finally:
            del r.env["OMPI_MCA_btl_tcp_eager_limit"], r.env["DESYNC_NODES_BTL"]
        if p.returncode != 0:
            return False, failed_run(p)
        with h5py.File(out, "r") as f:
            eager = text(f["provenance"]["mpi_eager"][()])
            hosts = [text(h) for h in f["topology"]["hostname"][...]]
        reported = "btl_tcp_eager_limit = %d" % limit in eager
        said = [l.strip() for l in q.stdout.splitlines() if "send phase" in l]
        behaves = q.returncode == 0 and "SKIPPED" not in q.stdout + q.stderr and bool(said)
        ok &= reported and behaves and hosts == ["node0", "node1"]
        seen.append("limit %d B: MPI_T reports it: %s (hosts %s); ToyRendezvous on 2 x 2: %s (%s)"
                    % (limit, "yes" if reported else "NO", hosts, "passed" if behaves else "FAILED (exit %d)" % q.returncode,
                       said[0] if said else " | ".join((q.stdout + q.stderr).strip().splitlines()[-3:])))
    return ok, "; ".join(seen)


# (workload, deck, ranks, overrides, the second [comm]): symmsquarecube's "optimized" runs on a
# cube of ranks and has no point-to-point messages to fragment (its N_DUP parts the collectives).
FRAGMENTS_NDUP = ("fragments of 4000 B + N_DUP 2", ["comm.fragment_bytes=4000", "comm.communicators=2"])
WORKLOADS = [
    ("triad", "quickstart.toml", 4, ["run.iterations=30"], FRAGMENTS_NDUP),
    ("spmv", "spmv/spin_nonsplit_barrier.toml", 4, ["run.iterations=10"], FRAGMENTS_NDUP),
    ("stencil", "stencil/base_512.toml", 4, ["run.iterations=10"], FRAGMENTS_NDUP),
    ("chebfd", "chebfd/spin_small.toml", 4, [], FRAGMENTS_NDUP),
    ("cg", "cg/minife_small.toml", 4, ["run.iterations=20"], FRAGMENTS_NDUP),
    ("symmsquarecube", "symmsquarecube/small.toml", 8, ["run.iterations=3"], ("N_DUP 2", ["comm.communicators=2"])),
]


def check_workloads(r):
    ok, seen = True, []
    for name, deck, ranks, sets, second in WORKLOADS:
        for label, comm in (("default [comm]", []), second):
            p, out = r.run("%s_%d" % (name, len(comm)), ranks, os.path.join(DECKS, deck), sets + comm)
            v = verdict(out) if p.returncode == 0 and os.path.exists(out) else failed_run(p)
            ok &= v == "passed"
            seen.append("%s on %d ranks (%s): %s" % (name, ranks, label, v))
    return ok, "; ".join(seen)


def check_simulate(r):
    from compare_real import DECKS as CHAIN, arrivals  # the single-node comparison's deck and reader
    from desync.calibrate_measure import measure_network
    from desync.calibrate_runner import Runner as CalRunner
    xs = ["-x", "OMP_NUM_THREADS", "-x", "OMP_PLACES", "-x", "OMP_PROC_BIND", "-x", "OMP_WAIT_POLICY"]
    cal_dir = os.path.join(r.work, "calibrate")
    os.makedirs(cal_dir, exist_ok=True)
    # One rank per node: the ping-pong crosses the link. Each simulated node gets one core (below),
    # so the memory table is b(1) alone.
    across = CalRunner(r.desync, r.launcher + ["--map-by", "ppr:1:node"] + xs, "none", cal_dir)
    net = measure_network(across, True, 1)
    platform = os.path.join(r.work, "two_nodes.toml")
    cal = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "calibrate_platform.py"), "--desync", r.desync,
                          "--mpiexec", " ".join(shlex.quote(a) for a in r.launcher + xs), "--bind", "none", "--quick",
                          "--max-n", "1", "--name", "two_nodes", "-o", platform, "--inter-from", "args",
                          "--inter-latency", repr(net["latency"]), "--inter-bandwidth", repr(net["bandwidth"])],
                         capture_output=True, text=True, cwd=r.work, env=r.env)
    if cal.returncode != 0:
        return False, "calibration failed: " + " | ".join((cal.stdout + cal.stderr).strip().splitlines()[-3:])
    deck = os.path.join(r.work, "chain.toml")
    with open(deck, "w") as fh:
        fh.write(CHAIN["core"])
    p, real = r.run("chain_real", 4, deck)
    if p.returncode != 0:
        return False, failed_run(p)
    sim = os.path.join(r.work, "chain_sim.h5")
    q = subprocess.run([r.desync, "simulate", deck, "--platform", platform, "--ranks", "4", "-o", sim, "-f",
                        "--pset", "node.count=2", "--pset", "node.domains=1", "--pset", "node.cores_per_domain=1",
                        "--pset", "placement.ranks_per_node=2", "--pset", "placement.oversubscribe=true"],
                       capture_output=True, text=True, cwd=r.work, env=r.env)
    if q.returncode != 0:
        return False, "simulate: " + failed_run(q)
    a_real, a_sim = arrivals(real), arrivals(sim)
    ok = a_real == a_sim and any(a_real.values())
    return ok, ("inter-node fit L = %.1f us, B = %.2f GB/s; idle-wave arrivals (distance, iteration) real %s, "
                "simulated %s: %s" % (net["latency"] * 1e6, net["bandwidth"] / 1e9, a_real, a_sim,
                                      "same" if ok else "DIFFER"))


def check_stop(r):
    out = os.path.join(r.work, "stop.h5")
    cmd = r.command(4, ["run", os.path.join(DECKS, "quickstart.toml"), "-o", out, "--force",
                        "--set", "run.iterations=1000000", "--set", "run.progress_interval=0.2"])
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=r.work, env=r.env)
    # Signal once the measured loop is under way on both nodes: rank 0's progress lines say so.
    seen = ""
    while True:
        line = p.stdout.readline()
        seen += line
        if not line:
            p.wait()
            return False, "the run ended (exit %d) before it reported progress: %s" % (
                p.returncode, " | ".join(seen.strip().splitlines()[-4:]))
        if "iteration " in line and int(line.split("iteration ")[1].split("/")[0]) > 20:
            break
    p.send_signal(signal.SIGUSR1)
    try:
        log, _ = p.communicate(timeout=60)
        log = seen + log
    except subprocess.TimeoutExpired:
        p.kill()
        return False, "still running 60 s after SIGUSR1"
    if not os.path.exists(out):
        return False, "no file after SIGUSR1 (exit %d): %s" % (p.returncode, " | ".join(log.strip().splitlines()[-4:]))
    with h5py.File(out, "r") as f:
        complete, sig = int(f.attrs["complete"]), text(f.attrs["stop_signal"])
        ev = f["timeline"]["events"]
        last = ev[:, -1, :]
        rows = ev.shape[1]
        hosts = sorted(set(text(h) for h in f["topology"]["hostname"][...]))
    # every rank, of both nodes, completed the last kept iteration: the same events as rank 0 (which
    # ones exist depends on [comm] sync and delays), the iteration's first event among them
    done = np.isfinite(last)
    same = bool(done[0, 0] and np.all(done == done[0]))
    ok = p.returncode == 5 and complete == 0 and sig == "SIGUSR1" and same and 0 < rows < 1000000 and hosts == ["node0", "node1"]
    return ok, ("exit %d, complete %d, stop_signal %s, %d iterations kept, last one done on every rank: %s, hosts %s"
                % (p.returncode, complete, sig, rows, same, hosts))


CHECKS = {"topology": check_topology, "placement": check_placement, "eager": check_eager,
          "workloads": check_workloads, "simulate": check_simulate, "stop": check_stop}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", required=True)
    ap.add_argument("--launcher", required=True, help="command that starts mpirun on the two nodes")
    ap.add_argument("--only", nargs="*", choices=sorted(CHECKS), help="run these checks only")
    ap.add_argument("--expect-fail", choices=sorted(CHECKS), help="this check must fail (a control)")
    ap.add_argument("--preload", help="LD_PRELOAD for the ranks (the control's broken node detection)")
    a = ap.parse_args()
    env = {"LD_PRELOAD": a.preload} if a.preload else {}
    status = 0
    with tempfile.TemporaryDirectory(prefix="desync-two-nodes-") as work:
        r = Runner(os.path.abspath(a.build), a.launcher, work, env)
        for name in a.only or list(CHECKS):
            t0 = time.time()
            try:
                ok, what = CHECKS[name](r)
            except Exception as e:  # a check that crashes fails, the others still run
                ok, what = False, "%s: %s" % (type(e).__name__, e)
            want = name != a.expect_fail
            good = ok == want
            status |= 0 if good else 1
            print("%s %-10s %5.1f s  %s%s" % ("PASS" if good else "FAIL", name, time.time() - t0,
                                             "" if want else "(expected to fail, and %s) " % ("did" if not ok else "did NOT"),
                                             what), flush=True)
    return status


if __name__ == "__main__":
    sys.exit(main())
