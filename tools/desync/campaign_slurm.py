"""A Slurm job-array script, one array task per point (`desync-campaign slurm CAMPAIGN.toml`, the
subcommand in campaign_commands/slurm.py).

Writes OUTDIR/NAME.sbatch and the points table OUTDIR/NAME.points.HASH.tsv it indexes (HASH: the
table's own digest, so that a script written again for other points, while an earlier array still
waits in the queue, never changes the table that array reads; tab-separated, a header line, then
one line per array task; empty fields are "-"):

    index  id  nodes  ntasks  ntasks_per_node  cpus_per_task  omp_num_threads  cpu_bind  force
    env  sets

Array task k reads line k, exports OMP_NUM_THREADS (integer threads), OMP_PLACES=cores,
OMP_PROC_BIND=close and the point's variables, and runs

    srun --nodes=N --ntasks=P [--ntasks-per-node=R] --cpus-per-task=C --cpu-bind=B
         BINARY run DECK --set ... -o OUTDIR/ID.h5 [--force] > OUTDIR/ID.log 2>&1

Only points whose result is not complete are written (all with --all); --force is passed to
those whose file exists (partial, stale), so a resubmitted script never overwrites a point that
finished meanwhile (desync refuses an existing file without it). Per point: nodes =
ceil(P / R) with R = ranks_per_node, else [slurm] nodes; C = the [slurm] cpus_per_task rule:
"threads" (default: the point's integer threads, 1 without), "fill" (cores_per_node / R), or an
integer; B = [slurm] cpu_bind ("cores" by default; "ldoms" for threads = "domain" unless set).
The header asks for the most nodes any point needs ([slurm] nodes, when given, must cover it).

[slurm] keys: nodes, time, partition, account, qos, cpus_per_task, cores_per_node, cpu_bind,
exclusive (default true), signal (default "USR1@120": desync writes what ran, complete = 0),
array_limit (most tasks at once, "%N"), setup (shell lines before srun, e.g. module loads),
srun_flags (list), extra (lines added to the header; "#SBATCH " is prepended where missing).
"""

import hashlib
import math
import os
import shlex

from .campaign_launch import deck_text, result_state
from .errors import DesyncError

SLURM_KEYS = ("nodes", "time", "partition", "account", "qos", "cpus_per_task", "cores_per_node",
              "cpu_bind", "exclusive", "signal", "array_limit", "setup", "srun_flags", "extra")
COLUMNS = ("index", "id", "nodes", "ntasks", "ntasks_per_node", "cpus_per_task",
           "omp_num_threads", "cpu_bind", "force", "env", "sets")


def _positive(s, key, where):
    v = s.get(key)
    if v is not None and (isinstance(v, bool) or not isinstance(v, int) or v < 1):
        raise DesyncError("%s: [slurm] %s = %r: give a positive integer" % (where, key, v))
    return v


def slurm_settings(campaign):
    s = dict(campaign.slurm)
    for k in s:
        if k not in SLURM_KEYS:
            raise DesyncError("%s: unknown key %r in [slurm]; keys: %s"
                              % (campaign.path, k, ", ".join(SLURM_KEYS)))
    for k in ("nodes", "cores_per_node", "array_limit"):
        _positive(s, k, campaign.path)
    rule = s.get("cpus_per_task", "threads")
    if rule not in ("threads", "fill") and (isinstance(rule, bool) or not isinstance(rule, int) or rule < 1):
        raise DesyncError("%s: [slurm] cpus_per_task = %r: \"threads\", \"fill\" or a positive "
                          "integer" % (campaign.path, rule))
    for k in ("setup", "srun_flags", "extra"):
        if not isinstance(s.get(k, []), list) or not all(isinstance(x, str) for x in s.get(k, [])):
            raise DesyncError("%s: [slurm] %s must be a list of strings" % (campaign.path, k))
    return s


