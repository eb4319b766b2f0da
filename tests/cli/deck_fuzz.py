#!/usr/bin/env python3
"""Deck fuzzer: mutate the shipped decks and run every mutant through `desync check`.

Each mutant (a deck with one to three mutations, sometimes with `--set` overrides and `--ranks`)
is checked with a timeout. A mutant fails the test when desync
  - hangs (runs past --timeout),
  - dies by a signal or exits with a code other than 0 (valid) or 2 (refused),
  - exits with 2 but its stderr is not exactly one non-empty line without control characters,
    or that line does not start with the mutant's path, "command line" or "desync:",
  - exits with 0 but prints something that looks like an error on stderr.
Mutant I depends only on the seed, I and the decks, so `--only I` reproduces it. Directed cases
d0, d1, ... (regressions and the edges of --set and --ranks) run before the random mutants.
desync runs directly (an MPI singleton, Open MPI's isolated mode), with OMP_NUM_THREADS=1,
OMP_PROC_BIND=false and a TMPDIR of its own.

Python 3 standard library only. Exit status: 0 when no mutant failed, 1 otherwise, 2 on bad usage.
"""
import argparse
import difflib
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

DEFAULT_SEED = 20240611

# Values that a deck line `key = VALUE` may get: every TOML type, and the edges of each.
BAD_VALUES = [
    # integers
    "0", "-1", "1", "7", "-0", "+1", "2147483647", "2147483648", "-2147483649", "4294967296",
    "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
    "144115188075855871", "144115188075855872", "1_000_000_000_000", "100000000000000000000000000000",
    "0x7fffffffffffffff", "0xffffffffffffffff", "0o777", "0b1010", "1__0", "01",
    # floats
    "0.0", "-0.0", "1.0", "0.5", "-1.5", "1e308", "1e309", "-1e309", "4.9e-324", "1e-400", "nan", "+nan",
    "-nan", "inf", "+inf", "-inf", "1e-9", "3600.000001", "1.", ".5", "1e", "9.3e18",
    # strings
    '""', "''", '"x"', '"triad"', '"spmv"', '"stencil"', '"chebfd"', '"none"', '"TRIAD"', '" triad"',
    '"' + "x" * 5000 + '"', '"' + "y" * 200000 + '"', '"ünïcödé ✓ 🙂 中文"', '"\\u0000"', '"a\\nb"',
    '"a\\r\\nb"', '"\\u001b[31mred"', '"tab\\there"', '"""multi\nline\nstring"""', "'''lit\nlines'''",
    '"unterminated', "'unterminated", '"\\q"', '"\\uD800"', '"\\U0010FFFF"', '"/dev/null"', '"../../x.h5"',
    # booleans and bare words
    "true", "false", "True", "yes", "null",
    # arrays
    "[]", "[1]", "[1, -1]", "[0, 0]", "[1, 1]", "[1, 2, 3]", "[-1000001, 1000001]", "[[1]]", "[[]]",
    '["a", 1]', "[1.5, 2.5]", "[true]", "[9223372036854775808]", "[" + ", ".join(["1"] * 3000) + "]",
    "[1,", "[,]", "[nan, inf]", "[{}]",
    # inline tables
    "{}", "{a = 1}", "{rank = 0, iteration = 1, duration = 0.1}", "{kind = \"spin\"}", "{a = {b = {c = 1}}}",
    "{a = 1", "{a = 1,}",
    # dates and times
    "1979-05-27T07:32:00Z", "1979-05-27", "07:32:00", "1979-05-27T07:32:00.999999-07:00",
    # nothing
    "",
]

# Values for `--set table.key=VALUE` (a command-line argument cannot hold a NUL byte).
BAD_SET_VALUES = [v for v in BAD_VALUES if len(v) < 1000 and "\n" not in v] + [
    "=", "a=b", "[1,", "{", "}", "1e999", "\"", "'", "#", "# comment", "x" * 3000, "ü", "\t", " ", "a\nb",
    "triad\n", "-1", "--ranks",
]

