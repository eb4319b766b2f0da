"""Campaigns: one base deck swept over axes, expanded into points (runs) with stable ids.

A campaign file is TOML (format in docs/method.md, "Campaigns"; example files in
inputs/campaigns/):

    [campaign]  name, deck (relative to the campaign file), binary, mpiexec, mpiexec_flags,
                output_dir, launch defaults (ranks, ranks_per_node, threads), binding, launcher,
                combine, timeout, labels, engine ("run", or "simulate": every point is
                `desync simulate` on the platform file `platform`, relative to the campaign
                file, with `platform_sets` as --pset; no mpiexec)
    [set]       overrides every point gets ("run.iterations" = 50)
    [env]       environment variables every point gets
    [axes]      KEY = [values...]: the Cartesian product of all axes
    [[points]]  explicit points (tables of KEY = value), appended to the product
                (combine = "append") or combined with every product point (combine = "product")
    [slurm]     the job-array script's settings (campaign_slurm.py)

A KEY is one of
    table.key   a deck key, passed as `desync run DECK --set table.key=VALUE` (VALUE as TOML)
    ranks       total MPI ranks (mpiexec -n P)
    ranks_per_node   ranks per node (mapping flags, srun --ntasks-per-node)
    threads     threads per rank: OMP_NUM_THREADS and `--set threads.per_rank=T`; an integer or
                a word the deck accepts (e.g. "domain"), passed through
    env.NAME    the environment variable NAME of the run

A point's id joins label+value for every key of the point, in [axes] order then the point's own
order, with "_": ranks4_threads1_nb4, scheme-pipeline (numbers follow the label directly, words
after a "-"). The label is the key's last component (`chebfd.nb` -> nb, `ranks_per_node` -> ppn),
the whole key with "-" for "." where two keys share one, or [campaign] labels. Ids depend only on
the point's keys and values, so a campaign resumes by id; two points with one id are an error.
"""

import difflib
import itertools
import json
import math
import os
import re

from .errors import DesyncError

try:  # Python >= 3.11
    import tomllib as _toml
except ImportError:  # pragma: no cover - older Pythons with the tomli package
    try:
        import tomli as _toml
    except ImportError:
        _toml = None

LAUNCH_KEYS = ("ranks", "ranks_per_node", "threads")
LAUNCH_LABELS = {"ranks": "ranks", "ranks_per_node": "ppn", "threads": "threads"}
CAMPAIGN_KEYS = ("name", "deck", "binary", "mpiexec", "mpiexec_flags", "output_dir", "ranks",
                 "ranks_per_node", "threads", "binding", "launcher", "combine", "timeout", "labels",
                 "engine", "platform", "platform_sets")
ENGINES = ("run", "simulate")
TOP_TABLES = ("campaign", "set", "env", "axes", "points", "slurm")
BINDINGS = ("cores", "none")
LAUNCHERS = ("openmpi", "mpich")
COMBINES = ("append", "product")
THREADS_KEY = "threads.per_rank"
ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
DECK_KEY = re.compile(r"^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)+$")


# --------------------------------------------------------------------------- values


def toml_value(value, where="value"):
    """A Python value from a TOML file as TOML text for `--set table.key=TEXT`."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise DesyncError("%s: %r is not a finite number" % (where, value))
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)  # a TOML basic string: JSON's escapes are TOML's
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(toml_value(v, where) for v in value) + "]"
    raise DesyncError("%s: %r cannot be passed with --set (tables are not supported)" % (where, value))


def value_text(value):
    """A value as it appears in ids, tables and plot legends: 4, 0.05, pipeline, true, [1,-1]."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value) if isinstance(value, float) else str(value)
    if isinstance(value, str):
        return value
    return toml_value(value)


def env_text(value):
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, (int, float, str)):
        return value_text(value)
    raise DesyncError("environment values must be numbers, words or booleans, not %r" % (value,))


def id_part(label, value):
    """label+value for numbers (nb4, a negative one keeps its sign: bytes-128), label-value for
    words and lists (scheme-pipeline)."""
    if isinstance(value, (list, tuple)):
        text = "+".join(value_text(v) for v in value)
    else:
        text = value_text(value)
    numeric = isinstance(value, (int, float)) and not isinstance(value, bool)
    text = re.sub(r"[^A-Za-z0-9.+-]+", "-", text)
    text = (text if numeric else text.strip("-")) or "x"
    return label + text if numeric else "%s-%s" % (label, text)


# --------------------------------------------------------------------------- keys