def point_resources(campaign, s, point):
    """(nodes, ntasks_per_node or None, cpus_per_task, cpu_bind) of a point."""
    r = point.ranks_per_node
    nodes = math.ceil(point.ranks / r) if r else (s.get("nodes") or 1)
    rule = s.get("cpus_per_task", "threads")
    t = point.threads
    if rule == "threads" and isinstance(t, str):
        rule = "fill"  # a word such as "domain": each task gets its share of the node's cores
    if rule == "threads":
        cpus = t if isinstance(t, int) else 1
    elif rule == "fill":
        cores = s.get("cores_per_node")
        per_node = r or math.ceil(point.ranks / nodes)
        if not cores:
            raise DesyncError("%s: point %s: [slurm] cpus_per_task = \"fill\"%s needs [slurm] "
                              "cores_per_node" % (campaign.path, point.id,
                                                  "" if s.get("cpus_per_task") == "fill"
                                                  else " (threads = %r)" % t))
        cpus = max(1, cores // per_node)
    else:
        cpus = rule
    bind = s.get("cpu_bind") or ("ldoms" if isinstance(t, str) else "cores")
    return nodes, (r or None), cpus, bind


def _field(text):
    text = str(text)
    if "\t" in text or "\n" in text:
        raise DesyncError("a value holds a tab or newline, which the points table cannot carry: %r" % text)
    return text if text else "-"


def build(campaign, points, outdir, binary, include_all=False, script_path=None):
    """(script text, table text, [points written])."""
    if campaign.engine == "simulate":
        raise DesyncError("%s: [campaign] engine = \"simulate\": a simulated point is one process on one core "
                          "(no MPI job); run the points with `desync-campaign run %s`" % (campaign.path, campaign.path))
    s = slurm_settings(campaign)
    outdir = os.path.abspath(outdir)
    deck = deck_text(campaign)
    rows, chosen = [], []
    for p in points:
        state, _, _ = result_state(campaign.output_path(outdir, p), p, deck)
        if state == "complete" and not include_all:
            continue
        nodes, ppn, cpus, bind = point_resources(campaign, s, p)
        env = " ".join("%s=%s" % (k, shlex.quote(v)) for k, v in p.env.items())
        rows.append([len(rows), p.id, nodes, p.ranks, ppn or "-", cpus,
                     p.threads if isinstance(p.threads, int) else "-", bind,
                     "--force" if state != "missing" else "-", env,
                     " ".join(shlex.quote(x) for x in p.sets)])
        chosen.append(p)
    table = "\t".join(COLUMNS) + "\n" + "".join("\t".join(_field(x) for x in r) + "\n" for r in rows)
    if not rows:
        return None, table, chosen
    need = max(r[2] for r in rows)
    nodes = s.get("nodes") or need
    if nodes < need:
        raise DesyncError("%s: [slurm] nodes = %d, but point %s needs %d nodes (%d ranks, %d per "
                          "node)" % (campaign.path, nodes, next(r[1] for r in rows if r[2] == need),
                                     need, next(r[3] for r in rows if r[2] == need),
                                     next(r[4] for r in rows if r[2] == need)))
    tsv = table_path(campaign, outdir, table)
    head = ["#!/bin/bash",
            "# Slurm job array for campaign %s: %d point(s), one array task each" % (campaign.name, len(rows)),
            "# written by desync-campaign slurm %s" % campaign.path,
            "# submit: sbatch %s" % (script_path or os.path.join(outdir, campaign.name + ".sbatch")),
            "#SBATCH --job-name=%s" % campaign.name,
            "#SBATCH --array=0-%d%s" % (len(rows) - 1, "%%%d" % s["array_limit"] if s.get("array_limit") else ""),
            "#SBATCH --nodes=%d" % nodes]
    for key, flag in (("time", "time"), ("partition", "partition"), ("account", "account"),
                      ("qos", "qos")):
        if s.get(key) is not None:
            head.append("#SBATCH --%s=%s" % (flag, s[key]))
    if s.get("exclusive", True):
        head.append("#SBATCH --exclusive")
    if s.get("signal", "USR1@120"):
        head.append("#SBATCH --signal=%s" % s.get("signal", "USR1@120"))
    head.append("#SBATCH --output=%s" % os.path.join(outdir, "slurm-%A_%a.out"))
    head += [x if x.startswith("#") else "#SBATCH " + x for x in s.get("extra", [])]
    srun_flags = " ".join(shlex.quote(x) for x in s.get("srun_flags", []))
    body = [
        "set -eu",
        "table=%s" % shlex.quote(tsv),
        "outdir=%s" % shlex.quote(outdir),
        "line=$(awk -F'\\t' -v k=\"$SLURM_ARRAY_TASK_ID\" 'NR > 1 && $1 == k' \"$table\")",
        "[ -n \"$line\" ] || { echo \"no point $SLURM_ARRAY_TASK_ID in $table\" >&2; exit 2; }",
        "IFS=$'\\t' read -r index id nodes ntasks ppn cpus threads bind force env sets <<< \"$line\"",
    ] + list(s.get("setup", [])) + [
        "[ \"$threads\" = - ] || export OMP_NUM_THREADS=\"$threads\"",
        "export OMP_PLACES=cores OMP_PROC_BIND=close",
        "[ \"$env\" = - ] || eval \"export $env\"",
        "args=()",
        "if [ \"$sets\" != - ]; then eval \"sets=($sets)\"; for s in \"${sets[@]}\"; do args+=(--set \"$s\"); done; fi",
        "[ \"$force\" = - ] || args+=(--force)",
        "pernode=()",
        "[ \"$ppn\" = - ] || pernode=(--ntasks-per-node=\"$ppn\")",
        "echo \"point $index: $id on $nodes node(s), $ntasks task(s), $cpus cpu(s) per task\"",
        "srun --nodes=\"$nodes\" --ntasks=\"$ntasks\" ${pernode[@]+\"${pernode[@]}\"} --cpus-per-task=\"$cpus\" "
        "--cpu-bind=\"$bind\"%s \\" % (" " + srun_flags if srun_flags else ""),
        "  %s run %s ${args[@]+\"${args[@]}\"} -o \"$outdir/$id.h5\" > \"$outdir/$id.log\" 2>&1"
        % (shlex.quote(binary), shlex.quote(campaign.deck)),
    ]
    return "\n".join(head + [""] + body) + "\n", table, chosen


def table_path(campaign, outdir, table):
    """OUTDIR/NAME.points.HASH.tsv: named by its content (module doc)."""
    digest = hashlib.sha1(table.encode()).hexdigest()[:12]
    return os.path.join(outdir, "%s.points.%s.tsv" % (campaign.name, digest))


def write_script(campaign, points, outdir, binary, include_all=False, script_path=None):
    """Write the script (build) to script_path (default OUTDIR/NAME.sbatch) and its points table
    to OUTDIR/NAME.points.HASH.tsv. Returns (script path, table path, the points in the array), or
    None when every point is complete and include_all is not set (nothing written)."""
    path = os.path.abspath(script_path or os.path.join(outdir, campaign.name + ".sbatch"))
    script, table, chosen = build(campaign, points, outdir, binary, include_all, path)
    if script is None:
        return None
    tsv = table_path(campaign, outdir, table)
    # The script first: a script path that cannot be written leaves no table (nor folder) behind.
    if script_path is None:
        os.makedirs(outdir, exist_ok=True)
    with open(path, "w") as fh:
        fh.write(script)
    os.chmod(path, 0o755)
    try:
        os.makedirs(outdir, exist_ok=True)
        with open(tsv, "w") as fh:
            fh.write(table)
    except OSError:
        os.remove(path)
        raise
    return path, tsv, chosen
