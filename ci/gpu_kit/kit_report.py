#!/usr/bin/env python3
"""The GPU kit's report (ci/gpu_kit/run_checks.sh; docs/gpu_kit.md): one JSON file from what the
checks left in OUTDIR, and a summary on stdout. Exit code 0 when every item passed and every deck
agrees with the CPU reference (where the kit has one).

    kit_report.py --kit KIT --out OUTDIR [--seconds S]

report.json holds: kit (KIT_INFO), machine (device name, driver, memory, bus id, UUID as nvidia-smi
gives them), items (one per check: kind, name, ranks, variant, passed, exit code, seconds, log),
decks (per deck run: verification, per-rank result fingerprints and norms, the exchange's phase
times, agreement with the reference), benches (the ratios each benchmark printed), ucx_cuda (the
transports the kit's CUDA-aware UCX found), halo_exchange (per halo deck at 2 ranks through that
UCX: the exchange's phases staged against direct, and their ratio), summary.

Agreement of a deck run with the reference (the same deck, ranks and variant run by the OpenMP
build): "bitwise" when every rank's result fingerprint is equal; else "within tolerance" when
the relative difference of the summed result_norm2 is at most TOLERANCE (a GPU's fused
multiply-adds and another summation order change the last bits, not the result); else
"differs". Workloads without a result vector (triad) agree when both verified.
"""
import argparse
import json
import math
import os
import re
import sys

TOLERANCE = 1e-9  # relative, on the sum of squares of the result vectors (docs/gpu_kit.md)

try:
    import h5py  # the GPU node's Python has it (the premise); without it decks lack numbers
    import numpy as np
except ImportError:  # pragma: no cover - reported, not fatal
    h5py = None
    np = None


def read_kv(path):
    out = {}
    if os.path.exists(path):
        for line in open(path):
            if "=" in line:
                k, v = line.rstrip("\n").split("=", 1)
                out[k] = v
    return out


def read_items(out):
    items = []
    path = os.path.join(out, "items.tsv")
    for line in open(path):
        f = line.rstrip("\n").split("\t")
        if len(f) < 8:
            continue
        kind, name, np_, variant, rc, sec, log, h5 = f[:8]
        items.append({"kind": kind, "name": name, "ranks": int(np_), "variant": variant, "exit_code": int(rc),
                      "passed": int(rc) == 0, "seconds": float(sec), "log": log, "file": h5})
    return items


def machine(out):
    m = {"gpus": []}
    path = os.path.join(out, "machine.txt")
    if not os.path.exists(path):
        return m
    for line in open(path):
        line = line.strip()
        if line.startswith("kit:") or line.startswith("host:"):
            m[line.split(":", 1)[0]] = line.split(":", 1)[1].strip()
            continue
        parts = [p.strip() for p in line.split(",")]
        if len(parts) == 5 and "failed" not in line.lower():
            m["gpus"].append(dict(zip(["name", "driver", "memory", "bus_id", "uuid"], parts)))
    return m


def deck_key(it):
    return f"{it['name']}:np{it['ranks']}:{it['variant']}"


def read_deck(out, it):
    d = {"key": deck_key(it), "deck": it["name"], "ranks": it["ranks"], "gpu_aware_mpi": it["variant"],
         "passed": it["passed"]}
    path = os.path.join(out, it["file"])
    if h5py is None:
        d["note"] = "no h5py: numbers not read"
        return d
    if not os.path.exists(path):
        d["note"] = "no output file"
        return d
    try:
        with h5py.File(path, "r") as f:
            v = f.attrs.get("verification", "")
            d["verification"] = v.decode() if isinstance(v, bytes) else str(v)
            s = f.get("summary")
            if s is not None and "result_fingerprint" in s:
                d["fingerprints"] = [int(v) for v in s["result_fingerprint"][...]]
                d["norm2"] = [float(v) for v in s["result_norm2"][...]]
            if s is not None and "phase_stats" in s:
                names = [n.decode() if isinstance(n, bytes) else str(n) for n in s["phase_stats"].attrs["phase_names"]]
                med = s["phase_stats"][:, :, 1]  # [P, F] medians
                phases = {}
                for j, n in enumerate(names):
                    if n in ("post", "wait", "pack", "unpack", "exec", "compute", "sweep", "fused", "local", "remote"):
                        phases[n] = float(np.nanmax(med[:, j]))
                d["phase_median_max_over_ranks_s"] = phases
            for k in ("gpu_aware_mpi_effective", "gpu_aware_mpi_detected", "execution_space", "device_memory"):
                if k in f.attrs:
                    v = f.attrs[k]
                    d[k] = v.decode() if isinstance(v, bytes) else (int(v) if k == "device_memory" else str(v))
    except Exception as e:  # noqa: BLE001 - a broken file is a finding, not a crash
        d["note"] = f"unreadable: {e}"
    return d