# `--set` arguments that are malformed as such.
BAD_SET_ARGS = [
    "noequals", "=1", ".=1", "run.=1", ".run=1", "run..iterations=1", "run.iterations", "run.iterations.x=1",
    "run=1", "inject.rank=1", "inject.0.rank=1", "inject[0].rank=1", "matrix.kind=spin", "bogus.key=1",
    "run.bogus=1", "RUN.ITERATIONS=5", "run.iterations=5=6", "\"run\".iterations=5", "run.\"iterations\"=5",
    " run.iterations = 5 ", "run.iterations=", "ü.ö=1", "a.b.c.d=1", "", "run.itera\ntions=5", "run.\x1b=1",
]

RANKS_VALUES = ["0", "-1", "1", "7", "1000000000", "16777216"]

TABLE_NAMES = ["run", "triad", "comm", "inject", "noise", "threads", "spmv", "matrix", "stencil", "chebfd"]
UNKNOWN_TABLES = ["bogus", "tread", "Run", "run.sub", "matrix.extra", "spmv.x.y", "\"quoted table\"", "ü",
                  "a-b", "run . iterations", "1234", "inject.x", "triad.comm"]
RANDOM_LINES = [
    "[run]", "[[run]]", "[[inject]]", "[inject]", "inject = 5", "run = 1", "run.iterations = 5",
    "a.b.c = 1", "[a.b.c]", "x = 1", "\"\" = 1", "'' = 2", "\"a\\nb\" = 1", "\"key\\u0000\" = 1",
    "ü = 1", "= 1", "key =", "key", "[", "]", "[[", "[]", "[[]]", "[ run ]", "[run]]", "\"run\" = {}",
    "iterations = 1\niterations = 2", "[run]\n[run]", "#", "\\", "\t", "\r", "key = 1 # comment",
    "key = 1 2", "key = 1,", "1 = 1", "-1 = 1", "true = false", "inf = nan",
]

KEY_LINE = re.compile(rb"^(\s*)([A-Za-z0-9_\-\"'.]+)(\s*=\s*)(.*)$")
TABLE_LINE = re.compile(rb"^(\s*)(\[\[?)([^\]]*)(\]\]?)(.*)$")
ERRORISH = re.compile(r"error|exception|terminate|abort|assert|sanitizer|segmentation|core dumped|what\(\)|"
                      r"traceback|fatal|panic", re.IGNORECASE)


# ---- mutations: each takes (rng, lines) and returns (lines, description) or None ------------

def _pick(rng, lines, pattern):
    idx = [i for i, l in enumerate(lines) if pattern.match(l) and not l.lstrip().startswith(b"#")]
    return rng.choice(idx) if idx else None


def m_delete_line(rng, lines):
    if not lines:
        return None
    i = rng.randrange(len(lines))
    return lines[:i] + lines[i + 1:], f"delete line {i + 1}"


def m_duplicate_line(rng, lines):
    if not lines:
        return None
    i = rng.randrange(len(lines))
    return lines[:i + 1] + [lines[i]] + lines[i + 1:], f"duplicate line {i + 1}"


def m_swap_value(rng, lines):
    i = _pick(rng, lines, KEY_LINE)
    if i is None:
        return None
    m = KEY_LINE.match(lines[i])
    v = rng.choice(BAD_VALUES)
    out = list(lines)
    out[i] = m.group(1) + m.group(2) + m.group(3) + v.encode()
    return out, f"line {i + 1}: {m.group(2).decode(errors='replace')} = {_short(v)}"


def _misspell(rng, word):
    if not word:
        return "x"
    k = rng.randrange(6)
    j = rng.randrange(len(word))
    if k == 0 and len(word) > 1:
        return word[:j] + word[j + 1:]  # drop a letter
    if k == 1 and len(word) > 1:
        j = min(j, len(word) - 2)
        return word[:j] + word[j + 1] + word[j] + word[j + 2:]  # swap two
    if k == 2:
        return word[:j] + rng.choice("abcdefghijklmnopqrstuvwxyz_") + word[j:]  # add one
    if k == 3:
        return word.upper() if word != word.upper() else word.lower()
    if k == 4:
        return word + rng.choice(["s", "_", "2", "-", ".x"])
    return word[:j] + rng.choice("aeiouüé") + word[j + 1:]  # change one


