"""The JSON the tools write (--json, campaign tables): strict JSON that any reader takes.

Python's json module writes NaN and Infinity as bare tokens, which are not JSON (jq, browsers and
most other languages refuse the file); a quantity that is not a finite number (an idle wave that
did not move, a metric a run lacks) is written as null instead. numpy scalars and arrays become
plain numbers and lists."""

import json
import math

import numpy as np


def strict(value):
    """value with NaN/Inf as None and numpy types as Python ones, recursively."""
    if isinstance(value, dict):
        return {k: strict(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [strict(v) for v in value]
    if isinstance(value, np.ndarray):
        return [strict(v) for v in value.tolist()]
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def dump_json(value, fh, indent=1):
    """Write value to the open file fh as strict JSON."""
    json.dump(strict(value), fh, indent=indent, allow_nan=False)