def flatten(table, prefix=""):
    """{'threads': {'per_rank': [1, 2]}} -> {'threads.per_rank': [1, 2]} (dotted keys written
    bare or quoted mean the same), keeping the file's order."""
    out = {}
    for k, v in table.items():
        key = prefix + k
        if isinstance(v, dict):
            out.update(flatten(v, key + "."))
        else:
            out[key] = v
    return out


def key_kind(key, where):
    """'launch', 'env' or 'deck'; DesyncError naming the key otherwise."""
    if key in LAUNCH_KEYS:
        return "launch"
    if key.startswith("env."):
        if not ENV_NAME.match(key[4:]):
            raise DesyncError("%s: %r is not an environment variable name" % (where, key[4:]))
        return "env"
    if DECK_KEY.match(key):
        if key.split(".")[0] == "inject":
            raise DesyncError("%s: %r: [[inject]] entries cannot be set from the command line; "
                              "write them in the base deck" % (where, key))
        return "deck"
    hint = difflib.get_close_matches(key, LAUNCH_KEYS, n=1)
    raise DesyncError("%s: unknown key %r%s; a key is a deck key table.key, one of %s, or env.NAME"
                      % (where, key, "; did you mean %r?" % hint[0] if hint else "",
                         ", ".join(LAUNCH_KEYS)))


def check_launch_value(key, value, where):
    if key == "ranks":
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise DesyncError("%s: ranks = %r: give a positive integer" % (where, value))
    elif key == "ranks_per_node":
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise DesyncError("%s: ranks_per_node = %r: give an integer >= 0 (0: not set)"
                              % (where, value))
    elif key == "threads":
        ok = (isinstance(value, int) and not isinstance(value, bool) and value >= 1) \
            or (isinstance(value, str) and re.match(r"^[A-Za-z_]+$", value))
        if not ok:
            raise DesyncError("%s: threads = %r: give a positive integer or a word the deck's "
                              "[threads] per_rank accepts (e.g. \"domain\")" % (where, value))


# --------------------------------------------------------------------------- the campaign


class Point:
    """One run: its id, its keys and values, and what the launch needs."""

    def __init__(self, campaign, values, given_id=None):
        self.values = dict(values)  # key -> value, in id order
        self.launch = {k: v for k, v in campaign.launch_defaults.items()}
        self.sets = ["%s=%s" % (k, toml_value(v, "[set] " + k)) for k, v in campaign.fixed_sets.items()]
        self.env = dict(campaign.fixed_env)
        for key, value in self.values.items():
            kind = key_kind(key, "point")
            if kind == "launch":
                self.launch[key] = value
            elif kind == "env":
                self.env[key[4:]] = env_text(value)
            else:
                self.sets.append("%s=%s" % (key, toml_value(value, key)))
        if "threads" in self.values and (THREADS_KEY in self.values or THREADS_KEY in campaign.fixed_sets):
            raise DesyncError("a point sets both threads and %s%s; use one" % (
                THREADS_KEY, "" if THREADS_KEY in self.values else " (in [set])"))
        if THREADS_KEY in self.values:  # the deck key steers OMP_NUM_THREADS and binding too
            self.launch["threads"] = self.values[THREADS_KEY]
        elif self.launch.get("threads") is not None and THREADS_KEY not in campaign.fixed_sets:
            self.sets.append("%s=%s" % (THREADS_KEY, toml_value(self.launch["threads"])))
        if self.launch.get("ranks") is None:
            raise DesyncError("no rank count for point %s: give [campaign] ranks = P or a "
                              "`ranks` axis" % (given_id or self.values))
        parts = [id_part(campaign.label(k), v) for k, v in self.values.items()]
        self.id = given_id or "_".join(parts) or "base"
        if not re.match(r"^[A-Za-z0-9][A-Za-z0-9._+-]*$", self.id):
            raise DesyncError("point id %r: use letters, digits and . _ + - only" % self.id)

    @property
    def ranks(self):
        return self.launch["ranks"]

    @property
    def ranks_per_node(self):
        return self.launch.get("ranks_per_node") or 0

    @property
    def threads(self):
        return self.launch.get("threads")

    def __repr__(self):
        return "Point(%s)" % self.id