def m_misspell_key(rng, lines):
    i = _pick(rng, lines, KEY_LINE)
    if i is None:
        return None
    m = KEY_LINE.match(lines[i])
    key = m.group(2).decode(errors="replace")
    new = _misspell(rng, key)
    out = list(lines)
    out[i] = m.group(1) + new.encode() + m.group(3) + m.group(4)
    return out, f"line {i + 1}: key {key!r} -> {new!r}"


def m_rename_table(rng, lines):
    i = _pick(rng, lines, TABLE_LINE)
    if i is None:
        return None
    m = TABLE_LINE.match(lines[i])
    old = m.group(3).decode(errors="replace")
    new = rng.choice([_misspell(rng, old.strip()), rng.choice(TABLE_NAMES), rng.choice(UNKNOWN_TABLES)])
    out = list(lines)
    out[i] = m.group(1) + m.group(2) + new.encode() + m.group(4) + m.group(5)
    return out, f"line {i + 1}: table {old!r} -> {new!r}"


def m_table_to_array(rng, lines):
    i = _pick(rng, lines, TABLE_LINE)
    if i is None:
        return None
    m = TABLE_LINE.match(lines[i])
    out = list(lines)
    if m.group(2) == b"[[":  # and the other way round
        out[i] = m.group(1) + b"[" + m.group(3) + b"]" + m.group(5)
        what = "array of tables -> table"
    else:
        out[i] = m.group(1) + b"[[" + m.group(3) + b"]]" + m.group(5)
        what = "table -> array of tables"
    return out, f"line {i + 1}: {what} ({m.group(3).decode(errors='replace')})"


def m_insert_unknown_table(rng, lines):
    name = rng.choice(UNKNOWN_TABLES + TABLE_NAMES)
    body = rng.choice([b"", b"x = 1\n", b"iterations = 5\n", b"kind = \"spin\"\n", b"rank = 0\niteration = 0\n"])
    i = rng.randrange(len(lines) + 1)
    header = ("[[%s]]" if rng.random() < 0.2 else "[%s]") % name
    new = (header.encode() + b"\n" + body).rstrip(b"\n").split(b"\n")
    return lines[:i] + new + lines[i:], f"insert table {header} at line {i + 1}"


def m_insert_line(rng, lines):
    text = rng.choice(RANDOM_LINES)
    i = rng.randrange(len(lines) + 1)
    return lines[:i] + text.encode().split(b"\n") + lines[i:], f"insert {text!r} at line {i + 1}"


MUTATIONS = [
    (m_delete_line, 3), (m_duplicate_line, 3), (m_swap_value, 10), (m_misspell_key, 4), (m_rename_table, 3),
    (m_table_to_array, 2), (m_insert_unknown_table, 3), (m_insert_line, 3),
]


def b_truncate(rng, data):
    if not data:
        return None
    k = rng.randrange(len(data) + 1)
    return data[:k], f"truncate at byte {k}"


def b_insert_bytes(rng, data):
    k = rng.randrange(len(data) + 1)
    choice = rng.randrange(5)
    if choice == 0:
        junk = b"\x00"
    elif choice == 1:
        junk = bytes(rng.randrange(256) for _ in range(rng.randint(1, 16)))
    elif choice == 2:
        junk = rng.choice([b"\xff\xfe", b"\xc3", b"\xe2\x82", b"\xed\xa0\x80", b"\xef\xbb\xbf", b"\x1b[2J", b"\r",
                           b"\x0b", b"\x0c", b"\x7f", b"\xf4\x90\x80\x80", b"\xc0\xaf"])
    elif choice == 3:
        junk = b"\x00" * rng.randint(2, 64)
    else:
        junk = bytes([rng.randrange(256)])
        data = data[:k] + data[k + 1:]  # replace rather than insert
    return data[:k] + junk + data[k:], f"insert bytes {junk!r} at byte {k}"


BYTE_MUTATIONS = [(b_truncate, 2), (b_insert_bytes, 3)]


