"""Numbers, times, byte counts, rank lists and iteration spans formatted for humans."""

import numpy as np


def rank_ranges(ranks):
    """Compact rank list: [0,1,2,3,5] -> '0-3,5'."""
    ranks = sorted(int(r) for r in ranks)
    parts, start = [], None
    for i, r in enumerate(ranks):
        if start is None:
            start = r
        if i + 1 == len(ranks) or ranks[i + 1] != r + 1:
            parts.append(str(start) if start == r else "%d-%d" % (start, r))
            start = None
    return ",".join(parts)


def format_time(seconds):
    """Seconds with a readable unit: '1.234 ms'; '-' for NaN/None."""
    if seconds is None or not np.isfinite(seconds):
        return "-"
    a = abs(seconds)
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("us", 1e-6)):
        if a >= scale:
            return "%.4g %s" % (seconds / scale, unit)
    return "%.4g ns" % (seconds / 1e-9) if a > 0 else "0 s"


def format_si(value, unit):
    """1.5e10, 'B/s' -> '15 GB/s'; '-' for NaN/None."""
    if value is None or not np.isfinite(value):
        return "-"
    for prefix, scale in (("T", 1e12), ("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if abs(value) >= scale:
            return "%.4g %s%s" % (value / scale, prefix, unit)
    return "%.4g %s" % (value, unit)


def format_quantity(value, units):
    """A metric by its units attribute: 's' -> '1.2 ms', 'B' and 'B/s' with SI prefixes, '1'
    plain (integers without a decimal point), anything else plain with the unit appended."""
    if isinstance(value, str):
        return value
    if value is None or not np.isfinite(value):
        return "-"
    if units == "s":
        return format_time(value)
    if units in ("B", "B/s"):
        return format_si(value, units)
    if float(value).is_integer() and abs(value) < 1e15:
        text = "%d" % value
    else:
        text = "%.4g" % value
    return text if units in ("1", "", None) else "%s %s" % (text, units)


def format_bytes(value):
    """8192 -> '8192 B (8 KiB)'."""
    if value is None or value < 0:
        return "-"
    value = int(value)
    for prefix, scale in (("Gi", 2**30), ("Mi", 2**20), ("Ki", 2**10)):
        if value >= scale:
            return "%d B (%.4g %sB)" % (value, value / scale, prefix)
    return "%d B" % value


def iteration_span(tl):
    """'-2..17' (deck numbering) of the window's iterations."""
    k0, k1 = int(tl.iterations.min()), int(tl.iterations.max())
    return str(k0) if k0 == k1 else "%d..%d" % (k0, k1)