def agree(d, ref):
    if ref is None:
        return None, None
    if "fingerprints" in d and "fingerprints" in ref:
        if d["fingerprints"] == ref["fingerprints"]:
            return "bitwise", 0.0
        a, b = sum(d["norm2"]), sum(ref["norm2"])
        rel = abs(a - b) / max(abs(b), 1e-300)
        return ("within tolerance" if rel <= TOLERANCE else "differs"), rel
    if d.get("passed") and ref.get("passed"):
        return "both verified", None
    return "differs", None


# The halo exchange's phases (pack, post: staging copies and sends, wait: receives and copies back)
EXCHANGE_PHASES = ("pack", "post", "wait")


def halo_exchange(decks):
    """Per deck run through the CUDA-aware UCX: staged (ucx_off) against direct (ucx_on), the
    exchange's phase medians (slowest rank) side by side, and direct over staged for their sum."""
    by_key = {d["key"]: d for d in decks}
    rows = []
    for d in decks:
        if d.get("gpu_aware_mpi") != "ucx_on":
            continue
        off = by_key.get(f"{d['deck']}:np{d['ranks']}:ucx_off")
        if off is None:
            continue
        p_on = d.get("phase_median_max_over_ranks_s", {})
        p_off = off.get("phase_median_max_over_ranks_s", {})
        row = {"deck": d["deck"], "ranks": d["ranks"], "passed": bool(d.get("passed") and off.get("passed")),
               "direct_effective": d.get("gpu_aware_mpi_effective"), "staged_effective": off.get("gpu_aware_mpi_effective"),
               "staged_s": {k: p_off[k] for k in EXCHANGE_PHASES if k in p_off},
               "direct_s": {k: p_on[k] for k in EXCHANGE_PHASES if k in p_on}}
        s_off, s_on = sum(row["staged_s"].values()), sum(row["direct_s"].values())
        row["direct_over_staged"] = s_on / s_off if s_off > 0 and row["direct_s"] else None
        rows.append(row)
    return rows


def ucx_transports(out, items):
    """The transports the kit's CUDA-aware UCX found (ucx_info -d), and whether CUDA's are among them."""
    for it in items:
        if it["name"] == "ucx_cuda_transports":
            text = open(os.path.join(out, it["log"]), errors="replace").read()
            names = sorted(set(re.findall(r"Transport:\s*(\S+)", text)))
            return {"transports": names, "cuda": any(n.startswith("cuda") for n in names)}
    return None


NUM = r"([-+0-9.eE]+|n/a)"