def _short(s, n=60):
    """S on one line: control characters escaped, long ones cut."""
    s = s if isinstance(s, str) else repr(s)
    s = "".join(c if c.isprintable() or c == " " else repr(c)[1:-1] for c in s)
    return s if len(s) <= n else s[:n] + f"...({len(s)} chars)"


def _weighted(rng, table):
    total = sum(w for _, w in table)
    x = rng.uniform(0, total)
    for f, w in table:
        x -= w
        if x <= 0:
            return f
    return table[-1][0]


def deck_keys(data):
    """table.key names of a deck (for --set), from its plain tables."""
    keys, table = [], None
    for line in data.split(b"\n"):
        t = TABLE_LINE.match(line)
        if t and t.group(2) == b"[":
            table = t.group(3).decode(errors="replace").strip()
            continue
        if t:
            table = None
            continue
        k = KEY_LINE.match(line)
        if k and table and not line.lstrip().startswith(b"#"):
            keys.append(f"{table}.{k.group(2).decode(errors='replace')}")
    return keys


def make_mutant(seed, index, decks):
    """Mutant INDEX: (origin deck, mutant bytes, extra arguments, descriptions)."""
    rng = random.Random(f"{seed}:{index}")
    origin = rng.choice(decks)
    data = origin.read_bytes()
    what = []
    for _ in range(rng.choice([1, 1, 1, 2, 2, 3])):
        if rng.random() < 0.15:
            r = _weighted(rng, BYTE_MUTATIONS)(rng, data)
            if r:
                data, d = r
                what.append(d)
            continue
        lines = data.split(b"\n")
        r = _weighted(rng, MUTATIONS)(rng, lines)
        if r:
            lines, d = r
            data = b"\n".join(lines)
            what.append(d)
    args = []
    if rng.random() < 0.25:
        for _ in range(rng.randint(1, 2)):
            keys = deck_keys(origin.read_bytes()) or ["run.iterations"]
            r = rng.random()
            if r < 0.6:
                arg = f"{rng.choice(keys)}={rng.choice(BAD_SET_VALUES)}"
            elif r < 0.8:
                arg = f"{rng.choice(TABLE_NAMES)}.{_misspell(rng, rng.choice(keys).split('.', 1)[1])}=1"
            else:
                arg = rng.choice(BAD_SET_ARGS)
            args += ["--set", arg]
    if rng.random() < 0.2:
        args += ["--ranks", rng.choice(RANKS_VALUES)]
    if not what and not args:
        what.append("unchanged")
    return origin, data, args, what


# Directed cases, checked before the random mutants (labels d0, d1, ...): what earlier fuzzing
# found, and the edges of --set and --ranks. Each maps the origin deck's bytes to (bytes, args).
def _append(text):
    return lambda d: (d.rstrip(b"\n") + b"\n" + text.encode() + b"\n", [])


DIRECTED = [
    ("--set value with a line break", lambda d: (d, ["--set", "run.workload=a\nb"])),
    ("--set value with an escape character", lambda d: (d, ["--set", "run.workload=a\x1b[31mred"])),
    ("multi-line string value", _append('[noise]\nkind = """a\nb"""')),
    ("escape character in a string value", _append('[noise]\nkind = "a\\u001b[31mred"')),
    ("array of nan and inf as a value", _append("[noise]\nmean = [nan, inf]")),
    ("long array as a value", _append("[noise]\nmean = [" + ", ".join(["1"] * 200) + "]")),
    ("table where a value belongs", _append("[noise.kind]\nx = 1\ny = 2")),
    ("quoted key with a line break", _append('[noise]\n"a\\nb" = 1')),
    ("NUL byte", lambda d: (d + b"\x00", [])),
    ("empty deck", lambda d: (b"", [])),
    ("--ranks 0", lambda d: (d, ["--ranks", "0"])),
    ("--ranks -1", lambda d: (d, ["--ranks", "-1"])),
    ("--ranks 1000000000", lambda d: (d, ["--ranks", "1000000000"])),
    ("--ranks x", lambda d: (d, ["--ranks", "x"])),
]


