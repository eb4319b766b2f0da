"""validate_simulation.py's scenarios of the sparse and toy workloads: SpMV and ChebFD simulated
beside their real runs (pair_check), the message log of a simulated run, the toy's rendezvous.
"""
import h5py
import numpy as np

from validate_simulation_common import events, phase

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
