"""The campaign's combined pictures (PNG, or any format matplotlib's Agg backend writes by suffix),
from the rows `collect` builds (`desync-campaign plot CAMPAIGN.toml`, the subcommand in
campaign_commands/plot.py).

Only points whose file is complete and whose verdict is "passed" are drawn; the others are listed.
--where KEY=VALUE (repeatable) keeps the rows whose KEY has that value (as in the table).

--kind lines (default): y = --y (a /metrics name; default the first of gflops, bandwidth,
total_time the files have) against x = --x (a campaign key, a placement
column such as ranks or threads_per_rank, or a /metrics name such as cer_median: points whose
files lack it are listed, not drawn; default the first key with more than one value), one
line per value of --by (comma-separated keys). A key that varies but is neither x nor --by is
added to the line label when points with the same x and labels differ in it (not when it
follows from x, as the rank count from the threads per rank at fixed cores), so no two points
share a line position. Numeric x on a linear axis, words in campaign order.

--kind scaling: bars of y against the rank count (x = ranks unless --x), one bar per group of
the other varying keys (chosen as for lines), and the "with barrier" line: when a key switches the barrier
(run.barrier, chebfd.barrier_per_degree: true; comm.sync: "barrier" against "none"), the bars are
the barrier-free points and the line the barrier points of the same group and x; without such a
key, files with gflops_barrier_free and gflops_barrier (SpMV compare_barrier) give both. Above
each bar the barrier-free gain, P_free / P_barrier - 1 for rates, T_barrier / T_free - 1 for
times (units "s"). When the files hold desync_speedup (P_D = (P_barrier_free - P_barrier) /
|P_barrier|, docs/method.md section 13), a second panel draws P_D in % against the rank count
(papers.md A, Fig. 3(e)).

Prints every series (label, x, y, run id); --json OUT writes them.
"""

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from .campaign import value_text  # noqa: E402
from .campaign_collect import PREFERRED, collect, default_metric, key_column  # noqa: E402
from .errors import DesyncError  # noqa: E402

BARRIER_KEYS = {"run.barrier": (False, True), "chebfd.barrier_per_degree": (False, True),
                "comm.sync": ("none", "barrier")}
METRIC_PAIRS = {"gflops": ("gflops_barrier_free", "gflops_barrier")}
# Columns of the table that say where a point ran (campaign_collect.file_record): lines join them.
PLACEMENT_COLUMNS = {"ranks", "nodes", "ranks_per_node", "threads_per_rank", "iterations"}


def _is_number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def varying(keys, rows):
    """The table columns of the campaign keys that take more than one value in rows."""
    cols = [key_column(k) for k in keys]
    return [c for c in cols if len({value_text(r[c]) for r in rows if r.get(c) is not None}) > 1]


def line_keys(rows, fixed, by, candidates):
    """The keys that tell lines apart: by, then each candidate that still takes two values among
    rows sharing the fixed columns (x, ...) and the keys chosen so far. A key that follows from
    x (the rank count of a threads value) does not split lines."""
    keys = list(by)
    for k in candidates:
        if k in keys or k in fixed:
            continue
        seen = {}
        for r in rows:
            at = tuple(value_text(r[c]) for c in list(fixed) + keys)
            seen.setdefault(at, set()).add(value_text(r[k]))
        if any(len(v) > 1 for v in seen.values()):
            keys.append(k)
    return keys


def _filter(rows, where):
    for cond in where or []:
        if "=" not in cond:
            raise DesyncError("--where %s: give KEY=VALUE" % cond)
        key, value = cond.split("=", 1)
        if rows and key not in rows[0]:
            raise DesyncError("--where %s: no column %r" % (cond, key))
        rows = [r for r in rows if r.get(key) is not None and value_text(r[key]) == value]
    return rows


def _order(values):
    """Distinct x values: sorted numbers, or words in first-seen order."""
    distinct = list(dict.fromkeys(values))
    if all(_is_number(v) for v in distinct):
        return sorted(distinct)
    return distinct


def _label(campaign, cols, row):
    names = {key_column(k): campaign.label(k) for k in campaign.keys()}
    return ", ".join("%s=%s" % (names.get(c, c), value_text(row[c])) for c in cols) or "all points"


def _groups(campaign, rows, keys):
    out = {}
    for r in rows:
        out.setdefault(_label(campaign, keys, r), []).append(r)
    return out


def _check_column(name, rows, what):
    if not rows or name not in rows[0]:
        raise DesyncError("%s %r: no such column; columns: %s" % (what, name, ", ".join(rows[0]) if rows else "-"))


