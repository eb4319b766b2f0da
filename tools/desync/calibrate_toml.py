"""calibrate_toml: the platform file (platforms/*.toml, docs/simulate.md) of
tools/calibrate_platform.py (`desync-calibrate`) as text: the TOML writer (every value with its
source as a comment), the platform dict built from the measurements, and the checks of the
simulator's platform loader (miniapp/sim_model/platform_file.cpp) on a parsed file. No MPI."""

import json
import math

from .calibrate_fit import monotone

# The keys the simulator's platform loader accepts (unknown keys are errors there). The loader is
# the authority (the ctests simulate_platform_* load every shipped file with it); this copy checks
# what the calibration writes, which always gives the keys marked required here, even where the
# loader has a default (node.count, sockets, domains, eager limits, divide_time).
KEYS = {
    "platform": {"name": "required", "description": "optional"},
    "node": {"count": "required", "sockets": "required", "domains": "required",
             "cores_per_domain": "required"},
    "memory": {"b1": "optional", "b_saturated": "optional", "table": "optional"},
    "core": {"divide_time": "required", "gemm_flops": "optional"},
    "network": {"intra_node_latency": "required", "intra_node_bandwidth": "required",
                "inter_node_latency": "required", "inter_node_bandwidth": "required",
                "eager_limit_intra": "required", "eager_limit_inter": "required",
                "receiver_links": "optional", "sync_latency": "optional"},
    "placement": {"ranks_per_node": "optional", "threads_per_rank": "optional", "oversubscribe": "optional"},
}
REQUIRED_TABLES = ("platform", "node", "memory", "core", "network")