class Campaign:
    """A parsed campaign file (load_campaign), its points expanded (points())."""

    def __init__(self, doc, path):
        self.path = os.path.abspath(path)
        self.dir = os.path.dirname(self.path)
        unknown = [k for k in doc if k not in TOP_TABLES]
        if unknown:
            hint = difflib.get_close_matches(unknown[0], TOP_TABLES, n=1)
            raise DesyncError("%s: unknown table [%s]%s; tables: %s" % (
                path, unknown[0], "; did you mean [%s]?" % hint[0] if hint else "",
                ", ".join(TOP_TABLES)))
        c = doc.get("campaign")
        if not isinstance(c, dict):
            raise DesyncError("%s: no [campaign] table (it names at least the base deck)" % path)
        for k in c:
            if k not in CAMPAIGN_KEYS:
                hint = difflib.get_close_matches(k, CAMPAIGN_KEYS, n=1)
                raise DesyncError("%s: unknown key %r in [campaign]%s; keys: %s" % (
                    path, k, "; did you mean %r?" % hint[0] if hint else "", ", ".join(CAMPAIGN_KEYS)))
        self.name = str(c.get("name") or os.path.splitext(os.path.basename(path))[0])
        if not re.match(r"^[A-Za-z0-9][A-Za-z0-9._+-]*$", self.name):
            raise DesyncError("%s: [campaign] name = %r: use letters, digits and . _ + - only"
                              % (path, self.name))
        if "deck" not in c:
            raise DesyncError("%s: [campaign] deck is missing: the base deck, relative to the "
                              "campaign file" % path)
        self.deck = os.path.normpath(os.path.join(self.dir, str(c["deck"])))
        self.binary = c.get("binary")
        self.mpiexec = str(c.get("mpiexec", "mpiexec"))
        flags = c.get("mpiexec_flags", [])
        if not isinstance(flags, list) or not all(isinstance(x, str) for x in flags):
            raise DesyncError("%s: [campaign] mpiexec_flags must be a list of strings" % path)
        self.mpiexec_flags = list(flags)
        self.output_dir = str(c.get("output_dir", os.path.join("results", "campaigns", self.name)))
        self.binding = self._enum(c, "binding", BINDINGS, "cores")
        self.launcher = self._enum(c, "launcher", LAUNCHERS, "openmpi")
        self.combine = self._enum(c, "combine", COMBINES, "append")
        # engine = "simulate": the points run on a modelled cluster (docs/simulate.md); the
        # platform file is the machine, ranks the virtual ranks, ranks_per_node the platform's.
        self.engine = self._enum(c, "engine", ENGINES, "run")
        self.platform = None
        sets = c.get("platform_sets", [])
        if not isinstance(sets, list) or not all(isinstance(x, str) and "=" in x for x in sets):
            raise DesyncError("%s: [campaign] platform_sets must be a list of \"table.key=value\" strings "
                              "(desync simulate --pset)" % path)
        self.platform_sets = list(sets)
        if self.engine == "simulate":
            if "platform" not in c:
                raise DesyncError("%s: [campaign] engine = \"simulate\" needs platform = FILE, the platform "
                                  "file of the modelled cluster (relative to the campaign file; platforms/ "
                                  "has the papers' machines, docs/simulate.md)" % path)
            self.platform = os.path.normpath(os.path.join(self.dir, str(c["platform"])))
        elif "platform" in c or sets:
            raise DesyncError("%s: [campaign] %s is only read with engine = \"simulate\"" % (
                path, "platform" if "platform" in c else "platform_sets"))
        self.timeout = c.get("timeout", 0)
        if isinstance(self.timeout, bool) or not isinstance(self.timeout, (int, float)) \
                or self.timeout < 0:
            raise DesyncError("%s: [campaign] timeout = %r: seconds >= 0 (0: none)" % (path, self.timeout))
        self.labels = c.get("labels", {})
        if not isinstance(self.labels, dict):
            raise DesyncError("%s: [campaign] labels must be a table KEY = \"label\"" % path)
        self.labels = flatten(self.labels)
        self.launch_defaults = {}
        for k in LAUNCH_KEYS:
            if k in c:
                check_launch_value(k, c[k], "%s: [campaign]" % path)
                self.launch_defaults[k] = c[k]
        self.fixed_sets = {}
        for k, v in flatten(doc.get("set", {})).items():
            if key_kind(k, "%s: [set]" % path) != "deck":
                raise DesyncError("%s: [set] %s: only deck keys table.key belong in [set] "
                                  "(launch settings go to [campaign], variables to [env])" % (path, k))
            toml_value(v, "%s: [set] %s" % (path, k))
            self.fixed_sets[k] = v
        self.fixed_env = {}
        for k, v in doc.get("env", {}).items():
            if not ENV_NAME.match(k):
                raise DesyncError("%s: [env] %r is not an environment variable name" % (path, k))
            self.fixed_env[k] = env_text(v)
        self.axes = {}
        for k, values in flatten(doc.get("axes", {})).items():
            where = "%s: [axes] %s" % (path, k)
            self._check_key(k, where)
            if not isinstance(values, list) or not values:
                raise DesyncError("%s: give a non-empty list of values (one value for all points "
                                  "belongs in [set] or [campaign])" % where)
            for v in values:
                self._check_value(k, v, where)
            self.axes[k] = values
        self.explicit = []
        for i, p in enumerate(doc.get("points", [])):
            where = "%s: [[points]] #%d" % (path, i + 1)
            if not isinstance(p, dict):
                raise DesyncError("%s: each [[points]] entry is a table" % where)
            given = p.get("id")
            p = flatten({k: v for k, v in p.items() if k != "id"})
            if not p:
                raise DesyncError("%s: an empty point" % where)
            for k, v in p.items():
                self._check_key(k, where)
                self._check_value(k, v, where)
            self.explicit.append((p, given))
        self.slurm = doc.get("slurm", {})
        if not isinstance(self.slurm, dict):
            raise DesyncError("%s: [slurm] must be a table" % path)

    def _enum(self, c, key, allowed, default):
        value = c.get(key, default)
        if value not in allowed:
            raise DesyncError("%s: [campaign] %s = %r: allowed: %s" % (
                self.path, key, value, ", ".join(repr(a) for a in allowed)))
        return value

    def _check_key(self, key, where):
        kind = key_kind(key, where)
        if kind == "deck" and key in self.fixed_sets:
            raise DesyncError("%s: %s is also in [set]; a key is either fixed or swept" % (where, key))
        if kind == "env" and key[4:] in self.fixed_env:
            raise DesyncError("%s: %s is also in [env]; a variable is either fixed or swept"
                              % (where, key[4:]))

    @staticmethod
    def _check_value(key, value, where):
        kind = key_kind(key, where)
        if kind == "launch":
            check_launch_value(key, value, where)
        elif kind == "env":
            env_text(value)
        else:
            toml_value(value, "%s %s" % (where, key))

    def keys(self):
        """Every key of any point, [axes] first, then those only [[points]] have."""
        keys = list(self.axes)
        for p, _ in self.explicit:
            keys += [k for k in p if k not in keys]
        return keys

    def label(self, key):
        if key in self.labels:
            return str(self.labels[key])
        short = LAUNCH_LABELS.get(key) or key.split(".")[-1]
        clash = [k for k in self.keys() if k != key and k not in self.labels
                 and (LAUNCH_LABELS.get(k) or k.split(".")[-1]) == short]
        return key.replace(".", "-") if clash else short

    def points(self):
        """The points in order: the product of [axes] (last axis fastest), then [[points]]
        (combine = "append"), or each product point with each [[points]] entry ("product")."""
        product = [dict(zip(self.axes, combo)) for combo in itertools.product(*self.axes.values())] \
            if self.axes else []
        raw = []  # (values, given id)
        if self.combine == "append" or not self.explicit:
            raw = [(v, None) for v in product] + list(self.explicit)
        else:
            for base in (product or [{}]):
                for p, given in self.explicit:
                    overlap = [k for k in p if k in base]
                    if overlap:
                        raise DesyncError("%s: [[points]] sets %s, which is also an axis; with "
                                          "combine = \"product\" a key is one or the other"
                                          % (self.path, overlap[0]))
                    values = dict(base, **p)
                    pid = None
                    if given:
                        head = "_".join(id_part(self.label(k), v) for k, v in base.items())
                        pid = "%s_%s" % (head, given) if head else given
                    raw.append((values, pid))
        if not raw:
            raw = [({}, None)]
        points, seen = [], {}
        for values, given in raw:
            pt = Point(self, values, given)
            if pt.id in seen:
                raise DesyncError("%s: two points have the run id %r (%s and %s); give the "
                                  "[[points]] entry an id" % (self.path, pt.id, seen[pt.id], values))
            seen[pt.id] = values
            points.append(pt)
        return points

    def output_path(self, outdir, point, suffix=".h5"):
        return os.path.join(outdir, point.id + suffix)


def load_campaign(path):
    """Read and check a campaign file; DesyncError naming the file and key on any problem."""
    if _toml is None:
        raise DesyncError("reading TOML needs Python 3.11 (tomllib) or the tomli package")
    if os.path.isdir(path):
        raise DesyncError("%s: is a directory, not a campaign file" % path)
    if not os.path.isfile(path):
        raise DesyncError("%s: no such campaign file" % path)
    try:
        with open(path, "rb") as fh:
            doc = _toml.load(fh)
    except (_toml.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise DesyncError("%s: not valid TOML: %s" % (path, " ".join(str(exc).split())))
    except OSError as exc:
        raise DesyncError("%s: cannot read: %s" % (path, exc.strerror or exc))
    return Campaign(doc, path)