def usable_rows(rows):
    good = [r for r in rows if r["status"] == "complete" and r["verdict"] == "passed"]
    bad = [(r["run_id"], r["status"] if r["status"] != "complete" else "verification " + str(r["verdict"]))
           for r in rows if r not in good]
    return good, bad


def lines_plot(campaign, rows, y, units, x=None, by=None, title=None):
    keys = campaign.keys()
    vary = varying(keys, rows)
    x = x or (vary[0] if vary else None)
    if x is None:
        raise DesyncError("no campaign key takes more than one value among the drawn points; "
                          "give --x (e.g. ranks)")
    _check_column(x, rows, "--x")
    by = [b for b in (by or []) if b]
    for b in by:
        _check_column(b, rows, "--by")
    group_keys = line_keys(rows, [x], by, vary)
    key_cols = {key_column(k) for k in keys} | PLACEMENT_COLUMNS
    xs = _order([r[x] for r in rows if r[x] is not None])
    numeric = all(_is_number(v) for v in xs)
    fig, ax = plt.subplots(figsize=(7, 4.5))
    series = []
    for label, members in _groups(campaign, rows, group_keys).items():
        pts = sorted(((r[x], r[y], r["run_id"]) for r in members
                      if r[x] is not None and _is_number(r.get(y))),
                     key=lambda p: xs.index(p[0]))
        if not pts:
            continue
        px = [p[0] if numeric else xs.index(p[0]) for p in pts]
        # A metric as x (not a key the campaign sets): points, not a line through them.
        ax.plot(px, [p[1] for p in pts], "o" if x not in key_cols else "o-", label=label)
        series.append({"label": label, "points": [{"x": p[0], "y": p[1], "run_id": p[2]} for p in pts]})
    if not series:
        raise DesyncError("no point has a value of %r" % y)
    if not numeric:
        ax.set_xticks(range(len(xs)))
        ax.set_xticklabels([value_text(v) for v in xs])
    elif all(isinstance(v, int) for v in xs):
        ax.set_xticks(xs)
    ax.set_xlabel(x)
    ax.set_ylabel("%s [%s]" % (y, units.get(y)) if units.get(y) else y)
    ax.set_title(title or "campaign %s: %s vs %s" % (campaign.name, y, x))
    ax.grid(True, alpha=0.3)
    if len(series) > 1 or group_keys:
        ax.legend(fontsize="small")
    fig.tight_layout()
    return fig, {"kind": "lines", "x": x, "y": y, "units": units.get(y, ""), "by": group_keys,
                 "series": series}


def _gain(free, barrier, unit):
    if not (_is_number(free) and _is_number(barrier)) or free <= 0 or barrier <= 0:
        return None
    return barrier / free - 1 if unit == "s" else free / barrier - 1


