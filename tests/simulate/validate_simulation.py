#!/usr/bin/env python3
"""The behaviour `desync simulate` must show (issue 15; docs/method.md, "Validation of the
simulator"), checked on files it writes, with the project's own analysis (tools/desync).

  validate_simulation.py --desync BIN [--platform FILE] [--work DIR] [--pictures DIR]
                         [--report FILE.md] SCENARIO... | all

Scenarios (each runs `desync simulate` on a generated deck, then checks):
  core_wave       core-bound triad, open chain, one delay: both edges at v = sigma d / (T_exec + T_comm)
                  within 5 %, the same speed, no decay
  core_wave_d2    the same with offsets +-1, +-2: twice the speed (d = 2)
  ring_cancel     periodic ring, delay on rank 0: the two waves cancel after half a round
  memory_model    n = 1..8 ranks streaming in one domain: compute time V / min(b1, b_S / n)
  memory_decay    memory-bound, 10 ranks per domain (saturation point 4): the wave decays and a
                  persistent computational wavefront remains, about N_s ranks computing per domain
  memory_at_ns    4 ranks per domain (= N_s): no decay, no wavefront
  noise_grows     10 ranks per domain, small exponential noise: grows into a wavefront
  noise_at_ns     the same at 4 ranks per domain: stays at noise level
  hybrid          one rank of 10 threads per domain, noise and a delay: stays in lock-step
  spmv_pair       [spmv] compare_barrier simulated (issue 27): P_D in the file equals the formula
                  (W_barrier - n b) / W_barrier_free - 1 applied to two separate simulations, with
                  and without a barrier, and b the modelled barrier cost; for both [comm] sync settings
  chebfd_pair     [chebfd] compare_barrier simulated, the same checks, for NON-SPLIT, SPLIT-WAIT and
                  PIPELINE (TOPI, complex, nb = 2)
  messages        [comm] record_messages simulated (issue 28): the timeline identical with and without
                  recording, every send matched to its receive, none completed before its send was posted
  toy_rendezvous  the overlap toy (issue 28; papers.md D.3), 4 ranks all-to-all, blocking sends of
                  32 KiB-1 MiB: with rendezvous messages and progress = "wait" the slowest rank's send
                  phase is about compute part 1 (a send waits for its target's wait); short with
                  progress = "thread", with an eager limit above every message, and with fragments
                  below the limit; the overlap toy's iteration longer than the no-overlap toy's
Exit status 0 when every check holds, 1 when one does not, 2 when a run or the analysis failed.
"""
import argparse
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


def core_wave(r, c, name="core_wave", offsets="[1, -1]", d=1):
    deck = CORE.format(iterations=60, offsets=offsets, boundary="open") + INJECT.format(rank=20, iteration=10, duration=0.25)
    path = r.simulate(name, deck, 40)
    res = idle(path)
    v_model = d / res["iteration_time_s"]  # sigma = 1 for a core-bound code (no contention)
    w = waves_of(res)
    c(name, "edges with a fitted wave", len(w), len(w) == 2, "2")
    for x in w:
        c(name, "%s: v / (sigma d / (T_exec + T_comm))" % x["direction"], "%.4f" % (x["speed_ranks_per_s"] / v_model),
          abs(x["speed_ranks_per_s"] / v_model - 1) <= 0.05, "within 5 %")
        c(name, "%s: idle at the last rank / at the first" % x["direction"], "%.4f" % (x["idle_last_s"] / x["idle_first_s"]),
          x["idle_last_s"] / x["idle_first_s"] >= 0.99, ">= 0.99: no decay")
    if len(w) == 2:
        ratio = w[0]["speed_ranks_per_s"] / w[1]["speed_ranks_per_s"]
        c(name, "up / down speed", "%.4f" % ratio, abs(ratio - 1) <= 0.01, "within 1 %")
    r.picture("timeline", path, name + "_timeline", "--iterations", "5:40", "--no-heatmap")


def core_wave_d2(r, c):
    core_wave(r, c, "core_wave_d2", "[1, -1, 2, -2]", 2)