def make_directed(k, decks):
    origin = next((p for p in decks if p.name == "quickstart.toml"), decks[0])
    data, args = DIRECTED[k][1](origin.read_bytes())
    return origin, data, args, [DIRECTED[k][0]]


def run_one(desync, path, args, timeout, env):
    cmd = [desync, "check", str(path)] + args
    # A TMPDIR of its own: isolated Open MPI singletons all use the session directory
    # $TMPDIR/ompi.HOST.UID/jf.0, and one that exits removes it under another that starts.
    tmp = path.with_suffix(".tmp")
    tmp.mkdir()
    env = dict(env, TMPDIR=str(tmp.resolve()))
    t0 = time.monotonic()
    # Own session, so that a hang is killed with everything it started (an MPI singleton's helpers).
    p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                         start_new_session=True)
    try:
        out, err = p.communicate(timeout=timeout)
        hung = False
    except subprocess.TimeoutExpired:
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        out, err = p.communicate()
        hung = True
    return cmd, p.returncode, out, err, hung, time.monotonic() - t0


def judge(path, rc, out, err, hung, timeout):
    """None if fine, else why it failed."""
    if hung:
        return f"hang: still running after {timeout} s (killed)"
    if rc < 0:
        return f"killed by signal {-rc} ({signal.Signals(-rc).name if -rc in signal.valid_signals() else '?'})"
    text = err.decode("utf-8", errors="backslashreplace")
    if rc == 2:
        line = text[:-1] if text.endswith("\n") else text
        if not line.strip():
            return "exit code 2 with nothing on stderr"
        if "\n" in line:
            return f"exit code 2 with a multi-line error ({line.count(chr(10)) + 1} lines)"
        bad = sorted({c for c in line if (ord(c) < 32 and c != "\t") or ord(c) == 127})
        if bad:
            return f"exit code 2 with control characters {bad!r} in the error line"
        if not (line.startswith(str(path)) or line.startswith("command line") or line.startswith("desync:")):
            return "exit code 2, but the error does not start with the deck's path, 'command line' or 'desync:'"
        return None
    if rc == 0:
        if ERRORISH.search(text):
            return "exit code 0, but stderr looks like an error"
        return None
    return f"exit code {rc} (allowed: 0 valid, 2 refused)"


def report(index, seed, origin, data, args, what, cmd, rc, out, err, why):
    print(f"=== FAIL mutant {index} of {origin}: {why}")
    print(f"    mutations: {_short('; '.join(what), 2000)}")
    print(f"    command: {_short(' '.join(_quote(c) for c in cmd), 2000)}")
    print(f"    rc: {rc}")
    a = origin.read_bytes().decode("utf-8", errors="backslashreplace").splitlines()
    b = data.decode("utf-8", errors="backslashreplace").splitlines()
    diff = list(difflib.unified_diff(a, b, str(origin), "mutant", lineterm="", n=1))
    print("    diff against the origin:" if diff else "    (deck unchanged)")
    for l in diff[:40]:
        print("      " + _short(l, 300))
    if len(data) < 4000 and any(b < 32 and b not in (9, 10) or b >= 127 for b in data):
        print(f"    mutant bytes: {data!r}")
    tail = lambda s: "\n".join(_short(l, 400) for l in s.decode("utf-8", errors="backslashreplace").split("\n")[-15:])
    print("    stdout (tail):\n      " + tail(out).replace("\n", "\n      "))
    print("    stderr (tail):\n      " + tail(err).replace("\n", "\n      "))
    print(f"    reproduce: {Path(sys.argv[0]).name} --desync ... --decks ... --seed {seed} --only {index} --keep")
    sys.stdout.flush()