def parse_bench(out, it):
    text = open(os.path.join(out, it["log"]), errors="replace").read()
    b = {"name": it["name"], "variant": it["variant"], "passed": it["passed"]}

    def grab(key, pattern, group=1):
        m = re.search(pattern, text)
        if m:
            v = m.group(group)
            try:
                b[key] = float(v)
            except ValueError:
                b[key] = v

    if it["name"] == "bench_triad":
        grab("triad_GBs", r"Kokkos triad\s*:\s*[0-9.]+ ms\s+([0-9.]+) GB/s")
        grab("copy_GBs", r"device copy\s*:\s*[0-9.]+ ms\s+([0-9.]+) GB/s")
        for m in re.finditer(r"launch shape (.+?)\s*:\s*[0-9.]+ ms\s+([0-9.]+) GB/s", text):
            b["shape_" + re.sub(r"\W+", "_", m.group(1).strip()) + "_GBs"] = float(m.group(2))
    elif it["name"] == "bench_spmv":
        grab("best_over_roofline_all", r"ratio best format/roofline by the model: " + NUM + r" \(1 thread.*?\), " + NUM, 2)
        grab("sell_over_crs_all", r"ratio SELL/CRS speed: " + NUM + r" \(1 thread\), " + NUM, 2)
        rows = re.findall(r"^\s+(\d+)\s+(CRS \(desync\)|SELL-\d+-\d+|CRS \(KokkosKernels\))\s+([0-9.]+)\s+([0-9.]+)\s+([0-9.]+)\s+"
                          r"([0-9.]+)\s+([0-9.]+)", text, re.M)
        for th, k, t_ms, gf, gbs, _, ratio in rows[-3:]:
            key = "crs" if k.startswith("CRS (d") else "kokkoskernels" if "Kokkos" in k else "sell"
            b[f"{key}_over_triad"] = float(ratio)
            b[f"{key}_gflops"] = float(gf)
        # a device's CRS with vector lanes per row (spmv_lanes.hpp), beside the thread per row
        for v, ratio in re.findall(r"^\s+\d+\s+CRS lanes (\d+)\s+[0-9.]+\s+[0-9.]+\s+[0-9.]+\s+[0-9.]+\s+([0-9.]+)", text, re.M):
            b[f"crs_lanes{v}_over_triad"] = float(ratio)
    elif it["name"] == "bench_chebfd":
        b["table"] = [ln.strip() for ln in text.splitlines() if re.match(r"^\s+\d+\s+\d+\s+[0-9.]", ln)]
        # per nb, the all-threads (device) row: the fused step's bandwidth by the model over the triad's
        for ln in b["table"]:
            f = ln.split()
            if len(f) >= 9 and f[1] != "1":
                b[f"nb{f[0]}_crs_over_roof"] = float(f[-2])
                b[f"nb{f[0]}_sell_over_roof"] = float(f[-1])
        # --launch-sweep: the CRS step under the element mapping's launch shapes; per nb the best one
        shapes = [dict(nb=int(m.group(1)), team=m.group(2), waves=int(m.group(3)), depth=int(m.group(4)),
                       columns=int(m.group(5)), crs_over_roof=float(m.group(6)),
                       over_default=None if m.group(7) == "n/a" else float(m.group(7)))
                  for m in re.finditer(r"launch nb (\d+) team (\w+) waves (\d+) depth (\d+) columns (\d+): "
                                       r"CRS/roof ([0-9.]+) \(([0-9.]+|n/a) ?x", text)]
        if shapes:
            b["launch_shapes"] = shapes
            for nb in sorted({s["nb"] for s in shapes}):
                b[f"nb{nb}_best_launch"] = max((s for s in shapes if s["nb"] == nb), key=lambda s: s["crs_over_roof"])
        # a device build's kernels under the host mapping (an item per thread), measured beside
        for m in re.finditer(r"^\s+(\d+)\s+\d+ item per thread .*?CRS/roof ([0-9.]+), SELL/roof ([0-9.]+)", text, re.M):
            b[f"nb{m.group(1)}_crs_item_over_roof"] = float(m.group(2))
            b[f"nb{m.group(1)}_sell_item_over_roof"] = float(m.group(3))
    elif it["name"] == "bench_stencil":
        grab("base_over_roofline", r"ratio base/roofline: " + NUM)
        grab("base_over_spmv", r"ratio base/spmv: " + NUM)
    elif it["name"] == "bench_halo":
        # per message size: the staged and direct exchange (medians, slowest rank) and their ratio
        rows = re.findall(r"^\s+(\d+)\s+([0-9.]+)\s+([0-9.]+)\s+([0-9.]+|-)\s+([0-9.]+|-)\s+([0-9.]+|-)\s*$", text, re.M)
        b["sizes"] = [{"bytes": int(r[0]), "staged_median_us": float(r[1]),
                       "direct_median_us": None if r[3] == "-" else float(r[3]),
                       "direct_over_staged": None if r[5] == "-" else float(r[5])} for r in rows]
        b["checked"] = "check: every path delivered" in text
    elif it["name"] == "bench_comm":
        grab("layer_over_raw_median", r"ratio layer/raw: " + NUM + r" \(minimum\), " + NUM, 2)
    return b


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--kit", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--seconds", type=float, default=None)
    a = ap.parse_args()

    items = read_items(a.out)
    ref_path = os.path.join(a.kit, "ref", "reference.json")
    reference = json.load(open(ref_path)) if os.path.exists(ref_path) else None
    ref_decks = {d["key"]: d for d in reference["decks"]} if reference else {}

    decks = []
    for it in items:
        if it["kind"] != "deck":
            continue
        d = read_deck(a.out, it)
        d["agreement"], d["relative_difference"] = agree(d, ref_decks.get(d["key"]) if reference else None)
        if reference and d["key"] not in ref_decks:
            d["agreement"] = "no reference run"
        decks.append(d)
    benches = [parse_bench(a.out, it) for it in items if it["kind"] == "bench"]

    failed = [f"{it['kind']} {it['name']} np{it['ranks']} {it['variant']}".strip() for it in items if not it["passed"]]
    disagree = [d["key"] for d in decks if d.get("agreement") == "differs"]
    report = {
        "kit": read_kv(os.path.join(a.kit, "KIT_INFO")),
        "machine": machine(a.out),
        "reference": ref_path if reference else None,
        "tolerance": TOLERANCE,
        "items": items,
        "decks": decks,
        "benches": benches,
        "ucx_cuda": ucx_transports(a.out, items),
        "halo_exchange": halo_exchange(decks),
        "summary": {
            "items": len(items),
            "passed": len(items) - len(failed),
            "failed": failed,
            "decks_disagreeing": disagree,
            "agreement_counts": {k: sum(1 for d in decks if d.get("agreement") == k)
                                 for k in ("bitwise", "within tolerance", "both verified", "differs", "no reference run")},
            "seconds": a.seconds,
            "green": not failed and not disagree,
        },
    }
    with open(os.path.join(a.out, "report.json"), "w") as f:
        json.dump(report, f, indent=1, default=lambda x: None if isinstance(x, float) and math.isnan(x) else str(x))

    s = report["summary"]
    print(f"kit: {report['kit'].get('backend', '?')} {report['kit'].get('commit', '')}; "
          f"device: {', '.join(g['name'] + ' driver ' + g['driver'] for g in report['machine']['gpus']) or 'none'}")
    print(f"items: {s['passed']} of {s['items']} passed" + (f"; failed: {', '.join(s['failed'])}" if s["failed"] else ""))
    if reference and decks:
        print("decks against the CPU reference: " + ", ".join(f"{v} {k}" for k, v in s["agreement_counts"].items() if v))
    elif decks:
        print("decks: NOT compared with the CPU: this kit has no reference (ci/gpu_kit.sh both --chroot makes one)")
    for b in benches:
        nums = {k: v for k, v in b.items() if k not in ("name", "variant", "passed", "table")}
        if not b["passed"]:
            nums["FAILED"] = True
        print(f"  {b['name']} {b['variant']}: {nums}")
    u = report["ucx_cuda"]
    if u is not None:
        print(f"CUDA-aware UCX: transports {', '.join(u['transports']) or 'none'}"
              f" ({'with' if u['cuda'] else 'without'} CUDA's)")
    for h in report["halo_exchange"]:
        r = h["direct_over_staged"]
        resolved = "" if h["direct_effective"] == "direct" else f" (\"on\" resolved to {h['direct_effective']})"
        print(f"  halo {h['deck']} np{h['ranks']}: staged {sum(h['staged_s'].values()) * 1e6:.1f} us, "
              f"direct {sum(h['direct_s'].values()) * 1e6:.1f} us{resolved} (pack+post+wait, medians)"
              + (f", direct/staged {r:.2f}" if r is not None else ""))
    print(f"report: {os.path.join(a.out, 'report.json')}: {'GREEN' if s['green'] else 'NOT GREEN'}")
    return 0 if s["green"] else 1


if __name__ == "__main__":
    sys.exit(main())