def toml_number(v):
    """A float as a TOML float with an exponent that is a multiple of 3 (20.2e9, 0.41e-6 style
    kept readable); an int as an int."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if v == 0 or not math.isfinite(v):
        if not math.isfinite(v):
            raise ValueError("not a finite number: %r" % v)
        return "0.0"
    exp = int(math.floor(math.log10(abs(v)) / 3.0) * 3)
    mant = "%.4g" % (v / 10.0 ** exp)
    if "e" in mant:  # rounding pushed it to 1000
        mant = "%.4g" % (v / 10.0 ** (exp + 3))
        exp += 3
    if "." not in mant:
        mant += ".0"
    return mant if exp == 0 else "%se%d" % (mant, exp)


def toml_value(v):
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=True)
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    return toml_number(v)


def build_platform_toml(platform):
    """The platform file's text from a dict:

        {"header": [comment lines without '# '],
         "tables": [(table name, table comment or "", [(key, value, comment), ...]), ...]}

    Every value gets its comment after it ('# ' + comment); lists longer than 6 are wrapped."""
    lines = ["# " + h if h else "#" for h in platform.get("header", [])]
    for name, tcomment, entries in platform["tables"]:
        if lines:
            lines.append("")
        lines.append("[%s]" % name + ("  # " + tcomment if tcomment else ""))
        width = max((len(k) for k, _, _ in entries), default=0)
        for key, value, comment in entries:
            if isinstance(value, (list, tuple)) and len(value) > 6:
                lines.append("%s = [  # %s" % (key.ljust(width), comment))
                for i in range(0, len(value), 6):
                    lines.append("    " + ", ".join(toml_value(x) for x in value[i:i + 6]) + ",")
                lines.append("]")
            else:
                text = "%s = %s" % (key.ljust(width), toml_value(value))
                lines.append(text + ("  # " + comment if comment else ""))
    return "\n".join(lines) + "\n"


def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def _is_num(v):
    return (isinstance(v, (int, float)) and not isinstance(v, bool)) and math.isfinite(v)


def check_platform(d):
    """The checks of the simulator's loader on a parsed platform file (a dict from tomllib).
    Returns a list of error strings, empty if valid."""
    err = []
    for t in d:
        if t not in KEYS:
            err.append("unknown table [%s]" % t)
    for t in REQUIRED_TABLES:
        if t not in d:
            err.append("missing table [%s]" % t)
    for t, keys in KEYS.items():
        tab = d.get(t, {})
        if not isinstance(tab, dict):
            err.append("[%s] is not a table" % t)
            continue
        for k in tab:
            if k not in keys:
                err.append("unknown key %s.%s" % (t, k))
        for k, need in keys.items():
            if need == "required" and t in d and k not in tab:
                err.append("missing key %s.%s" % (t, k))
    if err:
        return err
    p, n, m, c, net = (d[t] for t in REQUIRED_TABLES)
    if not isinstance(p["name"], str) or not p["name"]:
        err.append("platform.name must be non-empty text")
    if "description" in p and not isinstance(p["description"], str):
        err.append("platform.description must be text")
    for k in ("count", "sockets", "domains", "cores_per_domain"):
        if not _is_int(n[k]) or n[k] < 1:
            err.append("node.%s must be an integer >= 1" % k)
    if not err and n["domains"] % n["sockets"] != 0:
        err.append("node.domains (%d) must be a multiple of node.sockets (%d)" % (n["domains"], n["sockets"]))
    if "table" in m:
        tab = m["table"]
        if not isinstance(tab, list) or not tab or not all(_is_num(x) and x > 0 for x in tab):
            err.append("memory.table must be a non-empty list of positive numbers (B/s)")
        else:
            if any(b < a for a, b in zip(tab, tab[1:])):
                err.append("memory.table must be non-decreasing")
            if _is_int(n["cores_per_domain"]) and len(tab) > n["cores_per_domain"]:
                err.append("memory.table has %d entries, more than node.cores_per_domain (%d)"
                           % (len(tab), n["cores_per_domain"]))
    elif "b1" in m and "b_saturated" in m:
        if not (_is_num(m["b1"]) and m["b1"] > 0 and _is_num(m["b_saturated"]) and m["b_saturated"] > 0):
            err.append("memory.b1 and memory.b_saturated must be positive numbers (B/s)")
        elif m["b1"] > m["b_saturated"]:
            err.append("memory.b1 must be <= memory.b_saturated")
    else:
        err.append("[memory] needs b1 and b_saturated, or table")
    if not (_is_num(c["divide_time"]) and c["divide_time"] > 0):
        err.append("core.divide_time must be a positive number (s)")
    if "gemm_flops" in c and not (_is_num(c["gemm_flops"]) and c["gemm_flops"] >= 0):
        err.append("core.gemm_flops must be a number >= 0 (flop/s)")
    for k in ("intra_node_latency", "intra_node_bandwidth", "inter_node_latency", "inter_node_bandwidth"):
        if not (_is_num(net[k]) and net[k] > 0):
            err.append("network.%s must be a positive number" % k)
    if not err and net["inter_node_latency"] < net["intra_node_latency"]:
        err.append("network.inter_node_latency must be >= network.intra_node_latency")
    for k in ("eager_limit_intra", "eager_limit_inter"):
        if not _is_int(net[k]) or net[k] < 0:
            err.append("network.%s must be an integer >= 0 (bytes)" % k)
    if "receiver_links" in net and not isinstance(net["receiver_links"], bool):
        err.append("network.receiver_links must be true or false")
    pl = d.get("placement", {})
    for k in ("ranks_per_node", "threads_per_rank"):
        if k in pl and (not _is_int(pl[k]) or pl[k] < 1):
            err.append("placement.%s must be an integer >= 1" % k)
    if not err:
        slots = n["domains"] * n["cores_per_domain"]
        tpr = pl.get("threads_per_rank", 1)
        if pl.get("ranks_per_node", slots // tpr) * tpr > slots:
            err.append("placement: ranks_per_node x threads_per_rank exceeds the node's cores (%d)" % slots)
    return err


def platform_from_measurements(meas, name="this_machine", inter=None):
    """The platform dict (for build_platform_toml) from the measurements:

        meas = {"layout": parse_lscpu(...), "b": [b(1), ...], "latency": L, "bandwidth": B,
                "eager": eager_limits(...), "divide_time": s,
                optional: "description", "header" (comment lines), "memory_model" ("table" or
                "b1"), "eager_note", "memory_source", "network_source", "divide_source"}
        inter = None (copy intra values) or {"latency": s, "bandwidth": B/s}"""
    lay = meas["layout"]
    b_meas = list(meas["b"])
    b_table, adjusted = monotone(b_meas)
    msrc = meas.get("memory_source", "saturation run")
    tab_comment = "B/s, b(n) n = 1..%d, %s" % (len(b_table), msrc)
    if adjusted:
        tab_comment += "; made non-decreasing (running max) from %s" % toml_value(
            [float("%.4g" % x) for x in b_meas])
    memory = [("table", b_table, tab_comment)]
    memory_comment = "per domain, STREAM counting; b1 = %s, b_saturated = %s (from the table)" % (
        toml_number(b_table[0]), toml_number(b_table[-1]))
    if meas.get("memory_model") == "b1":
        memory = [("b1", b_meas[0], "B/s, b(1), " + msrc),
                  ("b_saturated", b_table[-1], "B/s, max b(n), n <= %d, %s" % (len(b_table), msrc))]
        memory_comment = "per domain, STREAM counting"
    nsrc = meas.get("network_source", "pingpong fit")
    intra_i, isrc, inter_e, osrc = meas["eager"]
    eager_note = meas.get("eager_note", "")
    net = [
        ("intra_node_latency", meas["latency"], "s, " + nsrc),
        ("intra_node_bandwidth", meas["bandwidth"], "B/s, " + nsrc),
    ]
    if inter is None:
        net += [("inter_node_latency", meas["latency"], "estimate: copied from intra (one node cannot measure it)"),
                ("inter_node_bandwidth", meas["bandwidth"], "estimate: copied from intra (one node cannot measure it)")]
    else:
        net += [("inter_node_latency", inter["latency"], "s, given with --inter-latency"),
                ("inter_node_bandwidth", inter["bandwidth"], "B/s, given with --inter-bandwidth")]
    net += [("eager_limit_intra", intra_i if intra_i is not None else 4096,
             ("bytes, " + isrc + eager_note) if isrc else "estimate: the MPI library reported none"),
            ("eager_limit_inter", inter_e if inter_e is not None else 65536,
             ("bytes, " + osrc) if osrc else "estimate: the MPI library reported none")]
    node = [("count", 1, "one node calibrated"),
            ("sockets", lay["sockets"], "lscpu"),
            ("domains", lay["domains"], "lscpu NUMA nodes"),
            ("cores_per_domain", lay["cores_per_domain"], "lscpu (%d CPU(s), %d per core)" % (
                lay["cpus"], lay["threads_per_core"]))]
    return {
        "header": meas.get("header", []),
        "tables": [
            ("platform", "", [("name", name, "calibrated"),
                              ("description", meas.get("description", ""), "calibrate_platform.py")]),
            ("node", "", node),
            ("memory", memory_comment, memory),
            ("core", "", [("divide_time", meas["divide_time"], "s, " + meas.get("divide_source", "divide run"))]),
            ("network", "", net),
        ],
    }


def parse_toml(text):
    """The parsed TOML text (tomllib, or tomli before Python 3.11); None where neither exists."""
    try:
        import tomllib
    except ImportError:  # Python < 3.11
        try:
            import tomli as tomllib
        except ImportError:
            return None
    return tomllib.loads(text)