def _quote(s):
    return s if re.fullmatch(r"[\w@%+=:,./-]+", s) else "'" + s.replace("'", "'\\''") + "'"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--desync", required=True, help="the desync binary")
    ap.add_argument("--decks", required=True, help="directory of decks (searched recursively for *.toml)")
    ap.add_argument("--count", type=int, default=300, help="number of mutants (default 300)")
    ap.add_argument("--seed", type=int, default=DEFAULT_SEED, help=f"seed (default {DEFAULT_SEED})")
    ap.add_argument("--timeout", type=float, default=10.0, help="seconds per `desync check` (default 10)")
    ap.add_argument("--workdir", help="where mutants are written (default: a temporary directory); removed after")
    ap.add_argument("--jobs", type=int, default=2, help="mutants checked at once (default 2)")
    ap.add_argument("--only", action="append", metavar="I",
                    help="check only mutant I (a number, or d0, d1, ... for the directed cases; repeatable)")
    ap.add_argument("--keep", action="store_true", help="keep the work directory")
    ap.add_argument("-v", "--verbose", action="store_true", help="print every mutant's outcome")
    a = ap.parse_args()

    desync = os.path.abspath(a.desync)
    if not os.access(desync, os.X_OK):
        ap.error(f"--desync {a.desync}: not an executable")
    decks = sorted(Path(a.decks).rglob("*.toml"), key=lambda p: p.as_posix())
    if not decks:
        ap.error(f"--decks {a.decks}: no *.toml files")
    if a.workdir:
        work = Path(a.workdir)
        if work.exists():  # left over from an earlier run: only mutants may be in it
            if not work.is_dir() or any(not e.name.startswith("mutant_") for e in work.iterdir()):
                ap.error(f"--workdir {a.workdir}: exists and holds more than mutants; give a new directory")
            shutil.rmtree(work)
        work.mkdir(parents=True)
    else:
        work = Path(tempfile.mkdtemp(prefix="deck_fuzz."))
    env = dict(os.environ, OMP_NUM_THREADS="1", OMP_PROC_BIND="false")
    # An Open MPI singleton starts faster without its helper daemon (check needs no other rank).
    env.setdefault("OMPI_MCA_ess_singleton_isolated", "1")

    labels = a.only if a.only else [f"d{k}" for k in range(len(DIRECTED))] + [str(i) for i in range(a.count)]
    mutants = []
    for i in labels:
        if i.startswith("d") and i[1:].isdigit() and int(i[1:]) < len(DIRECTED):
            origin, data, args, what = make_directed(int(i[1:]), decks)
        elif i.isdigit():
            origin, data, args, what = make_mutant(a.seed, int(i), decks)
        else:
            ap.error(f"--only {i}: neither a mutant number nor d0..d{len(DIRECTED) - 1}")
        path = work / f"mutant_{i}.toml"
        path.write_bytes(data)
        mutants.append((i, origin, data, args, what, path))

    counts = {"valid": 0, "refused": 0, "failures": 0}
    slowest = (0.0, None)
    t0 = time.monotonic()
    try:
        with ThreadPoolExecutor(max_workers=max(1, a.jobs)) as pool:
            results = pool.map(lambda m: run_one(desync, m[5], m[3], a.timeout, env), mutants)
            for (i, origin, data, args, what, path), (cmd, rc, out, err, hung, dt) in zip(mutants, results):
                why = judge(path, rc, out, err, hung, a.timeout)
                slowest = max(slowest, (dt, i), key=lambda x: x[0])
                if why:
                    counts["failures"] += 1
                    report(i, a.seed, origin, data, args, what, cmd, rc, out, err, why)
                else:
                    counts["valid" if rc == 0 else "refused"] += 1
                if a.verbose:
                    first = err.decode("utf-8", errors="backslashreplace").split("\n", 1)[0]
                    print(f"{i:>4} rc={rc} {dt:5.2f}s {origin.name}: {_short('; '.join(what), 200)} "
                          f"{_short(' '.join(args), 200)} | {_short(first, 160)}")
    finally:
        if not a.keep:
            shutil.rmtree(work, ignore_errors=True)
    print(f"{len(mutants)} mutants: {counts['valid']} valid, {counts['refused']} refused, "
          f"{counts['failures']} failures ({time.monotonic() - t0:.1f} s, slowest mutant {slowest[1]}: "
          f"{slowest[0]:.2f} s, seed {a.seed})")
    if a.keep:
        print(f"mutants kept in {work}")
    return 1 if counts["failures"] else 0


if __name__ == "__main__":
    sys.exit(main())