def scaling_plot(campaign, rows, y, units, x=None, title=None):
    keys = campaign.keys()
    x = x or "ranks"
    _check_column(x, rows, "--x")
    vary = varying(keys, rows)
    bkey = next((k for k in BARRIER_KEYS if k in vary), None)
    pair = METRIC_PAIRS.get(y) if bkey is None else None
    if pair and not any(_is_number(r.get(pair[0])) and _is_number(r.get(pair[1])) for r in rows):
        pair = None
    group_keys = line_keys(rows, [x] + ([bkey] if bkey else []), [], vary)
    xs = _order([r[x] for r in rows if r[x] is not None])
    groups = _groups(campaign, rows, group_keys)
    has_pd = any(_is_number(r.get("desync_speedup")) for r in rows)
    fig, axes = plt.subplots(1, 2 if has_pd else 1, figsize=(11 if has_pd else 7, 4.5), squeeze=False)
    ax = axes[0][0]
    width = 0.8 / max(1, len(groups))
    unit = units.get(y, "")
    out = {"kind": "scaling", "x": x, "y": y, "units": unit, "barrier_key": bkey,
           "barrier_metrics": list(pair) if pair else None, "groups": []}
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for g, (label, members) in enumerate(groups.items()):
        colour = colours[g % len(colours)]
        entries = []
        for i, xv in enumerate(xs):
            at = [r for r in members if r[x] == xv]
            if bkey:
                free = next((r for r in at if r[bkey] == BARRIER_KEYS[bkey][0]), None)
                bar = next((r for r in at if r[bkey] == BARRIER_KEYS[bkey][1]), None)
                vf, vb = (free or {}).get(y), (bar or {}).get(y)
            elif pair:
                free = bar = at[0] if at else None
                vf, vb = (free or {}).get(pair[0]), (free or {}).get(pair[1])
            else:
                free, bar = (at[0] if at else None), None
                vf, vb = (free or {}).get(y), None
            if not (_is_number(vf) or _is_number(vb)):
                continue
            pos = i - 0.4 + width * (g + 0.5)
            gain = _gain(vf, vb, unit)
            if _is_number(vf):
                ax.bar(pos, vf, width * 0.9, color=colour, label=label if not entries else None)
                if gain is not None:
                    ax.annotate("%+.0f%%" % (100 * gain), (pos, vf), ha="center", va="bottom",
                                fontsize="x-small")
            entries.append({"x": xv, "pos": pos, "barrier_free": vf if _is_number(vf) else None,
                            "with_barrier": vb if _is_number(vb) else None, "gain": gain,
                            "run_id": (free or bar or {}).get("run_id"),
                            "desync_speedup": (free or bar or {}).get("desync_speedup")})
        line = [(e["pos"], e["with_barrier"]) for e in entries if e["with_barrier"] is not None]
        if line:
            ax.plot([p for p, _ in line], [v for _, v in line], "s--", color="black",
                    markerfacecolor=colour, label="%s, with barrier" % label if groups else "with barrier")
        out["groups"].append({"label": label, "entries": entries})
    ax.set_xticks(range(len(xs)))
    ax.set_xticklabels([value_text(v) for v in xs])
    ax.set_xlabel(x)
    ax.set_ylabel("%s [%s]" % (y, unit) if unit else y)
    ax.set_title(title or "campaign %s: %s vs %s" % (campaign.name, y, x))
    ax.grid(True, axis="y", alpha=0.3)
    ax.legend(fontsize="x-small")
    if has_pd:
        ax2 = axes[0][1]
        for g, grp in enumerate(out["groups"]):
            pts = [(xs.index(e["x"]), 100 * e["desync_speedup"]) for e in grp["entries"]
                   if _is_number(e["desync_speedup"])]
            if pts:
                ax2.plot([p for p, _ in pts], [v for _, v in pts], "o-", label=grp["label"],
                         color=colours[g % len(colours)])
        ax2.axhline(0, color="grey", lw=0.8)
        ax2.set_xticks(range(len(xs)))
        ax2.set_xticklabels([value_text(v) for v in xs])
        ax2.set_xlabel(x)
        ax2.set_ylabel("P_D [%]")
        ax2.set_title("desync speedup P_D")
        ax2.grid(True, alpha=0.3)
        ax2.legend(fontsize="x-small")
    fig.tight_layout()
    return fig, out


def draw_campaign(campaign, outdir, kind="lines", y=None, x=None, by=None, where=None, title=None):
    """The picture of the campaign's complete points with verification passed in outdir (module
    doc): (figure, result, y, default file name); result["excluded"] lists the points not drawn
    ({"run_id", "why"})."""
    columns, rows, units = collect(campaign, outdir)
    good, bad = usable_rows(rows)
    good = _filter(good, where)
    if not good:
        raise DesyncError("no complete point with verification passed to draw in %s%s" % (
            outdir, " (after --where)" if where else ""))
    y = y or default_metric(columns, good)
    if y is None:
        raise DesyncError("the files have none of %s; give --y METRIC" % ", ".join(PREFERRED))
    _check_column(y, good, "--y")
    # A metric as x (e.g. --x cer_median): points whose files lack it are listed, not drawn.
    if x is not None and x in good[0] and x not in {key_column(k) for k in campaign.keys()}:
        bad += [(r["run_id"], "no value of %s" % x) for r in good if r.get(x) is None]
        good = [r for r in good if r.get(x) is not None]
        if not good:
            raise DesyncError("no drawn point has a value of --x %s" % x)
    if kind == "scaling":
        fig, result = scaling_plot(campaign, good, y, units, x, title)
        default_name = "%s_scaling_%s.png" % (campaign.name, y)
    else:
        fig, result = lines_plot(campaign, good, y, units, x, by, title)
        default_name = "%s_%s_vs_%s.png" % (campaign.name, y, result["x"].replace(".", "-"))
    result["excluded"] = [{"run_id": a, "why": b} for a, b in bad]
    return fig, result, y, default_name


def close(fig):
    """Free a figure of this module (pyplot keeps every open one)."""
    plt.close(fig)