def ring_cancel(r, c):
    P, k0, delay = 40, 10, 0.25
    deck = CORE.format(iterations=60, offsets="[1, -1]", boundary="periodic") + INJECT.format(rank=0, iteration=k0, duration=delay)
    path = r.simulate("ring_cancel", deck, P)
    wait = phase(path, "post_end", "wait_end")
    excess = wait - np.median(wait, axis=1, keepdims=True)
    # Rank 0's message of iteration k0 is late: its neighbours wait in k0, theirs in k0 + 1, ...
    hit = [sorted(np.flatnonzero(excess[:, k0 + j - 1] > delay / 2).tolist()) for j in range(1, P // 2 + 1)]
    expected = [sorted({j % P, (P - j) % P}) for j in range(1, P // 2 + 1)]
    c("ring_cancel", "idle ranks at iteration k0 + j are {j, P - j}", "%d of %d" % (sum(h == e for h, e in zip(hit, expected)), P // 2),
      hit == expected, "all j = 1..P/2")
    after = float(np.max(excess[:, k0 + P // 2:]))
    c("ring_cancel", "largest idle excess after half a round (ms)", "%.4f" % (after * 1e3), after < 1e-3 * delay,
      "< 0.1 % of the delay: the waves cancelled")
    r.picture("heatmap", path, "ring_cancel_heatmap")


def memory_model(r, c):
    b1, bs, volume = 10e9, 40e9, 24e6
    for n in range(1, 9):
        deck = MEMORY.format(iterations=10, message_bytes=8, offsets="[1]", boundary="open")
        path = r.simulate("memory_n%d" % n, deck, n, ["node.sockets=1", "node.domains=1", "placement.ranks_per_node=%d" % n])
        t = float(np.median(phase(path, "compute_begin", "compute_end")))
        expect = volume / min(b1, bs / n)
        c("memory_model", "n = %d: compute / V min(b1, b_S/n)^-1" % n, "%.6f" % (t / expect), abs(t / expect - 1) < 1e-3,
          "within 0.1 %")


def memory_wave(r, c, name, per_domain, expect_decay):
    P = 4 * per_domain
    # The delay in the middle of the second domain, as in papers.md B.6 (Fig. 6).
    deck = MEMORY.format(iterations=200, message_bytes=16384, offsets="[1, -1]", boundary="open") + INJECT.format(
        rank=per_domain + per_domain // 2, iteration=10, duration=0.25)
    path = r.simulate(name, deck, P, ["placement.ranks_per_node=%d" % (2 * per_domain)])
    res = idle(path)
    fr = fronts(path, [199])
    amp = fr["wavefront"]["steps"][-1]["amplitude_s"]
    t_iter = res["iteration_time_s"]
    c(name, "edges with a fitted wave", len(waves_of(res)), len(waves_of(res)) == 2, "2")
    for x in waves_of(res):
        # The fitted decay of the idle period per rank travelled, relative to the first idle period.
        loss = -x["decay_s_per_rank"] / x["idle_first_s"]
        text = "%s: idle lost per rank (%% of the first), %d ranks" % (x["direction"], x["reached"])
        if expect_decay:
            c(name, text, "%.3f" % (100 * loss), loss > 0.002, "> 0.2 %: decays")
        else:
            c(name, text, "%.5f" % (100 * loss), abs(loss) < 1e-4, "< 0.01 %: no decay")
    if expect_decay:
        c(name, "wavefront amplitude at the last step / iteration", "%.2f" % (amp / t_iter), amp > 2 * t_iter,
          "> 2: a persistent wavefront")
        conc = fr["concurrency"]
        means = sorted(v["mean"] for v in conc.values()) if isinstance(conc, dict) else []
        near = [m for m in means if abs(m - 4) <= 0.5]
        c(name, "domains computing about N_s = 4 ranks (mean)", " ".join("%.2f" % m for m in means), len(near) >= 3,
          ">= 3 of 4 domains within 4 +- 0.5")
        r.picture("timeline", path, name + "_timeline", "--iterations", "0:60", "--no-heatmap")
    else:
        c(name, "wavefront amplitude at the last step / iteration", "%.4f" % (amp / t_iter), amp < 0.05 * t_iter,
          "< 0.05: lock-step")


def memory_decay(r, c):
    memory_wave(r, c, "memory_decay", 10, True)


def memory_at_ns(r, c):
    memory_wave(r, c, "memory_at_ns", 4, False)


def noise_run(r, c, name, per_domain, threads=1, iterations=1000):
    P = 4 * per_domain
    deck = MEMORY.format(iterations=iterations, message_bytes=1 << 20, offsets="[1, -1]",
                         boundary="periodic" if threads > 1 else "open") + NOISE.format(mean=10e-6)
    psets = ["placement.ranks_per_node=%d" % (2 * per_domain)]
    if threads > 1:
        psets.append("placement.threads_per_rank=%d" % threads)
        deck += INJECT.format(rank=1, iteration=100, duration=0.05)
    path = r.simulate(name, deck, P, psets)
    steps = [10, iterations - 1]
    fr = fronts(path, steps)
    amps = {s["iteration"]: s["amplitude_s"] for s in fr["wavefront"]["steps"]}
    t_iter = float(np.median(phase(path, "compute_begin", "wait_end")))
    return path, amps, t_iter


def noise_grows(r, c):
    path, amps, t_iter = noise_run(r, c, "noise_grows", 10)
    c("noise_grows", "amplitude at iteration 10 / 999 (ms)", "%.3f / %.3f" % (amps[10] * 1e3, amps[999] * 1e3),
      amps[999] > 20 * amps[10] and amps[999] > t_iter, "grows > 20x and beyond one iteration")
    r.picture("timeline", path, "noise_grows_timeline", "--iterations", "900:1000")


def noise_at_ns(r, c):
    path, amps, t_iter = noise_run(r, c, "noise_at_ns", 4)
    c("noise_at_ns", "amplitude at iteration 10 / 999 (ms)", "%.3f / %.3f" % (amps[10] * 1e3, amps[999] * 1e3),
      amps[999] < 10 * amps[10] and amps[999] < 0.25 * t_iter, "grows < 10x and stays below a quarter iteration")


SPMV = """[run]
workload = "spmv"
iterations = {iterations}
warmup = 4
progress_interval = 0
[comm]
sync = "{sync}"
[spmv]
scheme = "nonsplit"
compare_barrier = {compare}
[matrix]
generator = "spin"
partition = "nnz"
[matrix.spin]
sites = 14
boundary = "open"
"""


def metrics(path):
    with h5py.File(path, "r") as f:
        return {k: float(f["metrics"][k][()]) for k in f["metrics"] if f["metrics"][k].shape == ()}


def measured_wall(path, iterations=False):
    """The slowest rank's span of the measured iterations (the real run's measured_wall); with
    iterations=True, also how many iterations were measured."""
    ev, _ = events(path)
    wall = float(np.max(np.nanmax(ev[:, -1, :], axis=1) - ev[:, 0, 0]))
    return (wall, ev.shape[1]) if iterations else wall


CHEBFD = """[run]
workload = "chebfd"
warmup = 3
progress_interval = 0
[comm]
sync = "{sync}"
[chebfd]
scheme = "{scheme}"
ns = 4
nb = 2
np = 40
compare_barrier = {compare}
[matrix]
generator = "topi"
partition = "rows"
[matrix.topi]
block = [8, 8, 4]
decomposition = "M4"
node_count = 4
boundary = ["periodic", "periodic", "open"]
"""


def pair_check(r, c, name, deck, ranks):
    """P_D of a paired simulation against the formula on two separate ones (one per barrier setting)."""
    w_free = measured_wall(r.simulate(name + "_free", deck(sync="none", compare="false"), ranks))
    w_bar, n = measured_wall(r.simulate(name + "_bar", deck(sync="barrier", compare="false"), ranks), iterations=True)
    for sync in ("none", "barrier"):
        paired = metrics(r.simulate(name + "_pair_" + sync, deck(sync=sync, compare="true"), ranks))
        b = paired.get("barrier_cost", float("nan"))
        expect = (w_bar - n * b) / w_free - 1.0
        got = paired.get("desync_speedup", float("nan"))
        c(name, "sync %s: P_D in the file vs the formula" % sync, "%.6f vs %.6f" % (got, expect),
          abs(got - expect) <= 1e-6 * max(1.0, abs(expect)), "equal (1e-6)")
        ratio = paired.get("gflops_barrier_free", float("nan")) / paired.get("gflops_barrier", float("nan"))
        c(name, "sync %s: P_barrier_free / P_barrier vs W_bar / W_free" % sync, "%.6f vs %.6f" % (ratio, w_bar / w_free),
          abs(ratio - w_bar / w_free) <= 1e-6 * ratio, "equal (1e-6)")
        c(name, "sync %s: modelled barrier cost" % sync, "%.3g s" % b, b > 0, "> 0")
    # cer_median under the real run's definition: per rank summed comm (pack, post, wait) over
    # summed exec (fused, or local + remote) of the measured iterations; the median over ranks.
    path = r.simulate(name + "_free", deck(sync="none", compare="false"), ranks)
    ev, names = events(path)

    def total(parts):
        out = np.zeros(ev.shape[0])
        for p in parts:
            if p + "_end" in names:
                e = names.index(p + "_end")
                out += np.sum(ev[:, :, e] - ev[:, :, e - 1], axis=1)
        return out
    cer = float(np.median(total(("pack", "post", "wait")) / total(("fused", "local", "remote"))))
    got = metrics(path).get("cer_median", float("nan"))
    c(name, "cer_median in the file vs the timeline's", "%.6f vs %.6f" % (got, cer), abs(got - cer) <= 1e-9 * cer,
      "equal (1e-9)")


def spmv_pair(r, c):
    pair_check(r, c, "spmv_pair", lambda **k: SPMV.format(iterations=80, **k), 12)


def chebfd_pair(r, c):
    for scheme in ("nonsplit", "splitwait", "pipeline"):
        pair_check(r, c, "chebfd_pair_" + scheme, lambda **k: CHEBFD.format(scheme=scheme, **k), 12)


def messages(r, c):
    """/messages in a simulation (issue 28): the same timeline with and without recording, every
    send matched to its receive by the tools' rule, completions after posts, counts per post;
    eager (the platform's limits) and rendezvous (limits of 64 B) messages."""
    from desync.messages import read_messages
    n, warm, ranks = 30, 4, 12
    deck = SPMV.format(iterations=n, sync="none", compare="false").replace("warmup = 4", "warmup = %d" % warm)
    for proto, psets in (("eager", ()), ("rendezvous", ("network.eager_limit_intra=64", "network.eager_limit_inter=64"))):
        name = "messages " + proto
        plain = r.simulate("messages_off_" + proto, deck, ranks, psets)
        logged = r.simulate("messages_on_" + proto, deck.replace("[comm]\n", "[comm]\nrecord_messages = true\n"), ranks, psets)
        with h5py.File(plain, "r") as a, h5py.File(logged, "r") as b:
            same = np.array_equal(a["timeline/events"][...], b["timeline/events"][...], equal_nan=True)
            c(name, "timeline with / without record_messages", "identical" if same else "differs", same, "identical")
            sent = np.asarray(b["summary/messages_sent"][...], np.int64)
            count = np.asarray(b["messages/count"][...], np.int64)
            sends = np.sum(np.asarray(b["messages/send"][...]) == 1, axis=1)
            c(name, "sends recorded per rank vs /summary/messages_sent x iterations",
              "%s vs %s" % (sends.tolist()[:3], (sent * (n + warm)).tolist()[:3]), np.array_equal(sends, sent * (n + warm)),
              "equal on every rank")
            m = read_messages(b)
            c(name, "matched messages vs sends vs receives", "%d / %d / %d" % (len(m), sends.sum(), count.sum() - sends.sum()),
              len(m) == sends.sum() == count.sum() - sends.sum(), "all equal")
            late = int(np.sum(m.t_done < m.t_post))
            c(name, "receives completed before their send was posted", str(late), late == 0, "0")


TOY = """[run]
workload = "toy"
iterations = 20
warmup = 2
progress_interval = 0
[toy]
overlap = {overlap}
degree = 0
min_bytes = 32768
max_bytes = 1048576
compute = 0.04
part1 = 0.5
[comm]
{comm}
"""


def slowest_median(path, begin, end):
    """The slowest rank's (end - begin) per measured iteration, median over iterations (as
    tests/mpi/test_toy.cpp measures the real toy)."""
    return float(np.median(np.max(phase(path, begin, end), axis=0)))


def toy_rendezvous(r, c):
    """The study's known answer (test_toy.cpp's ToyRendezvous on the modelled cluster)."""
    part1, ranks = 0.02, 4
    rndv = ("network.eager_limit_intra=4096", "network.eager_limit_inter=4096")
    eager = ("network.eager_limit_intra=4194304", "network.eager_limit_inter=4194304")
    runs = {
        "rendezvous": (TOY.format(overlap="true", comm=""), rndv),
        "thread": (TOY.format(overlap="true", comm='progress = "thread"'), rndv),
        "eager": (TOY.format(overlap="true", comm=""), eager),
        "fragments": (TOY.format(overlap="true", comm="fragment_bytes = 4000"), rndv),
        "no_overlap": (TOY.format(overlap="false", comm=""), rndv),
    }
    paths = {k: r.simulate("toy_" + k, deck, ranks, psets) for k, (deck, psets) in runs.items()}
    send = {k: slowest_median(p, "begin", "post_end") for k, p in paths.items() if k != "no_overlap"}
    for k, v in send.items():
        print("  toy %-10s slowest send phase %.2f ms" % (k, v * 1e3))
    c("toy_rendezvous", "rendezvous, progress wait: send phase / part 1", "%.2f" % (send["rendezvous"] / part1),
      0.8 <= send["rendezvous"] / part1 <= 1.5, "0.8 .. 1.5: waits for the target's wait")
    for k in ("thread", "eager", "fragments"):
        c("toy_rendezvous", "%s: send phase / part 1" % k, "%.2f" % (send[k] / part1), send[k] < 0.3 * part1, "< 0.3")
    it_overlap = slowest_median(paths["rendezvous"], "begin", "sync_end")
    it_plain = slowest_median(paths["no_overlap"], "begin", "sync_end")
    c("toy_rendezvous", "iteration overlap toy vs no-overlap toy", "%.2f vs %.2f ms" % (it_overlap * 1e3, it_plain * 1e3),
      it_overlap > it_plain, "overlap longer: it pays the stretched sends")


def hybrid(r, c):
    path, amps, t_iter = noise_run(r, c, "hybrid", 1, threads=10, iterations=300)
    c("hybrid", "amplitude at iteration 299 / iteration time", "%.4f" % (amps[299] / t_iter), amps[299] < 0.1 * t_iter,
      "< 0.1: lock-step")


SCENARIOS = {f.__name__: f for f in (core_wave, core_wave_d2, ring_cancel, memory_model, memory_decay, memory_at_ns,
                                     noise_grows, noise_at_ns, hybrid, spmv_pair, chebfd_pair, messages, toy_rendezvous)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("scenarios", nargs="+", help="scenario names or 'all': " + ", ".join(SCENARIOS))
    ap.add_argument("--desync", required=True, help="the desync binary")
    ap.add_argument("--platform", default=os.path.join(HERE, "cluster.toml"))
    ap.add_argument("--work", default="simulate_validation", help="directory for decks and files")
    ap.add_argument("--pictures", help="directory for PNG pictures (default: none)")
    ap.add_argument("--report", help="write the checks as a Markdown table")
    args = ap.parse_args()
    names = list(SCENARIOS) if args.scenarios == ["all"] else args.scenarios
    unknown = [n for n in names if n not in SCENARIOS]
    if unknown:
        ap.error("unknown scenario(s) %s; known: %s" % (", ".join(unknown), ", ".join(SCENARIOS)))
    r, c = Runner(args), Checks()
    try:
        for n in names:
            print(n)
            SCENARIOS[n](r, c)
    except (RuntimeError, KeyError, ValueError) as exc:
        print("validate_simulation: %s" % exc)
        return 2
    if args.report:
        with open(args.report, "w") as fh:
            fh.write("| scenario | quantity | value | expected | |\n|---|---|---|---|---|\n")
            for s, what, value, ok, expect in c.rows:
                fh.write("| %s | %s | %s | %s | %s |\n" % (s, what, value, expect, "ok" if ok else "**miss**"))
    misses = [row for row in c.rows if not row[3]]
    print("%d checks, %d missed" % (len(c.rows), len(misses)))
    return 1 if misses else 0


if __name__ == "__main__":
    sys.exit(main())
