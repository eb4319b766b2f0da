"""Mutations of deck files for the deck fuzzer (deck_fuzz.py): bad values of every TOML type,
misspelled keys and tables, unknown tables, duplicated or deleted lines, truncated or corrupted
bytes, bad `--set` overrides and `--ranks` values, and the directed regression cases. Every mutant
depends only on (seed, index, decks), so a failure reproduces from its index."""
import random
import re

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
