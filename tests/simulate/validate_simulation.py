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
  sync_every      [comm] sync = "barrier", sync_every = 5 and [noise] ranks = [1], iterations = [3, 9)
                  simulated: sync_end on every rank after deck iterations -1, 4, 9, ... only, and
                  delays on rank 1 in iterations 3..8 only
  toy_rendezvous  the overlap toy (issue 28; papers.md D.3), 4 ranks all-to-all, blocking sends of
                  32 KiB-1 MiB: with rendezvous messages and progress = "wait" the slowest rank's send
                  phase is about compute part 1 (a send waits for its target's wait); short with
                  progress = "thread", with an eager limit above every message, and with fragments
                  below the limit; the overlap toy's iteration longer than the no-overlap toy's
Exit status 0 when every check holds, 1 when one does not, 2 when a run or the analysis failed.
"""
import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from validate_simulation_common import (CORE, HERE, INJECT, MEMORY, NOISE, Checks, Runner, fronts, idle,  # noqa: E402
                                        phase, waves_of)
from validate_simulation_workloads import chebfd_pair, messages, spmv_pair, toy_rendezvous  # noqa: E402
from desync.h5file import open_output  # noqa: E402


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


def hybrid(r, c):
    path, amps, t_iter = noise_run(r, c, "hybrid", 1, threads=10, iterations=300)
    c("hybrid", "amplitude at iteration 299 / iteration time", "%.4f" % (amps[299] / t_iter), amps[299] < 0.1 * t_iter,
      "< 0.1: lock-step")


def sync_every(r, c):
    deck = CORE.format(iterations=20, offsets="[1, -1]", boundary="open") + \
        '[comm]\nsync = "barrier"\nsync_every = 5\n' + NOISE.format(mean=1e-4) + "ranks = [1]\niterations = [3, 9]\n"
    path = r.simulate("sync_every", deck, 4)
    with open_output(path) as f:
        ev = np.asarray(f["timeline/events"][...], dtype=float)
        names = [n.decode() if isinstance(n, bytes) else str(n) for n in f["timeline/events"].attrs["event_names"]]
        warmup = int(np.asarray(f["timeline/warmup"][...]).sum())
    deck_it = np.arange(ev.shape[1]) - warmup
    due = (deck_it + 1) % 5 == 0
    synced = ~np.isnan(ev[:, :, names.index("sync_end")])
    c("sync_every", "ranks x iterations with sync_end where due (and only there)", int((synced == due[None, :]).sum()),
      bool(np.all(synced == due[None, :])), "all %d" % synced.size)
    delay = np.nan_to_num(ev[:, :, names.index("delay_end")] - ev[:, :, names.index("delay_begin")])
    noisy = delay > 0
    want = np.zeros_like(noisy)
    want[1, (deck_it >= 3) & (deck_it < 9)] = True
    c("sync_every", "delays on rank 1 in iterations 3..8 only", "%d delayed" % int(noisy.sum()),
      bool(np.all(noisy == want)), "%d" % int(want.sum()))


SCENARIOS = {f.__name__: f for f in (core_wave, core_wave_d2, ring_cancel, memory_model, memory_decay, memory_at_ns,
                                     noise_grows, noise_at_ns, hybrid, spmv_pair, chebfd_pair, messages, sync_every,
                                     toy_rendezvous)}


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
